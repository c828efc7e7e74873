import type { Dataset } from '../data/dataset.js';
import { chiSquare } from '../criteria/statistics.js';
import { chiSquareSurvival } from '../math/gamma.js';
import { FeatureEvaluator, selectCandidate } from '../split/evaluate.js';
import { loadCandidateTable } from '../split/finalize.js';
import type { Candidate, Split } from '../split/types.js';
import { EntryPool } from './entries.js';
import type { ResolvedOptions } from './options.js';
import type { TreeNode } from './node.js';
import { partitionStable, partitionWithClones } from './partition.js';

/** Entry-id arrays a node's slice lives in: any order (`ids`), and sorted per numeric feature. */
interface Buffers {
  ids: Int32Array;
  sorted: (Int32Array | null)[];
}

interface StackEntry {
  id: number;
  buf: Buffers;
  start: number;
  end: number;
  depth: number;
  /** Categorical features already split multiway on the path: not reused below (ID3/C4.5). */
  excluded: readonly number[];
}

/**
 * Row order of a numeric column, ascending, missing values (NaN) last, ties by row index.
 * Sorting a typed array natively and ranking rows by binary search, then a counting sort by rank,
 * is 1.5–2× faster than sorting row indices with a JS comparator (bench/README.md).
 */
export function argsortNumeric(x: Float64Array): Int32Array {
  const n = x.length;
  const sorted = Float64Array.from(x).sort(); // typed-array sort puts NaN last
  let distinct = 0;
  for (let i = 0; i < n; i++) {
    const v = sorted[i];
    if (Number.isNaN(v)) break;
    if (distinct === 0 || v !== sorted[distinct - 1]) sorted[distinct++] = v;
  }
  const rank = new Int32Array(n);
  const bucket = new Int32Array(distinct + 2);
  for (let i = 0; i < n; i++) {
    const v = x[i];
    let r = distinct; // NaN: after every value
    if (!Number.isNaN(v)) {
      let lo = 0;
      let hi = distinct - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (sorted[mid] < v) lo = mid + 1;
        else hi = mid;
      }
      r = lo;
    }
    rank[i] = r;
    bucket[r + 1]++;
  }
  for (let r = 1; r < bucket.length; r++) bucket[r] += bucket[r - 1];
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[bucket[rank[i]]++] = i;
  return order;
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
  const n = data.nRows;
  const k = data.classes.length;
  const features = data.features;
  const pool = new EntryPool(data.labels, weights);
  const evaluator = new FeatureEvaluator(features, pool, k, opts);
  const cands = features.map(() => evaluator.newCandidate());
  const view = { table: { branches: 0, classes: k, counts: new Float64Array(evaluator.ctx.maxBranches * k), branchTotals: new Float64Array(evaluator.ctx.maxBranches), classTotals: new Float64Array(k), total: 0 } };
  const nodeTotals = new Float64Array(k);
  const maxBranches = evaluator.ctx.maxBranches;
  const sizes = new Int32Array(maxBranches);
  const offsets = new Int32Array(maxBranches);
  const codeBranch = new Int32Array(maxBranches);
  let branchOf = new Int32Array(n);
  let scratch = new Int32Array(n);

  const root: Buffers = {
    ids: Int32Array.from({ length: n }, (_, i) => i),
    sorted: features.map((col) => (col.kind === 'numeric' ? argsortNumeric(col.values) : null)),
  };
  const nodes: TreeNode[] = [{ counts: [], n: 0, depth: 0 }];
  const stack: StackEntry[] = [{ id: 0, buf: root, start: 0, end: n, depth: 0, excluded: [] }];

  while (stack.length > 0) {
    const { id, buf, start, end, depth, excluded } = stack.pop()!;
    const { label: y, weight: w } = pool;
    nodeTotals.fill(0);
    for (let i = start; i < end; i++) {
      const e = buf.ids[i];
      nodeTotals[y[e]] += w[e];
    }
    let total = 0;
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

    for (let f = 0; f < features.length; f++) {
      if (excluded.includes(f)) cands[f].reset(f, 'numeric');
      else evaluator.evaluate(f, buf.ids, buf.sorted[f], start, end, nodeTotals, cands[f]);
    }
    const best = selectCandidate(cands, opts.averageGainRule);
    if (!best) continue;
    if (best.key < opts.minGain - 1e-12 * Math.max(1, Math.abs(opts.minGain))) continue;
    if (opts.chiSquareAlpha > 0 && !significant(best, view.table, opts.chiSquareAlpha)) continue;

    const split = best.toSplit();
    const branches = split.kind === 'multiway' ? split.values.length : 2;
    const missingBranch = chooseMissingBranch(best, split, opts.missing);

    // Assign every entry of the node to a branch (-1: missing value, fractional policy).
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
    let nMissing = 0;
    const row = pool.row;
    for (let i = start; i < end; i++) {
      const e = buf.ids[i];
      let b: number;
      if (col.kind === 'numeric') {
        const v = col.values[row[e]];
        b = Number.isNaN(v) ? -1 : v <= t ? 0 : 1;
      } else {
        const v = col.codes[row[e]];
        b = v < 0 ? -1 : codeBranch[v];
      }
      if (b < 0 && missingBranch >= 0) b = missingBranch;
      branchOf[e] = b;
      if (b < 0) nMissing++;
      else sizes[b]++;
    }

    let childBuf = buf;
    let childStart = start;
    if (nMissing === 0) {
      partitionStable(buf.ids, start, end, branchOf, sizes, branches, offsets, scratch);
      for (const order of buf.sorted) if (order) partitionStable(order, start, end, branchOf, sizes, branches, offsets, scratch);
    } else {
      // C4.5: a row with a missing value goes down every branch with weight ∝ the branch's known weight.
      const fractions = Array.from({ length: branches }, (_, b) => best.branchWeight(b));
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
        firstClone[e] = pool.size;
        for (let b = 1; b < branches; b++) pool.clone(e, we * fractions[b]);
        pool.weight[e] = we * fractions[0];
      }
      if (branchOf.length < pool.row.length) {
        const grown = new Int32Array(pool.row.length);
        grown.set(branchOf);
        branchOf = grown;
      }
      const size = sizes.subarray(0, branches).reduce((a, b) => a + b, 0);
      if (scratch.length < size) scratch = new Int32Array(size);
      childBuf = {
        ids: partitionWithClones(buf.ids, start, end, branchOf, firstClone, sizes, branches, offsets, size),
        sorted: buf.sorted.map((order) => (order ? partitionWithClones(order, start, end, branchOf, firstClone, sizes, branches, offsets, size) : null)),
      };
      childStart = 0;
    }

    node.split = split;
    node.score = best.raw;
    node.improvement = best.key;
    if (missingBranch >= 0) node.missingBranch = missingBranch;
    node.children = [];
    const childExcluded = split.kind === 'multiway' ? [...excluded, split.feature] : excluded;
    const entries: StackEntry[] = [];
    for (let b = 0; b < branches; b++) {
      const childId = nodes.length;
      nodes.push({ counts: [], n: 0, depth: depth + 1 });
      node.children.push(childId);
      entries.push({ id: childId, buf: childBuf, start: childStart, end: childStart + sizes[b], depth: depth + 1, excluded: childExcluded });
      childStart += sizes[b];
    }
    // Push in reverse so branch 0 is grown first (depth-first, left to right).
    for (let b = branches - 1; b >= 0; b--) stack.push(entries[b]);
  }
  return nodes;
}

