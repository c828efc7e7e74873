import type { AlignedColumn } from './align.js';
import { LEAF, NUMERIC, TreeLayout } from './compiled-layout.js';
import { BLOCK, FastRoutes, type RoutableTree } from './fast-routes.js';
import { knnVote } from './knn.js';
import { categoryBranchAt, NO_BRANCH, numericBranchAt } from './route.js';
import type { FeatureSchema } from './schema.js';
import type { NodeSource } from './store.js';

export type { AlignedColumn } from './align.js';

/**
 * How rows that reach a C-MBSV unclassified region are predicted: `none` → class code -1 and
 * all-zero probabilities; `knn` → k-NN over the region's stored rows (regions without stored rows
 * stay unclassified).
 */
export interface UnclassifiedPolicy {
  unclassified: 'none' | 'knn';
  knnK: number;
}

/**
 * What a forest's compiled predictor reads of one tree up front: the fast walk's arrays
 * (`RoutableTree`), each node's class when a row that stops there needs no more work (-1
 * otherwise), a plain leaf's class distribution, and the tree's `CompiledTree` for the rows the
 * fast walk does not finish. A `CompiledTree` is one; a `StorePart` (compiled-part.ts) reads a grown or loaded tree's
 * store and builds the `CompiledTree` only when a row needs it, so a numeric forest predicting
 * rows without missing values never builds one.
 */
export interface ForestPart extends RoutableTree {
  readonly classes: number;
  leafCodeOf(node: number): number;
  /** Leaf `node`'s class distribution into `out[at..at + classes)`, as `CompiledTree.proba` holds it. */
  leafProbaInto(node: number, out: Float64Array, at: number): void;
  /** The tree's compiled form (built on first use). */
  compiledTree(): CompiledTree;
}

/**
 * A fitted tree flattened into parallel typed arrays (`TreeLayout`) for prediction without per-row
 * allocation. The branch a row takes comes from route.ts (`numericBranchAt`, `categoryBranchAt`
 * over the packed thresholds and category tables). Rows first go through `FastRoutes` (binary
 * numeric nodes), then `route`.
 */
export class CompiledTree extends TreeLayout implements ForestPart {
  private readonly kinds: ('numeric' | 'categorical')[];
  private readonly mix: Float64Array;
  /** The fast walk's records, made on first use (a forest walks its own, over all its trees). */
  private fastRoutes?: FastRoutes;
  private readonly hasUnclassified: boolean;
  /** The fast walk's stop (`FastRoutes.route`) per row of the block being predicted. */
  private readonly blockLeaves = new Int32Array(BLOCK);
  /** `accumulate`'s stack of (node, weight) still to visit. */
  private readonly stackNode: number[] = [];
  private readonly stackWeight: number[] = [];

  constructor(nodes: NodeSource, features: FeatureSchema[], classes: number) {
    super(nodes, features, classes);
    this.mix = new Float64Array(classes);
    this.kinds = features.map((f) => f.kind);
    this.hasUnclassified = this.unclassified.includes(1);
  }

  private get fast(): FastRoutes {
    return (this.fastRoutes ??= FastRoutes.of(this, (v) => this.leafCodeOf(v)));
  }

  leafProbaInto(node: number, out: Float64Array, at: number): void {
    const k = this.classes;
    for (let c = 0; c < k; c++) out[at + c] = this.proba[node * k + c];
  }

  compiledTree(): CompiledTree {
    return this;
  }

  /** The class a row that stops at `node` gets without more work, or -1 when it needs more (see `FastRoutes`). */
  leafCodeOf(node: number): number {
    return this.kind[node] === LEAF && this.unclassified[node] === 0 ? this.classOf[node] : -1;
  }

  /** `route`'s result for row `i` from where the fast walk stopped: its node `from` (0 for a row it did not take). */
  finishRoute(columns: AlignedColumn[], i: number, from: number): number {
    return this.kind[from] === LEAF ? from : this.route(columns, i, from);
  }

  /**
   * Follow row `i` down to a leaf. A missing value (or a category with no branch) takes the node's
   * `missingBranch`; where there is none (C4.5's fractional policy) the walk stops and returns
   * `-1 - node`: the row must be spread over that node's branches (`accumulate`).
   */
  route(columns: AlignedColumn[], i: number, from = 0): number {
    let node = from;
    while (this.kind[node] !== LEAF) {
      const b = this.branchAt(columns, i, node);
      if (b === NO_BRANCH) return -1 - node;
      node = this.firstChild[node] + b;
    }
    return node;
  }

  /**
   * The branch row `i` takes at split node `node` (route.ts's rule, then the node's
   * `missingBranch`), or `NO_BRANCH` when C4.5's fractional policy spreads it over every branch.
   */
  branchAt(columns: AlignedColumn[], i: number, node: number): number {
    const x = columns[this.feature[node]][i];
    const start = this.paramStart[node];
    const count = this.paramCount[node];
    const b =
      this.kind[node] === NUMERIC
        ? numericBranchAt(this.thresholds, start, count, x)
        : categoryBranchAt(this.codeBranch, start, count, x);
    return b === NO_BRANCH ? this.missingBranch[node] : b;
  }

