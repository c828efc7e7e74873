import { GroveError } from '../core/errors.js';
import { normalQuantile } from '../core/special.js';
import type { Dataset } from '../data/dataset.js';
import { compactTree, leafErrors, total } from '../model/compact.js';
import type { TreeNode } from '../model/node.js';
import type { MissingPolicy } from '../options/options.js';
import type { Pruner } from './pruner.js';
import { weightedRows } from './recount.js';
import { Raiser } from './subtree-raising.js';

/**
 * C4.5's error-based (confidence-bound) pruning, after Quinlan's C4.5 release 8 (prune.c, stats.c).
 *
 * A leaf holding N (weighted) training cases of which E are errors is charged
 * E + AddErrs(N, E) predicted errors, N · U_CF(E, N) where U_CF is the upper limit of a
 * confidence interval at confidence CF on the binomial error rate. Bottom-up, a node becomes a leaf
 * when its estimate as a leaf is ≤ its (already pruned) subtree's estimate + 0.1 — C4.5's
 * tolerance, which favours the smaller tree on near ties.
 */

/** C4.5's table of the normal deviate z for a one-sided confidence CF (stats.c: Val, Dev). */
const VAL = [0, 0.001, 0.005, 0.01, 0.05, 0.1, 0.2, 0.4, 1.0];
const DEV = [4.0, 3.09, 2.58, 2.33, 1.65, 1.28, 0.84, 0.25, 0.0];

/**
 * z² for confidence CF, interpolated linearly in C4.5's table (stats.c: `Coeff`).
 * CF = 0.25 → z = 0.84 + (0.25 − 0.84) · (0.25 − 0.2) / (0.4 − 0.2) = 0.6925, z² = 0.47955625.
 * (Weka's J48 uses the exact normal quantile instead: z = 0.6745 for CF = 0.25.)
 */
export function c45Coefficient(cf: number): number {
  if (!(cf > 0 && cf < 1)) throw new GroveError(`confidence must be in (0, 1), got ${cf}`);
  let i = 0;
  while (cf > VAL[i]) i++;
  const z = DEV[i - 1] + ((DEV[i] - DEV[i - 1]) * (cf - VAL[i - 1])) / (VAL[i] - VAL[i - 1]);
  return z * z;
}

/** z² for confidence CF from the exact normal quantile, as Weka's J48 (Stats.addErrs) takes it. */
export function j48Coefficient(cf: number): number {
  if (!(cf > 0 && cf < 1)) throw new GroveError(`confidence must be in (0, 1), got ${cf}`);
  const z = normalQuantile(1 - cf);
  return z * z;
}

/**
 * C4.5's `AddErrs(N, e)`: the extra errors to add to e observed errors among N cases, so that
 * e + AddErrs(N, e) = N · U_CF(e, N).
 * - e < 1e-6: the exact binomial bound for no errors, N · (1 − CF^(1/N)) (CF = P(0 errors) = (1 − U)^N);
 * - e < 0.9999: linear interpolation between AddErrs(N, 0) and AddErrs(N, 1);
 * - e + 0.5 ≥ N: 0.67 · (N − e) (`j48`: N − e, as Weka's J48);
 * - otherwise the upper limit of the normal approximation with continuity correction (Wilson score form):
 *   U = (e + 0.5 + z²/2 + √(z² ((e + 0.5)(1 − (e + 0.5)/N) + z²/4))) / (N + z²), AddErrs = N · U − e.
 */
export function addErrs(N: number, e: number, cf: number, coeff = c45Coefficient(cf), j48 = false): number {
  if (e < 1e-6) return N * (1 - Math.exp(Math.log(cf) / N));
  if (e < 0.9999) {
    const val0 = N * (1 - Math.exp(Math.log(cf) / N));
    return val0 + e * (addErrs(N, 1.0, cf, coeff, j48) - val0);
  }
  if (e + 0.5 >= N) return j48 ? Math.max(N - e, 0) : 0.67 * (N - e);
  const pr = (e + 0.5 + coeff / 2 + Math.sqrt(coeff * ((e + 0.5) * (1 - (e + 0.5) / N) + coeff / 4))) / (N + coeff);
  return N * pr - e;
}

/** Predicted errors of a node as a leaf: e + AddErrs(N, e) on its weighted class counts. */
export function leafEstimate(counts: ArrayLike<number>, cf: number, coeff = c45Coefficient(cf), j48 = false): number {
  const e = leafErrors(counts);
  return e + addErrs(total(counts), e, cf, coeff, j48);
}

/** C4.5's tolerance: a leaf (or a raised branch) is preferred when within 0.1 predicted errors. */
export const C45_TOLERANCE = 0.1;

