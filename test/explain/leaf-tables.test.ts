/**
 * The leaf-table TreeSHAP (leaf-tables.ts) against Lundberg's walk (tree-shap.ts) and brute force
 * on trees deep enough that features repeat along paths, with zero-weight branches; rows a C4.5
 * tree spreads are handed back to the walk; a block of rows explained in groups gives each row the
 * same values as alone; trees past the tables' budget get none.
 */
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { buildLeafTables } from '../../src/explain/leaf-tables.js';
import { alignRows } from '../../src/explain/rows.js';
import { columnBlock, explainByTables, explainRowsByTables, TableScratch } from '../../src/explain/table-shap.js';
import { TreeShapExplainer } from '../../src/explain/tree-shap.js';
import type { DecisionTree } from '../../src/model/decision-tree.js';
import { bruteShap } from './brute-shap.js';
import { synthetic } from './synthetic.js';

/** Per row: the tables' contributions (or null when they hand the row back) and the walk's. */
function both(tree: DecisionTree, data: ReturnType<typeof synthetic>, weight: number) {
  const tables = buildLeafTables(tree.compiled);
  if (tables === null) throw new Error('expected leaf tables');
  const { columns } = alignRows(tree, data, undefined, 'test');
  const width = tree.features.length * tree.classes.length;
  const walk = new TreeShapExplainer(tree.features.length);
  const scratch = new TableScratch();
  return Array.from({ length: data.nRows }, (_, i) => {
    const byTables = new Float64Array(width);
    const byWalk = new Float64Array(width);
    const done = explainByTables(tables, scratch, columns, i, byTables, 0, weight);
    walk.explainRow(tree.compiled, columns, i, byWalk, 0, weight);
    return { byTables: done ? byTables : null, byWalk, columns };
  });
}

function maxGap(a: Float64Array, b: Float64Array): number {
  let gap = 0;
  for (let j = 0; j < a.length; j++) gap = Math.max(gap, Math.abs(a[j] - b[j]));
  return gap;
}

describe('TreeSHAP by leaf tables', () => {
  it('equals the walk and brute force where features repeat along paths', () => {
    const data = synthetic(400, 7);
    const tree = fit(data, { algorithm: 'cart', prune: 'none', maxDepth: 9, minSamplesLeaf: 1 });
    // Some path splits twice on one feature: the tables merge its edges into one slot.
    const repeats = tree.nodes.some(
      (n) => n.split && n.children!.some((c) => tree.nodes[c].split?.feature === n.split!.feature),
    );
    expect(repeats).toBe(true);
    const rows = both(tree, data, 0.25);
    for (const [i, r] of rows.entries()) {
      expect(r.byTables).not.toBeNull();
      expect(maxGap(r.byTables!, r.byWalk)).toBeLessThan(1e-12);
      if (i < 30) {
        const brute = bruteShap(tree.compiled, r.columns, i, tree.features.length).map((x) => 0.25 * x);
        expect(maxGap(r.byTables!, brute)).toBeLessThan(1e-9);
      }
    }
  });

  it('equals the walk on multi-threshold splits with branches no training row reached', () => {
    const data = synthetic(300, 8);
    const tree = fit(data, { algorithm: 'cmbsv', maxDepth: 6 });
    expect(tree.compiled.share.some((s) => s === 0)).toBe(true);
    for (const r of both(tree, data, 1)) expect(maxGap(r.byTables!, r.byWalk)).toBeLessThan(1e-12);
  });

  it('hands back the rows a C4.5 tree spreads, and explains the others', () => {
    const data = synthetic(300, 9, 0.15);
    const tree = fit(data, { algorithm: 'c45', prune: 'none', maxDepth: 6 });
    const rows = both(tree, data, 1);
    const handedBack = rows.filter((r) => r.byTables === null).length;
    expect(handedBack).toBeGreaterThan(0);
    expect(handedBack).toBeLessThan(rows.length);
    for (const r of rows) if (r.byTables) expect(maxGap(r.byTables, r.byWalk)).toBeLessThan(1e-12);
  });

  it('gives each row of a block in groups the same bits as alone, missing values taking their branch', () => {
    const data = synthetic(3000, 11, 0.05);
    const tree = fit(data, { algorithm: 'cart', prune: 'none', maxDepth: 11, minSamplesLeaf: 2 });
    const tables = buildLeafTables(tree.compiled);
    if (tables === null) throw new Error('expected leaf tables');
    const k = tree.classes.length;
    // More nodes × rows × classes than one group's budget: the block is explained in several groups.
    expect(tree.compiled.feature.length * data.nRows * k).toBeGreaterThan(4 << 16);
    const { columns } = alignRows(tree, data, undefined, 'test');
    const stride = tree.features.length * k;
    const block = new Float64Array(data.nRows * columns.length);
    columnBlock(columns, 0, data.nRows, block);
    const together = new Float64Array(data.nRows * stride);
    const scratch = new TableScratch();
    expect(explainRowsByTables(tables, scratch, columns, block, 0, data.nRows, together, 0.5)).toBe(0);
    const walk = new TreeShapExplainer(tree.features.length);
    for (let i = 0; i < data.nRows; i++) {
      const alone = new Float64Array(stride);
      expect(explainByTables(tables, scratch, columns, i, alone, 0, 0.5)).toBe(true);
      expect(together.subarray(i * stride, (i + 1) * stride)).toEqual(alone);
      const byWalk = new Float64Array(stride);
      walk.explainRow(tree.compiled, columns, i, byWalk, 0, 0.5);
      expect(maxGap(alone, byWalk)).toBeLessThan(1e-12);
    }
  });

  it('builds no tables for a tree deeper than their budget', () => {
    const data = synthetic(6000, 10);
    const tree = fit(data, { algorithm: 'cart', prune: 'none', minSamplesLeaf: 1 });
    expect(tree.stats().height).toBeGreaterThan(16);
    expect(buildLeafTables(tree.compiled)).toBeNull();
  });
});
