import { GroveError } from '../core/errors.js';
import type { Dataset } from '../data/dataset.js';
import { compactTree, fromLinked, type LinkedNode, leafErrors, toLinked, total } from '../model/compact.js';
import type { TreeNode } from '../model/node.js';
import type { MissingPolicy } from '../options/options.js';
import type { Pruner } from './pruner.js';
import { classCounts, splitRows, type WeightedRows, weightedRows } from './recount.js';

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

/**
 * C4.5's `AddErrs(N, e)`: the extra errors to add to e observed errors among N cases, so that
 * e + AddErrs(N, e) = N · U_CF(e, N).
 * - e < 1e-6: the exact binomial bound for no errors, N · (1 − CF^(1/N)) (CF = P(0 errors) = (1 − U)^N);
 * - e < 0.9999: linear interpolation between AddErrs(N, 0) and AddErrs(N, 1);
 * - e + 0.5 ≥ N: 0.67 · (N − e);
 * - otherwise the upper limit of the normal approximation with continuity correction (Wilson score form):
 *   U = (e + 0.5 + z²/2 + √(z² ((e + 0.5)(1 − (e + 0.5)/N) + z²/4))) / (N + z²), AddErrs = N · U − e.
 */
export function addErrs(N: number, e: number, cf: number, coeff = c45Coefficient(cf)): number {
  if (e < 1e-6) return N * (1 - Math.exp(Math.log(cf) / N));
  if (e < 0.9999) {
    const val0 = N * (1 - Math.exp(Math.log(cf) / N));
    return val0 + e * (addErrs(N, 1.0, cf, coeff) - val0);
  }
  if (e + 0.5 >= N) return 0.67 * (N - e);
  const pr = (e + 0.5 + coeff / 2 + Math.sqrt(coeff * ((e + 0.5) * (1 - (e + 0.5) / N) + coeff / 4))) / (N + coeff);
  return N * pr - e;
}

/** Predicted errors of a node as a leaf: e + AddErrs(N, e) on its weighted class counts. */
export function leafEstimate(counts: ArrayLike<number>, cf: number, coeff = c45Coefficient(cf)): number {
  const e = leafErrors(counts);
  return e + addErrs(total(counts), e, cf, coeff);
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
  /** Training rows (needed for subtree raising): the data, row weights, the rows used, the missing policy. */
  data?: Dataset;
  weights?: ArrayLike<number>;
  rows?: ArrayLike<number>;
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
  const coeff = c45Coefficient(cf);
  const start = options.collapse === false ? nodes : collapseTree(nodes);
  if (!options.subtreeRaising) return pruneByCounts(start, cf, coeff);
  const { data, weights } = options;
  if (!data || !weights) throw new GroveError('error-based pruning with subtree raising needs the training data');
  const root = toLinked(start);
  const raiser = new Raiser(data, cf, coeff, options.missing ?? 'fractional');
  raiser.estimate(root, weightedRows(weights, options.rows), true);
  return fromLinked(root);
}

function pruneByCounts(nodes: readonly TreeNode[], cf: number, coeff: number): TreeNode[] {
  const m = nodes.length;
  const estimate = new Float64Array(m);
  const collapse = new Uint8Array(m);
  for (let i = m - 1; i >= 0; i--) {
    const node = nodes[i];
    const leaf = leafEstimate(node.counts, cf, coeff);
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

/** C4.5's EstimateErrors on a linked tree with the rows that reach each node. */
class Raiser {
  private readonly k: number;
  constructor(
    private readonly data: Dataset,
    private readonly cf: number,
    private readonly coeff: number,
    private readonly missing: MissingPolicy,
  ) {
    this.k = data.classes.length;
  }

  /**
   * Predicted errors of the subtree `t` for the rows `at`. With `update`, counts are rewritten from
   * the rows and the subtree is pruned (leaf / raise / keep); without, `t` is left as it is.
   */
  estimate(t: LinkedNode, at: WeightedRows, update: boolean): number {
    const counts = classCounts(this.data, at, this.k);
    const leaf = leafEstimate(counts, this.cf, this.coeff);
    if (update) {
      t.node.counts = counts;
      t.node.n = at.rows.length;
    }
    if (!t.kids || !t.node.split) return leaf;
    const stored = t.kids.map((kid) => total(kid.node.counts));
    const known: number[] = [];
    const parts = splitRows(
      t.node.split,
      stored,
      this.data,
      at,
      { missing: this.missing, shares: 'routed' },
      t.node.missingBranch,
      known,
    );
    let tree = 0;
    let maxBr = 0;
    let maxWeight = -1;
    t.kids.forEach((kid, b) => {
      // C4.5 takes the last of equally heavy branches (Factor >= MaxFactor).
      if (known[b] >= maxWeight) {
        maxWeight = known[b];
        maxBr = b;
      }
      tree += this.estimate(kid, parts[b], update);
    });
    if (!update) return tree;
    const branch = this.estimate(t.kids[maxBr], at, false);
    if (leaf <= branch + C45_TOLERANCE && leaf <= tree + C45_TOLERANCE) {
      makeLeaf(t);
      return leaf;
    }
    if (branch <= tree + C45_TOLERANCE) {
      const raised = t.kids[maxBr];
      t.node = raised.node;
      t.kids = raised.kids;
      return this.estimate(t, at, true);
    }
    return tree;
  }
}

function makeLeaf(t: LinkedNode): void {
  const { split: _s, children: _c, score: _sc, improvement: _i, missingBranch: _m, ...rest } = t.node;
  t.node = rest;
  t.kids = null;
}

/** Table entry (src/prune/registry.ts). */
export const errorBasedPruner: Pruner = {
  name: 'error-based',
  description: "C4.5's confidence-bound pruning (Quinlan 1993, C4.5 release 8)",
  reads: ['confidence', 'subtreeRaising', 'missing'],
  prune: ({ nodes, options: o, data, weights, trainRows }) => ({
    details: { confidence: o.confidence, subtreeRaising: o.subtreeRaising },
    nodes: pruneErrorBased(nodes, {
      confidence: o.confidence,
      subtreeRaising: o.subtreeRaising,
      data,
      weights,
      rows: trainRows,
      missing: o.missing,
    }),
  }),
};
