import type { Dataset } from '../data/dataset.js';
import { createTable } from '../criteria/table.js';
import { FeatureEvaluator, type SortedSlice } from '../split/evaluate.js';
import { EntryPool } from './entries.js';
import type { ResolvedOptions } from './options.js';
import type { TreeNode } from './node.js';
import { partitionSorted, partitionStable, partitionWithClones } from './partition.js';
import { chooseSplit, stopsHere } from './split-policy.js';
import { growTreeHistogram } from './grow-hist.js';
import { argsortNumeric } from './argsort.js';

export { argsortNumeric };

/** Entry-id arrays a node's slice lives in: any order (`ids`), and sorted per numeric feature with values alongside. */
interface Buffers {
  ids: Int32Array;
  sorted: (SortedSlice | null)[];
}

interface StackEntry {
  id: number;
  buf: Buffers;
  start: number;
  end: number;
  depth: number;
  /** Weighted class totals of the node's entries (computed by the parent's partition pass). */
  totals: Float64Array;
  /** Categorical features already split multiway on the path: not reused below (ID3/C4.5). */
  excluded: readonly number[];
}

/**
 * Grow a tree depth-first (Zaki's DECISIONTREE(D, η, π) with the stopping rules of `opts`).
 *
 * Layout: entry ids (rows, or clones of rows under C4.5's fractional policy) in one array per node
 * buffer and, per numeric feature, the same entries sorted by that feature. A node is the same
 * slice [start, end) of all of them. A split partitions every slice stably, so each numeric slice
 * stays sorted and nothing is re-sorted below the root. Only a split that clones entries (fractional
 * missing values) gives its children fresh buffers.
 */