/**
 * Where missing values go below this split: `majority` → the heaviest branch; `learned` → the
 * side the scan chose (binary splits), else the heaviest; `fractional` → -1 (every branch).
 */
function chooseMissingBranch(best: Candidate, split: Split, policy: ResolvedOptions['missing']): number {
  if (policy === 'fractional') return -1;
  if (policy === 'learned' && best.unknownInTable && best.missingBranch >= 0) {
    return best.subsetSwapped() ? 1 - best.missingBranch : best.missingBranch;
  }
  const branches = split.kind === 'multiway' ? split.values.length : 2;
  let heaviest = 0;
  for (let b = 1; b < branches; b++) if (best.branchWeight(b) > best.branchWeight(heaviest)) heaviest = b;
  return best.subsetSwapped() ? 1 - heaviest : heaviest;
}

/**
 * Chi-square pre-pruning (the tutorial's "stop if the class distribution is independent of the
 * split"): true when the split's table rejects independence at significance `alpha`.
 */
function significant(best: Candidate, t: import('../criteria/types.js').CountTable, alpha: number): boolean {
  loadCandidateTable(best, t);
  let rows = 0;
  let cols = 0;
  for (let b = 0; b < t.branches; b++) if (t.branchTotals[b] > 0) rows++;
  for (let c = 0; c < t.classes; c++) if (t.classTotals[c] > 0) cols++;
  const df = (rows - 1) * (cols - 1);
  if (df <= 0) return false;
  return chiSquareSurvival(chiSquare.evaluate(t), df) <= alpha;
}
