/**
 * Many classes (issue 18 item 13): with 60 classes, every split's stored score is the criterion on
 * its children's counts, so the count tables the numeric scan keeps are those of the chosen
 * position (unit and non-unit weights), and the scans' tables, which hold only the classes present
 * at the node (ScanContext.enterNode), score as the all-class tables do — also for the measures
 * that count classes (DCSM, Chandra–Varghese, chi-square, G).
 */
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { tableFromCounts } from '../../src/criteria/index.js';
import { getCriterion } from '../../src/criteria/registry.js';
import { datasetFromRows } from '../../src/data/encode.js';

const CLASSES = 60;

function data() {
  let seed = 11;
  const next = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  return datasetFromRows(
    Array.from({ length: 1200 }, (_, i) => {
      const c = i % CLASSES;
      return { a: c + next() * 25, b: ((c * 7) % 13) + next() * 4, y: `k${c}` };
    }),
  );
}

describe(`a numeric scan over ${CLASSES} classes`, () => {
  const ds = data();
  const weights = Array.from({ length: ds.nRows }, (_, i) => 1 + (i % 3) * 0.7);
  it.each([
    ['gini, unit weights', 'gini', undefined],
    ['gini, weighted rows', 'gini', weights],
    ['information gain, weighted rows', 'info-gain', weights],
    ['DCSM, weighted rows', 'dcsm', weights],
    ['Chandra–Varghese, unit weights', 'chandra-varghese', undefined],
    ['chi-square, weighted rows', 'chi-square', weights],
    ['G-statistic, unit weights', 'g-statistic', undefined],
    ['twoing, weighted rows', 'twoing', weights],
  ] as const)('%s: each split scores its children', (_, criterion, sampleWeight) => {
    const tree = fit(ds, { prune: 'none', criterion, minSamplesLeaf: 5, sampleWeight });
    const measure = getCriterion(criterion);
    const nodes = tree.nodes;
    let splits = 0;
    for (const node of nodes) {
      if (!node.children) continue;
      splits++;
      const expected = measure.evaluate(tableFromCounts(node.children.map((c) => nodes[c].counts)));
      // Relative: DCSM's values reach millions.
      expect(Math.abs(node.score - expected)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(expected)));
    }
    expect(splits).toBeGreaterThan(30);
  });
});