export function growTree(data: Dataset, opts: ResolvedOptions, weights: Float64Array): TreeNode[] {
  if (opts.bins !== undefined) return growTreeHistogram(data, opts, weights);
  const n = data.nRows;
  const k = data.classes.length;
  const features = data.features;
  const pool = new EntryPool(data.labels, weights);
  const evaluator = new FeatureEvaluator(features, pool, k, opts);
  evaluator.ctx.unitWeights = weights.every((w) => w === 1);
  const cands = features.map(() => evaluator.newCandidate());
  const maxBranches = evaluator.ctx.maxBranches;
  const view = createTable(maxBranches, k);
  const sizes = new Int32Array(maxBranches);
  const offsets = new Int32Array(maxBranches);
  const codeBranch = new Int32Array(maxBranches);
  let branchOf = new Int32Array(n);
  let scratchI = new Int32Array(n);
  let scratchF = new Float64Array(n);

  const isLeaf = (size: number, depth: number, totals: ArrayLike<number>): boolean => stopsHere(opts, size, depth, totals);

  const rootTotals = new Float64Array(k);
  for (let i = 0; i < n; i++) rootTotals[data.labels[i]] += weights[i];
  const ids = new Int32Array(n);
  for (let i = 0; i < n; i++) ids[i] = i;
  const root: Buffers = {
    ids,
    sorted: features.map((col) => {
      if (col.kind !== 'numeric') return null;
      const order = argsortNumeric(col.values);
      // Float32 columns keep float32 values here: exact, and 4 bytes less per row per feature.
      const vals = col.values instanceof Float32Array ? new Float32Array(n) : new Float64Array(n);
      for (let i = 0; i < n; i++) vals[i] = col.values[order[i]];
      return { order, vals };
    }),
  };
  const nodes: TreeNode[] = [{ counts: [], n: 0, depth: 0 }];
  const stack: StackEntry[] = [{ id: 0, buf: root, start: 0, end: n, depth: 0, totals: rootTotals, excluded: [] }];

  while (stack.length > 0) {
    const { id, buf, start, end, depth, totals: nodeTotals, excluded } = stack.pop()!;
    const node = nodes[id];
    node.counts = Array.from(nodeTotals);
    node.n = end - start;
    node.depth = depth;
    if (isLeaf(end - start, depth, nodeTotals)) continue;

    for (let f = 0; f < features.length; f++) {
      if (excluded.includes(f)) cands[f].reset(f, 'numeric');
      else evaluator.evaluate(f, buf.ids, buf.sorted[f], start, end, nodeTotals, cands[f]);
    }
    const chosen = chooseSplit(cands, opts, view);
    if (!chosen) continue;
    const { best, split, branches, missingBranch } = chosen;

    // Assign every entry of the node to a branch (-1: missing value, fractional policy) and
    // total the children's classes on the way.
    const col = features[split.feature];
    if (split.kind !== 'numeric') {
      codeBranch.fill(-1);
      if (split.kind === 'subset') {
        for (const v of split.left) codeBranch[v] = 0;
        for (const v of split.right) codeBranch[v] = 1;
      } else split.values.forEach((v, b) => (codeBranch[v] = b));
    }
    const t = split.kind === 'numeric' ? split.thresholds[0] : NaN;
    sizes.fill(0, 0, branches);
    const childTotals = Array.from({ length: branches }, () => new Float64Array(k));
    let nMissing = 0;
    const { row, label: y, weight: w } = pool;
    const sorted = buf.sorted[split.feature];
    if (sorted) {
      // Numeric: walk the split feature's sorted slice (sequential reads; missing values last).
      const { order, vals } = sorted;
      for (let i = start; i < end; i++) {
        const e = order[i];
        const v = vals[i];
        let b = Number.isNaN(v) ? -1 : v <= t ? 0 : 1;
        if (b < 0 && missingBranch >= 0) b = missingBranch;
        branchOf[e] = b;
        if (b < 0) nMissing++;
        else {
          sizes[b]++;
          childTotals[b][y[e]] += w[e];
        }
      }
    } else {
      const codes = (col as { codes: Int32Array }).codes;
      for (let i = start; i < end; i++) {
        const e = buf.ids[i];
        const v = codes[row[e]];
        let b = v < 0 ? -1 : codeBranch[v];
        if (b < 0 && missingBranch >= 0) b = missingBranch;
        branchOf[e] = b;
        if (b < 0) nMissing++;
        else {
          sizes[b]++;
          childTotals[b][y[e]] += w[e];
        }
      }
    }

    node.split = split;
    node.score = best.raw;
    node.improvement = best.key;
    if (missingBranch >= 0) node.missingBranch = missingBranch;
    node.children = [];
    const childExcluded = split.kind === 'multiway' ? [...excluded, split.feature] : excluded;

    let childBuf = buf;
    let childStart = start;
    if (nMissing > 0) {
      // C4.5: a row with a missing value goes down every branch with weight ∝ the branch's known weight.
      evaluator.ctx.unitWeights = false;
      // The candidate's table is in scan order; a subset split may list its sides the other way round.
      const swapped = best.subsetSwapped();
      const fractions = Array.from({ length: branches }, (_, b) => best.branchWeight(swapped ? 1 - b : b));
      const sum = fractions.reduce((a, b) => a + b, 0);
      for (let b = 0; b < branches; b++) {
        fractions[b] = sum > 0 ? fractions[b] / sum : 1 / branches;
        sizes[b] += nMissing;
      }
      const firstClone = new Int32Array(pool.row.length);
      for (let i = start; i < end; i++) {
        const e = buf.ids[i];
        if (branchOf[e] >= 0) continue;
        const we = pool.weight[e];
        const c = pool.label[e];
        firstClone[e] = pool.size;
        for (let b = 1; b < branches; b++) {
          pool.clone(e, we * fractions[b]);
          childTotals[b][c] += we * fractions[b];
        }
        pool.weight[e] = we * fractions[0];
        childTotals[0][c] += we * fractions[0];
      }
      if (branchOf.length < pool.row.length) {
        const grown = new Int32Array(pool.row.length);
        grown.set(branchOf);
        branchOf = grown;
      }
      const size = sizes.subarray(0, branches).reduce((a, b) => a + b, 0);
      if (scratchI.length < size) {
        scratchI = new Int32Array(size);
        scratchF = new Float64Array(size);
      }
      childBuf = {
        ids: partitionWithClones(buf.ids, null, start, end, branchOf, firstClone, sizes, branches, offsets, size).order,
        sorted: buf.sorted.map((sl) => (sl ? partitionWithClones(sl.order, sl.vals, start, end, branchOf, firstClone, sizes, branches, offsets, size) : null)),
      };
      childStart = 0;
    } else {
      // Children that will be leaves need no order: when all are leaves, skip the partition.
      let anyInternal = false;
      for (let b = 0; b < branches; b++) if (!isLeaf(sizes[b], depth + 1, childTotals[b])) anyInternal = true;
      if (anyInternal) {
        partitionStable(buf.ids, start, end, branchOf, sizes, branches, offsets, scratchI);
        for (const sl of buf.sorted) if (sl) partitionSorted(sl.order, sl.vals, start, end, branchOf, sizes, branches, offsets, scratchI, scratchF);
      }
    }

    const entries: StackEntry[] = [];
    for (let b = 0; b < branches; b++) {
      const childId = nodes.length;
      nodes.push({ counts: [], n: 0, depth: depth + 1 });
      node.children.push(childId);
      entries.push({ id: childId, buf: childBuf, start: childStart, end: childStart + sizes[b], depth: depth + 1, totals: childTotals[b], excluded: childExcluded });
      childStart += sizes[b];
    }
    // Push in reverse so branch 0 is grown first (depth-first, left to right).
    for (let b = branches - 1; b >= 0; b--) stack.push(entries[b]);
  }
  return nodes;
}

