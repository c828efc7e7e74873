import type { Dataset } from '../data/dataset.js';
import type { ResolvedOptions } from './options.js';
import type { TreeNode } from './node.js';
import { ScanContext } from '../split/context.js';
import { Candidate, beats } from '../split/types.js';
import { scanNumeric } from '../split/numeric.js';
import { CategoryCounts, scanMultiway, scanSubsets } from '../split/categorical.js';
import { partitionStable } from './partition.js';

interface StackEntry {
  id: number;
  start: number;
  end: number;
  depth: number;
  /** Categorical features already split multiway on the path: not reused below (ID3/C4.5). */
  excluded: readonly number[];
}

/** Row order of a numeric column, ascending, missing values (NaN) last, ties by row index. */
export function argsortNumeric(x: Float64Array): Int32Array {
  const n = x.length;
  const idx = new Array<number>(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  idx.sort((a, b) => {
    const xa = x[a];
    const xb = x[b];
    if (xa < xb) return -1;
    if (xa > xb) return 1;
    const na = Number.isNaN(xa);
    const nb = Number.isNaN(xb);
    if (na !== nb) return na ? 1 : -1;
    return a - b;
  });
  return Int32Array.from(idx);
}

/**
 * Grow a tree depth-first (Zaki's DECISIONTREE(D, η, π) with the stopping rules of `opts`).
 *
 * Layout: one row-index array `rows` and, per numeric feature, the rows sorted by that feature.
 * A node is the same slice [start, end) of all of them. A split partitions every slice stably,
 * so each numeric slice stays sorted and nothing is re-sorted below the root.
 *
 * Missing values: scored on the rows whose value is known; at the split a row with a missing
 * value follows the heaviest branch (C4.5's fractional weights are issue 3).
 */
export function growTree(data: Dataset, opts: ResolvedOptions, weights: Float64Array): TreeNode[] {
  const n = data.nRows;
  const k = data.classes.length;
  const features = data.features;
  const y = data.labels;
  const crit = opts.criterionImpl;

  const rows = new Int32Array(n);
  for (let i = 0; i < n; i++) rows[i] = i;
  const sorted = features.map((col) => (col.kind === 'numeric' ? argsortNumeric(col.values) : null));
  const maxCategories = features.reduce((m, col) => (col.kind === 'categorical' ? Math.max(m, col.categories.length) : m), 2);

  const ctx = new ScanContext(y, weights, k, crit, opts.minSamplesLeaf, maxCategories);
  const cc = new CategoryCounts(maxCategories, k);
  const nodeTotals = new Float64Array(k);
  const known = new Float64Array(k);
  const cand = new Candidate();
  const best = new Candidate();
  const branchOf = new Int32Array(n);
  const scratch = new Int32Array(n);
  const sizes = new Int32Array(maxCategories);
  const offsets = new Int32Array(maxCategories);
  const branchWeight = new Float64Array(maxCategories);
  const codeBranch = new Int32Array(maxCategories);
  const comboScratch = new Int32Array(maxCategories);

  const nodes: TreeNode[] = [{ counts: [], n: 0, depth: 0 }];
  const stack: StackEntry[] = [{ id: 0, start: 0, end: n, depth: 0, excluded: [] }];

  while (stack.length > 0) {
    const { id, start, end, depth, excluded } = stack.pop()!;
    nodeTotals.fill(0);
    let total = 0;
    for (let i = start; i < end; i++) {
      const r = rows[i];
      nodeTotals[y[r]] += weights[r];
    }
    let majority = 0;
    for (let c = 0; c < k; c++) {
      total += nodeTotals[c];
      if (nodeTotals[c] > majority) majority = nodeTotals[c];
    }
    const node = nodes[id];
    node.counts = Array.from(nodeTotals);
    node.n = end - start;
    node.depth = depth;

    // Stopping rules: size (η), depth, purity (π); a pure node always stops.
    if (end - start < opts.minSamplesSplit || depth >= opts.maxDepth) continue;
    if (total <= 0 || majority >= opts.purity * total * (1 - 1e-12)) continue;

    best.reset(-1, 'numeric');
    for (let f = 0; f < features.length; f++) {
      if (excluded.includes(f)) continue;
      const col = features[f];
      if (col.kind === 'numeric') {
        scanNumeric(ctx, f, col.values, sorted[f]!, start, end, nodeTotals, known, cand);
      } else {
        cc.fill(ctx, col.codes, col.categories.length, rows, start, end);
        if (opts.categoricalSplit === 'multiway') scanMultiway(ctx, f, cc, cand);
        else scanSubsets(ctx, f, cc, opts.maxSubsetSize, comboScratch, cand);
      }
      // Strictly better only: on a tie the earlier feature (column order) keeps the node.
      if (cand.found && beats(cand.oriented, best.oriented)) best.copyFrom(cand);
    }
    if (!best.found) continue;
    const gain = best.improvement;
    if (gain < opts.minGain - 1e-12 * Math.max(1, Math.abs(opts.minGain))) continue;

    // Assign every row of the node to a branch; missing values follow the heaviest branch.
    const split = best.toSplit();
    const col = features[split.feature];
    const branches = split.kind === 'multiway' ? split.values.length : 2;
    sizes.fill(0, 0, branches);
    branchWeight.fill(0, 0, branches);
    if (split.kind !== 'numeric') {
      codeBranch.fill(-1);
      if (split.kind === 'subset') {
        for (const v of split.left) codeBranch[v] = 0;
        for (const v of split.right) codeBranch[v] = 1;
      } else split.values.forEach((v, b) => (codeBranch[v] = b));
    }
    const t = split.kind === 'numeric' ? split.thresholds[0] : NaN;
    let nMissing = 0;
    for (let i = start; i < end; i++) {
      const r = rows[i];
      let b: number;
      if (col.kind === 'numeric') {
        const v = col.values[r];
        b = Number.isNaN(v) ? -1 : v <= t ? 0 : 1;
      } else {
        const v = col.codes[r];
        b = v < 0 ? -1 : codeBranch[v];
      }
      branchOf[r] = b;
      if (b < 0) nMissing++;
      else {
        sizes[b]++;
        branchWeight[b] += weights[r];
      }
    }
    if (nMissing > 0) {
      let heaviest = 0;
      for (let b = 1; b < branches; b++) if (branchWeight[b] > branchWeight[heaviest]) heaviest = b;
      for (let i = start; i < end; i++) if (branchOf[rows[i]] < 0) branchOf[rows[i]] = heaviest;
      sizes[heaviest] += nMissing;
    }
    partitionStable(rows, start, end, branchOf, sizes, branches, offsets, scratch);
    for (const order of sorted) if (order) partitionStable(order, start, end, branchOf, sizes, branches, offsets, scratch);

    node.split = split;
    node.score = best.raw;
    node.improvement = gain;
    node.children = [];
    const childExcluded = split.kind === 'multiway' ? [...excluded, split.feature] : excluded;
    let childStart = start;
    const entries: StackEntry[] = [];
    for (let b = 0; b < branches; b++) {
      const childId = nodes.length;
      nodes.push({ counts: [], n: 0, depth: depth + 1 });
      node.children.push(childId);
      entries.push({ id: childId, start: childStart, end: childStart + sizes[b], depth: depth + 1, excluded: childExcluded });
      childStart += sizes[b];
    }
    // Push in reverse so branch 0 is grown first (depth-first, left to right).
    for (let b = branches - 1; b >= 0; b--) stack.push(entries[b]);
  }
  return nodes;
}
