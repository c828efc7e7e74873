import { maxOf, minOf } from '../core/extent.js';
import type { MetricAnalysis } from '../eval/analysis.js';
import { pText } from '../eval/table.js';
import { esc, fmt } from './html.js';

/**
 * Critical-difference diagram in the style of Demšar (2006), Fig. 1: average ranks on an axis
 * (1 = best, on the left), each configuration hung from its rank to a label on the left (better
 * half) or right, the Nemenyi CD (α = 0.05) drawn above the axis, and thick bars joining
 * configurations whose ranks differ by less than CD (not significantly different).
 */
export function cdDiagram(m: MetricAnalysis, colors: Map<string, string>): string {
  const k = m.configs.length;
  if (!m.friedman || k < 2)
    return `<p class="note">${esc(m.note ?? 'not enough complete results for a critical-difference diagram')}</p>`;
  const ranks = m.averageRanks;
  const order = m.configs.map((_, i) => i).sort((a, b) => ranks[a] - ranks[b] || a - b);
  const labelWidth = Math.min(260, 40 + 7.2 * maxOf(m.configs.map((c) => c.length)));
  const width = Math.max(600, 2 * labelWidth + Math.max(300, 60 * (k - 1)));
  // Labels sit at the edges; the axis spans the middle.
  const left = labelWidth;
  const right = width - labelWidth;
  const x = (r: number) => left + ((r - 1) / Math.max(1, k - 1)) * (right - left);
  const axisY = 52;
  const cliqueTop = axisY + 16;
  const rowTop = cliqueTop + m.cliques.length * 9 + 18;
  const nLeft = Math.ceil(k / 2);
  const rowH = 22;
  const height = rowTop + Math.max(nLeft, k - nLeft) * rowH + 24;
  const parts: string[] = [];
  parts.push(
    `<svg class="chart cd-diagram" data-metric="${esc(m.metric)}" viewBox="0 0 ${width} ${height}" ` +
      `width="${width}" height="${height}" role="img" aria-label="critical difference diagram of ${esc(m.label)}">`,
  );
  parts.push(cdScale(m.cd05!, k, left, x), rankAxis(k, axisY, x));
  // Cliques.
  m.cliques.forEach((group, j) => {
    const rs = group.map((c) => ranks[m.configs.indexOf(c)]);
    const y = cliqueTop + j * 9;
    parts.push(
      `<line class="clique" x1="${x(minOf(rs)) - 4}" y1="${y}" x2="${x(maxOf(rs)) + 4}" y2="${y}" ` +
        'stroke="#111" stroke-width="4" stroke-linecap="round" ' +
        `data-tip="not significantly different (Nemenyi, α = 0.05): ${esc(group.join(', '))}"/>`,
    );
  });
  // Labels.
  order.forEach((i, pos) => {
    const onLeft = pos < nLeft;
    const row = onLeft ? pos : k - 1 - pos;
    const y = rowTop + row * rowH;
    const rx = x(ranks[i]);
    const ex = onLeft ? 8 : width - 8;
    const c = colors.get(m.configs[i]) ?? '#333';
    const tip = `${m.configs[i]}: average rank ${fmt(ranks[i], 3)} on ${m.label} over ${m.datasets.length} data sets`;
    parts.push(
      `<g class="cd-label" data-config="${esc(m.configs[i])}" data-tip="${esc(tip)}">` +
        `<polyline points="${rx},${axisY} ${rx},${y} ${ex},${y}" fill="none" stroke="${c}" stroke-width="1.6"/>` +
        `<circle cx="${rx}" cy="${axisY}" r="3.5" fill="${c}"/>` +
        `<text x="${onLeft ? ex : ex}" y="${y - 4}" text-anchor="${onLeft ? 'start' : 'end'}">` +
        `${esc(m.configs[i])} <tspan class="muted">${fmt(ranks[i], 2)}</tspan></text></g>`,
    );
  });
  const f = m.friedman;
  parts.push(
    `<text x="${width / 2}" y="${height - 8}" text-anchor="middle" class="small muted">` +
      `average rank over ${f.N} data sets (1 = best) · Friedman ${esc(pText(f.pValue))}, ` +
      `Iman–Davenport ${esc(pText(f.imanDavenport.pValue))}</text>`,
  );
  parts.push('</svg>');
  return parts.join('');
}

/** The Nemenyi CD drawn as a scale bar above the axis (or said in words when it is wider than the axis). */
function cdScale(cd: number, k: number, left: number, x: (r: number) => number): string {
  if (cd < k - 1 + 1e-9)
    return (
      `<g class="cd-bar" data-tip="Nemenyi critical difference at α = 0.05: ` +
      `average ranks closer than ${fmt(cd, 3)} are not significantly different">` +
      `<line x1="${x(1)}" y1="18" x2="${x(1 + cd)}" y2="18" stroke="#222" stroke-width="2"/>` +
      `<line x1="${x(1)}" y1="13" x2="${x(1)}" y2="23" stroke="#222"/>` +
      `<line x1="${x(1 + cd)}" y1="13" x2="${x(1 + cd)}" y2="23" stroke="#222"/>` +
      `<text x="${(x(1) + x(1 + cd)) / 2}" y="10" text-anchor="middle" class="small">CD = ${fmt(cd, 2)}</text></g>`
    );
  return `<text x="${left}" y="18" class="small">CD = ${fmt(cd, 2)} (wider than the axis: no pair can differ)</text>`;
}

/** The rank axis at height `axisY`, a tick and number at each integer rank and a short tick halfway. */
function rankAxis(k: number, axisY: number, x: (r: number) => number): string {
  const parts = [`<line x1="${x(1)}" y1="${axisY}" x2="${x(k)}" y2="${axisY}" stroke="#222"/>`];
  for (let r = 1; r <= k; r++) {
    parts.push(
      `<line x1="${x(r)}" y1="${axisY}" x2="${x(r)}" y2="${axisY - 8}" stroke="#222"/>` +
        `<text x="${x(r)}" y="${axisY - 12}" text-anchor="middle" class="small">${r}</text>`,
    );
    if (r < k)
      parts.push(`<line x1="${x(r + 0.5)}" y1="${axisY}" x2="${x(r + 0.5)}" y2="${axisY - 4}" stroke="#222"/>`);
  }
  return parts.join('');
}