  /**
   * The threshold of a numeric split with two branches (a value above it takes branch 1, at or
   * below it branch 0, a missing one is `branchAt`'s to route), else NaN.
   */
  binaryCut(node: number): number {
    return this.kind[node] === NUMERIC && this.paramCount[node] === 1 ? this.thresholds[this.paramStart[node]] : NaN;
  }

  /** True for a leaf (a node without a split). */
  isLeaf(node: number): boolean {
    return this.kind[node] === LEAF;
  }

  /**
   * Add `weight` × the class distribution reached by row `i` from `from` into `out[offset..]`: a
   * row stopped at a node without `missingBranch` goes down every branch, weighted by `share`.
   * Depth-first with branches in order, so the sums add up in a fixed order.
   */
  private accumulate(
    columns: AlignedColumn[],
    i: number,
    from: number,
    weight: number,
    out: Float64Array,
    offset: number,
    policy?: UnclassifiedPolicy,
  ): void {
    const k = this.classes;
    const nodes = this.stackNode;
    const weights = this.stackWeight;
    let top = 0;
    nodes[top] = from;
    weights[top++] = weight;
    while (top > 0) {
      const w = weights[--top];
      const r = this.route(columns, i, nodes[top]);
      if (r >= 0) {
        const region = this.unclassified[r] && policy?.unclassified === 'knn' ? this.knn[r] : undefined;
        if (region) knnVote(region, this.kinds, columns, i, policy!.knnK, k, out, offset, w);
        else for (let c = 0; c < k; c++) out[offset + c] += w * this.proba[r * k + c];
        continue;
      }
      const node = -1 - r;
      const first = this.firstChild[node];
      for (let b = this.branches[node] - 1; b >= 0; b--) {
        nodes[top] = first + b;
        weights[top++] = w * this.share[first + b];
      }
    }
  }

  /**
   * Class code per row (the most probable class; ties to the lowest index). A row in a C-MBSV
   * unclassified region gets -1, or its k-NN class under `policy` `knn` when the region has data.
   */
  predictCodes(
    columns: AlignedColumn[],
    nRows: number,
    out = new Int32Array(nRows),
    policy?: UnclassifiedPolicy,
  ): Int32Array {
    const stops = this.blockLeaves;
    const { leafCode, orig } = this.fast;
    for (let base = 0; base < nRows; base += BLOCK) {
      const count = Math.min(BLOCK, nRows - base);
      this.fast.route(columns, base, count, stops);
      for (let j = 0; j < count; j++) {
        const stop = stops[j];
        const code = stop >= 0 ? leafCode[stop] : -1;
        out[base + j] = code >= 0 ? code : this.codeFrom(columns, base + j, stop < 0 ? 0 : orig[stop], policy);
      }
    }
    return out;
  }

  /**
   * Class code of row `i`, its walk resumed at node `from` (where the fast walk stopped; 0 for a
   * row it did not take).
   */
  codeFrom(columns: AlignedColumn[], i: number, from: number, policy?: UnclassifiedPolicy): number {
    const k = this.classes;
    const r = this.finishRoute(columns, i, from);
    if (r >= 0) {
      const region = this.unclassified[r] && policy?.unclassified === 'knn' ? this.knn[r] : undefined;
      return region ? knnVote(region, this.kinds, columns, i, policy!.knnK, k) : this.classOf[r];
    }
    const mix = this.mix;
    mix.fill(0);
    this.accumulate(columns, i, 0, 1, mix, 0, policy);
    let best = -1;
    for (let c = 0; c < k; c++) if (mix[c] > 0 && (best < 0 || mix[c] > mix[best])) best = c;
    return best < 0 && !this.hasUnclassified ? 0 : best;
  }

  /**
   * Class probabilities, row-major: out[i * classes + c]. A row in a C-MBSV unclassified region
   * gets all zeros, or the k-NN vote shares under `policy` `knn` when the region has data.
   */
  predictProba(
    columns: AlignedColumn[],
    nRows: number,
    out = new Float64Array(nRows * this.classes),
    policy?: UnclassifiedPolicy,
  ): Float64Array {
    const k = this.classes;
    const stops = this.blockLeaves;
    const orig = this.fast.orig;
    for (let base = 0; base < nRows; base += BLOCK) {
      const count = Math.min(BLOCK, nRows - base);
      this.fast.route(columns, base, count, stops);
      for (let j = 0; j < count; j++) {
        const stop = stops[j];
        this.probaFrom(columns, base + j, stop < 0 ? 0 : orig[stop], out, (base + j) * k, policy);
      }
    }
    return out;
  }

  /**
   * Row `i`'s class probabilities into `out[offset..offset + classes)`, its walk resumed at node
   * `from` (where the fast walk stopped; 0 for a row it did not take).
   */
  probaFrom(
    columns: AlignedColumn[],
    i: number,
    from: number,
    out: Float64Array,
    offset: number,
    policy?: UnclassifiedPolicy,
  ): void {
    const k = this.classes;
    const r = this.finishRoute(columns, i, from);
    if (r >= 0 && !(this.unclassified[r] && policy?.unclassified === 'knn' && this.knn[r])) {
      for (let c = 0; c < k; c++) out[offset + c] = this.proba[r * k + c];
    } else {
      out.fill(0, offset, offset + k);
      this.accumulate(columns, i, 0, 1, out, offset, policy);
    }
  }
}
