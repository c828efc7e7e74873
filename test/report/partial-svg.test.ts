/** The partial dependence picture: a line per class over a numeric grid, a dot per class and category, to scale. */
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { partialDependence } from '../../src/explain/partial.js';
import { partialDependenceSvg } from '../../src/report/partial-svg.js';
import { synthetic } from '../explain/synthetic.js';

describe('partial dependence picture', () => {
  const data = synthetic(300, 9);
  const tree = fit(data, { algorithm: 'cart', maxDepth: 5 });

  it('draws a numeric feature as one polyline per class, a point per grid value, higher probability higher up', () => {
    const pd = partialDependence(tree, data, 'x0');
    const svg = partialDependenceSvg(pd);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.endsWith('</svg>')).toBe(true);
    const lines = [...svg.matchAll(/<polyline class="pd-line" points="([^"]+)"/g)].map((m) =>
      m[1].split(' ').map((p) => p.split(',').map(Number)),
    );
    const k = pd.classes.length;
    expect(lines).toHaveLength(k);
    for (const [c, points] of lines.entries()) {
      expect(points).toHaveLength(pd.grid.length);
      // x increases with the grid; y (SVG: down) decreases as the probability rises.
      for (let g = 1; g < points.length; g++) {
        expect(points[g][0]).toBeGreaterThan(points[g - 1][0]);
        const rise = pd.average[g * k + c] - pd.average[(g - 1) * k + c];
        if (Math.abs(rise) > 1e-3) expect(Math.sign(points[g - 1][1] - points[g][1])).toBe(Math.sign(rise));
      }
    }
    for (const c of pd.classes) expect(svg).toContain(`<title>P(${c})</title>`);
    expect(partialDependenceSvg(pd, 1).match(/pd-line/g)).toHaveLength(1);
  });

  it('draws a categorical feature as a row per category with a dot per class at its probability', () => {
    const pd = partialDependence(tree, data, 'c0');
    const svg = partialDependenceSvg(pd);
    const k = pd.classes.length;
    expect(svg.match(/<g class="pd-category">/g)).toHaveLength(pd.grid.length);
    const dots = [...svg.matchAll(/<circle cx="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(dots).toHaveLength(pd.grid.length * k);
    // On [0, 1] from the label column to the right margin: the same affine map for every dot.
    const [a, b] = [0, 1].map((j) => ({ x: dots[j], p: pd.average[j] }));
    const scale = (b.x - a.x) / (b.p - a.p);
    dots.forEach((x, j) => expect(x - a.x).toBeCloseTo((pd.average[j] - a.p) * scale, 0));
    const cut = partialDependenceSvg(pd, 10, 2);
    expect(cut).toContain(`${pd.grid.length - 2} more categories`);
  });

  it('escapes the names it shows', () => {
    const pd = partialDependence(tree, data, 'x0');
    const svg = partialDependenceSvg({ ...pd, feature: '<x & "y">', classes: ['<b>', ...pd.classes.slice(1)] });
    expect(svg).not.toContain('<x &');
    expect(svg).not.toContain('<b>');
    expect(svg).toContain('&lt;x &amp; &quot;y&quot;&gt;');
  });
});