export interface ErrorBasedOptions {
  /** Confidence factor CF (C4.5's -c, as a fraction; default 0.25). */
  confidence?: number;
  /** Also compare with the largest branch raised in place of the node (needs `data`). */
  subtreeRaising?: boolean;
  /**
   * First make a leaf of every subtree whose training errors are not fewer than the node's as a
   * leaf (within 1e-3), as C4.5's grower (build.c) and J48's `collapse` do. Default true.
   */
  collapse?: boolean;
  /**
   * Weka J48's variant: z from the exact normal quantile, N − e charged when e + 0.5 ≥ N, and of
   * equally heavy branches the first is the one raised.
   */
  j48?: boolean;
  /** Training rows (needed for subtree raising): the data, row weights, the rows used, the missing policy. */
  data?: Dataset;
  weights?: ArrayLike<number>;
  rows?: ArrayLike<number>;
  /** How many training rows each row of `data` stands for (default 1 each): a node's `n` counts them. */
  rowCounts?: ArrayLike<number>;
  missing?: MissingPolicy;
}

/**
 * C4.5's collapse: bottom-up, a subtree whose leaves make at least as many weighted training
 * errors as the node alone (minus 1e-3) becomes a leaf.
 */
export function collapseTree(nodes: readonly TreeNode[]): TreeNode[] {
  const m = nodes.length;
  const sub = new Float64Array(m);
  const collapse = new Uint8Array(m);
  for (let i = m - 1; i >= 0; i--) {
    const node = nodes[i];
    const own = leafErrors(node.counts);
    if (!node.split || !node.children) {
      sub[i] = own;
      continue;
    }
    let s = 0;
    for (const c of node.children) s += sub[c];
    if (s >= own - 1e-3) {
      collapse[i] = 1;
      sub[i] = own;
    } else sub[i] = s;
  }
  return compactTree(nodes, (id) => collapse[id] === 1);
}

/**
 * Prune a tree as C4.5 does. Without subtree raising only the stored counts are used. With it,
 * the training rows are routed down the tree (C4.5's EstimateErrors): at every node, after its
 * branches are pruned, three trees are compared — the node as a leaf, the subtree, and its
 * largest branch raised in its place (the rows of the other branches re-routed down the raised
 * branch, unknown values shared out by C4.5's rule; the raised branch is then re-pruned with its
 * new counts). Returns a new tree.
 */
export function pruneErrorBased(nodes: readonly TreeNode[], options: ErrorBasedOptions = {}): TreeNode[] {
  const cf = options.confidence ?? 0.25;
  const j48 = options.j48 ?? false;
  const coeff = j48 ? j48Coefficient(cf) : c45Coefficient(cf);
  const start = options.collapse === false ? nodes : collapseTree(nodes);
  if (!options.subtreeRaising) return pruneByCounts(start, cf, coeff, j48);
  const { data, weights } = options;
  if (!data || !weights) throw new GroveError('error-based pruning with subtree raising needs the training data');
  const raiser = new Raiser(
    start.map((node) => ({ ...node })),
    data,
    (counts) => leafEstimate(counts, cf, coeff, j48),
    C45_TOLERANCE,
    options.missing ?? 'fractional',
    j48,
    true,
    options.rowCounts,
  );
  raiser.estimate(0, weightedRows(weights, options.rows), true);
  return compactTree(raiser.nodes, () => false);
}

function pruneByCounts(nodes: readonly TreeNode[], cf: number, coeff: number, j48: boolean): TreeNode[] {
  const m = nodes.length;
  const estimate = new Float64Array(m);
  const collapse = new Uint8Array(m);
  for (let i = m - 1; i >= 0; i--) {
    const node = nodes[i];
    const leaf = leafEstimate(node.counts, cf, coeff, j48);
    if (!node.split || !node.children) {
      estimate[i] = leaf;
      continue;
    }
    let tree = 0;
    for (const c of node.children) tree += estimate[c];
    if (leaf <= tree + C45_TOLERANCE) {
      collapse[i] = 1;
      estimate[i] = leaf;
    } else estimate[i] = tree;
  }
  return compactTree(nodes, (id) => collapse[id] === 1);
}

/** Table entry (src/prune/registry.ts). */
export const errorBasedPruner: Pruner = {
  name: 'error-based',
  description: "C4.5's confidence-bound pruning (Quinlan 1993, C4.5 release 8)",
  reads: ['confidence', 'subtreeRaising', 'missing', 'j48Rules'],
  prune: ({ nodes, options: o, data, weights, trainRows, rowCounts }) => ({
    details: { confidence: o.confidence, subtreeRaising: o.subtreeRaising },
    nodes: pruneErrorBased(nodes, {
      confidence: o.confidence,
      subtreeRaising: o.subtreeRaising,
      data,
      weights,
      rows: trainRows,
      rowCounts,
      missing: o.missing,
      j48: o.j48Rules,
    }),
  }),
};
