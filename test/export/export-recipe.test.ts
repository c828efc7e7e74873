/**
 * The recipe "Add an export format" of docs/architecture.md, done as a new format would do it
 * (steps 1 and 3): a toy format, a JavaScript function as text, written from `portableTree` alone
 * and verified by running it on every row and comparing with grove's predictions, on models with
 * each kind of routing (thresholds, several thresholds, category lists, category subsets, missing
 * branches, C-MBSV's unclassified regions, C4.5's fractional policy approximated).
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Dataset } from '../../src/data/dataset.js';
import { portableTree } from '../../src/export/portable.js';
import { type DecisionTree, type FitOptions, fit, readDataset } from '../../src/node.js';
import { repoRoot } from '../helpers/cli.js';
import { asExported } from './cases.js';

/**
 * The toy export: a function of one row (per model feature, its value or category code; null
 * when missing) to the predicted class index (-1 for an unclassified region). Iterative, as an
 * exporter must be (no recursion over the tree's depth): one `case` per node.
 */
function treeToJs(tree: DecisionTree): { source: string; warnings: string[] } {
  const p = portableTree(tree, 'JavaScript');
  const cases: string[] = [];
  tree.nodes.forEach((node, i) => {
    if (!node.split || !node.children) {
      cases.push(`case ${i}: return ${p.classOf[i]};`);
      return;
    }
    const children = node.children;
    const missing = children[p.missingBranch[i]];
    const split = node.split;
    let branch: string;
    if (split.kind === 'numeric') {
      // The first threshold the value is at most, else the last branch.
      branch = split.thresholds.map((t, b) => `v <= ${t} ? ${children[b]} : `).join('') + children.at(-1);
    } else {
      const table: number[] = [];
      const put = (codes: number[], b: number) => {
        for (const code of codes) table[code] = children[b];
      };
      if (split.kind === 'subset') {
        put(split.left, 0);
        put(split.right, 1);
      } else split.values.forEach((code, b) => put([code], b));
      branch = `[${Array.from(table, (c) => c ?? missing).join(', ')}][v] ?? ${missing}`;
    }
    cases.push(`case ${i}: { const v = row[${split.feature}]; i = v === null ? ${missing} : ${branch}; break; }`);
  });
  const source = `(row) => {\n  let i = 0;\n  for (;;) {\n    switch (i) {\n      ${cases.join('\n      ')}\n    }\n  }\n}`;
  return { source, warnings: p.warnings };
}

/** Row r of `data` as the toy export reads it. */
function rowOf(data: Dataset, r: number): (number | null)[] {
  return data.features.map((c) => {
    const v = c.kind === 'numeric' ? c.values[r] : c.codes[r];
    return c.kind === 'numeric' ? (Number.isNaN(v) ? null : v) : v < 0 ? null : v;
  });
}

const CASES: [string, FitOptions][] = [
  ['iris', { algorithm: 'cart' }],
  ['glass', { algorithm: 'cmbsv' }],
  ['house-votes-84', { algorithm: 'c45' }],
  ['house-votes-84', { algorithm: 'cart', missing: 'majority' }],
  ['zoo', { algorithm: 'id3' }],
];

describe('the export-format recipe: a toy format from portableTree', () => {
  it.each(CASES)('%s %j: the exported function predicts as grove', async (name, options) => {
    const data = await readDataset(resolve(repoRoot, 'data', `${name}.csv`));
    const tree = fit(data, options);
    const { source, warnings } = treeToJs(tree);
    const scorer = new Function(`return ${source}`)() as (row: (number | null)[]) => number;
    // Under the fractional policy the export approximates, and says so; the approximation is exact.
    const want = asExported(tree).predictCodes(data);
    expect(warnings.length > 0).toBe(tree.nodes.some((n) => n.children !== undefined && n.missingBranch === undefined));
    const got = Int32Array.from({ length: data.nRows }, (_, r) => scorer(rowOf(data, r)));
    expect(got).toEqual(want);
    expect(tree.nodes.filter((n) => n.children).length).toBeGreaterThan(0);
  });

  it('a C-MBSV model has unclassified regions, which the export writes as -1', async () => {
    const data = await readDataset(resolve(repoRoot, 'data', 'glass.csv'));
    const tree = fit(data, { algorithm: 'cmbsv' });
    expect(portableTree(tree, 'JavaScript').hasUnclassified).toBe(true);
    expect(treeToJs(tree).source).toContain('return -1;');
  });
});
