import { GroveError } from '../core/errors.js';
import { normalQuantile } from '../core/special.js';
import type { Dataset } from '../data/dataset.js';
import { asLeaf, compactTree, leafErrors, total } from '../model/compact.js';
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
    cf,
    coeff,
    options.missing ?? 'fractional',
    j48,
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

/**
 * One call of C4.5's EstimateErrors in progress: the subtree at `id` for the rows `at`. Its
 * branches are estimated one after another (`next`), summed into `tree` in branch order; an
 * updating frame then estimates its largest branch on all of `at` (`comparing`) before it decides.
 */
interface Frame {
  id: number;
  at: WeightedRows;
  /** Rewrite counts from the rows and prune the subtree (leaf / raise / keep); else only estimate. */
  update: boolean;
  /** The node's estimate as a leaf for `at`. */
  leaf: number;
  parts: WeightedRows[];
  next: number;
  tree: number;
  /** Largest branch by known-value weight: the one subtree raising would put in the node's place. */
  maxBr: number;
  comparing: boolean;
}

/**
 * C4.5's EstimateErrors with the rows that reach each node, on a mutable copy of the tree: raising
 * a branch copies its node (fields and child ids) into the raised node's slot, making a leaf
 * replaces the slot by `asLeaf`. Slots left unreachable are dropped when the copy is compacted.
 * The walk keeps its own stack of frames, so a tree's depth is bounded by memory, not the call stack.
 */
class Raiser {
  private readonly k: number;
  constructor(
    readonly nodes: TreeNode[],
    private readonly data: Dataset,
    private readonly cf: number,
    private readonly coeff: number,
    private readonly missing: MissingPolicy,
    private readonly j48: boolean,
  ) {
    this.k = data.classes.length;
  }

  /**
   * Predicted errors of the subtree at `id` for the rows `at`. With `update`, counts are rewritten
   * from the rows and the subtree is pruned; without, it is left as it is.
   */
  estimate(id: number, at: WeightedRows, update: boolean): number {
    const stack: Frame[] = [];
    let result = this.enter(stack, id, at, update);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1];
      if (result !== undefined) {
        if (frame.comparing) {
          stack.pop();
          result = this.decide(stack, frame, result);
          continue;
        }
        frame.tree += result;
        frame.next++;
      }
      const { children } = this.nodes[frame.id];
      if (frame.next < frame.parts.length) {
        result = this.enter(stack, children![frame.next], frame.parts[frame.next], frame.update);
      } else if (frame.update) {
        frame.comparing = true;
        result = this.enter(stack, children![frame.maxBr], frame.at, false);
      } else {
        stack.pop();
        result = frame.tree;
      }
    }
    return result!;
  }

  /** Start estimating `id`: its value when it is a leaf, else undefined with its frame pushed. */
  private enter(stack: Frame[], id: number, at: WeightedRows, update: boolean): number | undefined {
    const node = this.nodes[id];
    const isLeaf = !node.split || !node.children;
    let leaf = 0;
    if (update || isLeaf) {
      const counts = classCounts(this.data, at, this.k);
      leaf = leafEstimate(counts, this.cf, this.coeff, this.j48);
      if (update) {
        node.counts = counts;
        node.n = at.rows.length;
      }
    }
    if (isLeaf) return leaf;
    const stored = node.children!.map((c) => total(this.nodes[c].counts));
    const known: number[] = [];
    const routing = { missing: this.missing, shares: 'routed' } as const;
    const parts = splitRows(node.split!, stored, this.data, at, routing, node.missingBranch, known);
    let maxBr = 0;
    let maxWeight = -1;
    for (let b = 0; b < parts.length; b++) {
      // C4.5 takes the last of equally heavy branches (Factor >= MaxFactor), J48 the first.
      if (this.j48 ? known[b] > maxWeight : known[b] >= maxWeight) {
        maxWeight = known[b];
        maxBr = b;
      }
    }
    stack.push({ id, at, update, leaf, parts, next: 0, tree: 0, maxBr, comparing: false });
    return undefined;
  }

  /**
   * An updating frame, its branches pruned and its largest branch estimated on all its rows
   * (`branch`): keep the subtree, make a leaf, or raise the branch and estimate it afresh in the
   * frame's place (undefined: that frame is pushed).
   */
  private decide(stack: Frame[], frame: Frame, branch: number): number | undefined {
    const { id, at, leaf, tree } = frame;
    if (leaf <= branch + C45_TOLERANCE && leaf <= tree + C45_TOLERANCE) {
      this.nodes[id] = asLeaf(this.nodes[id]);
      return leaf;
    }
    if (branch <= tree + C45_TOLERANCE) {
      this.nodes[id] = { ...this.nodes[this.nodes[id].children![frame.maxBr]] };
      return this.enter(stack, id, at, true);
    }
    return tree;
  }
}

/** Table entry (src/prune/registry.ts). */
export const errorBasedPruner: Pruner = {
  name: 'error-based',
  description: "C4.5's confidence-bound pruning (Quinlan 1993, C4.5 release 8)",
  reads: ['confidence', 'subtreeRaising', 'missing', 'j48Rules'],
  prune: ({ nodes, options: o, data, weights, trainRows }) => ({
    details: { confidence: o.confidence, subtreeRaising: o.subtreeRaising },
    nodes: pruneErrorBased(nodes, {
      confidence: o.confidence,
      subtreeRaising: o.subtreeRaising,
      data,
      weights,
      rows: trainRows,
      missing: o.missing,
      j48: o.j48Rules,
    }),
  }),
};
