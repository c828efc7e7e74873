import type { AlignedColumn } from './align.js';
import { BLOCK, FastRoutes } from './fast-routes.js';
import { knnVote } from './knn.js';
import { type KnnRegion, majorityClass } from './node.js';
import type { FeatureSchema } from './schema.js';
import type { NodeSource } from './store.js';

const LEAF = 0;
const NUMERIC = 1;
const CATEGORICAL = 2;

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
 * A fitted tree flattened into parallel typed arrays for prediction without per-row allocation.
 * Children of a node have contiguous ids, so branch b of node i is `firstChild[i] + b`.
 */
export class CompiledTree {
  readonly kind: Uint8Array;
  readonly feature: Int32Array;
  readonly firstChild: Int32Array;
  /** Numeric: offset into `thresholds`; categorical: offset into `codeBranch`. */
  readonly paramStart: Int32Array;
  readonly paramCount: Int32Array;
  readonly thresholds: Float64Array;
  /** For a categorical node, one entry per category code of its feature: the branch, or -1. */
  readonly codeBranch: Int32Array;
  /** proba[i * classes + c]: class distribution at node i (normalised counts). */
  readonly proba: Float64Array;
  readonly classOf: Int32Array;
  /** Branch for a missing value or a category with no branch; -1 = every branch, weighted (C4.5). */
  readonly missingBranch: Int32Array;
  /** Share of its parent's training weight that reached each node (weights of the C4.5 mixture). */
  readonly share: Float64Array;
  /** 1 for a C-MBSV unclassified-region leaf. */
  readonly unclassified: Uint8Array;
  /** Its k-NN data, when the model stores it. */
  readonly knn: (KnnRegion | undefined)[];
  private readonly kinds: ('numeric' | 'categorical')[];
  private readonly mix: Float64Array;
  private readonly fast: FastRoutes;
  private readonly hasUnclassified: boolean;
  /** Leaf (or -1 - node, see `route`) per row of the block being predicted. */
  private readonly blockLeaves = new Int32Array(BLOCK);

  constructor(
    nodes: NodeSource,
    features: FeatureSchema[],
    readonly classes: number,
  ) {
    const m = nodes.size;
    this.kind = new Uint8Array(m);
    this.feature = new Int32Array(m);
    this.firstChild = new Int32Array(m);
    this.paramStart = new Int32Array(m);
    this.paramCount = new Int32Array(m);
    this.proba = new Float64Array(m * classes);
    this.classOf = new Int32Array(m);
    this.missingBranch = new Int32Array(m).fill(-1);
    this.share = new Float64Array(m).fill(1);
    this.mix = new Float64Array(classes);
    this.unclassified = new Uint8Array(m);
    this.knn = new Array<KnnRegion | undefined>(m);
    this.kinds = features.map((f) => f.kind);
    const thresholds: number[] = [];
    const codeBranch: number[] = [];
    const totals = new Float64Array(m);
    for (let i = 0; i < m; i++) totals[i] = nodes.node(i).counts.reduce((a, b) => a + b, 0);
    for (let i = 0; i < m; i++) {
      const node = nodes.node(i);
      const total = totals[i];
      for (let c = 0; c < classes; c++) this.proba[i * classes + c] = total > 0 ? node.counts[c] / total : 1 / classes;
      this.classOf[i] = majorityClass(node.counts);
      if (node.unclassified) {
        this.unclassified[i] = 1;
        this.classOf[i] = -1;
        this.proba.fill(0, i * classes, i * classes + classes);
        this.knn[i] = node.knn;
      }
      const split = node.split;
      if (!split || !node.children) continue;
      this.feature[i] = split.feature;
      if (node.missingBranch !== undefined) this.missingBranch[i] = node.missingBranch;
      const weights = node.children.map((c) => totals[c]);
      const sum = weights.reduce((a, b) => a + b, 0);
      node.children.forEach((c, b) => (this.share[c] = sum > 0 ? weights[b] / sum : 1 / weights.length));
      this.firstChild[i] = node.children[0];
      if (split.kind === 'numeric') {
        this.kind[i] = NUMERIC;
        this.paramStart[i] = thresholds.length;
        this.paramCount[i] = split.thresholds.length;
        thresholds.push(...split.thresholds);
      } else {
        this.kind[i] = CATEGORICAL;
        const nCat = features[split.feature].categories?.length ?? 0;
        const block = new Array<number>(nCat).fill(-1);
        if (split.kind === 'subset') {
          for (const v of split.left) block[v] = 0;
          for (const v of split.right) block[v] = 1;
        } else split.values.forEach((v, b) => (block[v] = b));
        this.paramStart[i] = codeBranch.length;
        this.paramCount[i] = nCat;
        codeBranch.push(...block);
      }
    }
    this.thresholds = Float64Array.from(thresholds);
    this.codeBranch = Int32Array.from(codeBranch);
    this.hasUnclassified = this.unclassified.includes(1);
    this.fast = new FastRoutes(this, (v) =>
      this.kind[v] === LEAF && this.unclassified[v] === 0 ? this.classOf[v] : -1,
    );
  }

  /** `route` from the root for rows base..base+count-1 into `this.blockLeaves` (count <= BLOCK). */
  private routeBlock(columns: AlignedColumn[], base: number, count: number): Int32Array {
    const leaves = this.blockLeaves;
    this.fast.route(columns, base, count, leaves);
    for (let j = 0; j < count; j++) leaves[j] = this.finishRoute(columns, base + j, leaves[j]);
    return leaves;
  }

  /** `route`'s result for row `i` from where the fast walk stopped (`FastRoutes.route`). */
  private finishRoute(columns: AlignedColumn[], i: number, stop: number): number {
    const v = stop < 0 ? 0 : this.fast.orig[stop];
    return this.kind[v] === LEAF ? v : this.route(columns, i, v);
  }

  /**
   * Follow row `i` down to a leaf. A missing value (or a category with no branch) takes the node's
   * `missingBranch`; where there is none (C4.5's fractional policy) the walk stops and returns
   * `-1 - node`: the row must be spread over that node's branches (`accumulate`).
   */
  route(columns: AlignedColumn[], i: number, from = 0): number {
    let node = from;
    for (;;) {
      const kind = this.kind[node];
      let b: number;
      if (kind === NUMERIC) {
        const x = columns[this.feature[node]][i];
        if (Number.isNaN(x)) b = -1;
        else {
          const s = this.paramStart[node];
          const count = this.paramCount[node];
          b = 0;
          while (b < count && x > this.thresholds[s + b]) b++;
        }
      } else if (kind === CATEGORICAL) {
        const code = columns[this.feature[node]][i];
        b = code < 0 || code >= this.paramCount[node] ? -1 : this.codeBranch[this.paramStart[node] + code];
      } else {
        return node;
      }
      if (b < 0) b = this.missingBranch[node];
      if (b < 0) return -1 - node;
      node = this.firstChild[node] + b;
    }
  }

  /** Add `weight` × the class distribution reached by row `i` from `node` into `out[offset..]`. */
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
    const r = this.route(columns, i, from);
    if (r >= 0) {
      const region = this.unclassified[r] && policy?.unclassified === 'knn' ? this.knn[r] : undefined;
      if (region) knnVote(region, this.kinds, columns, i, policy!.knnK, k, out, offset, weight);
      else for (let c = 0; c < k; c++) out[offset + c] += weight * this.proba[r * k + c];
      return;
    }
    const node = -1 - r;
    const first = this.firstChild[node];
    const branches = this.kind[node] === NUMERIC ? this.paramCount[node] + 1 : this.branchCount(node);
    for (let b = 0; b < branches; b++)
      this.accumulate(columns, i, first + b, weight * this.share[first + b], out, offset, policy);
  }

  private branchCount(node: number): number {
    let max = -1;
    const s = this.paramStart[node];
    for (let j = 0; j < this.paramCount[node]; j++) max = Math.max(max, this.codeBranch[s + j]);
    return max + 1;
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
    const leafCode = this.fast.leafCode;
    for (let base = 0; base < nRows; base += BLOCK) {
      const count = Math.min(BLOCK, nRows - base);
      this.fast.route(columns, base, count, stops);
      for (let j = 0; j < count; j++) {
        const stop = stops[j];
        const code = stop >= 0 ? leafCode[stop] : -1;
        out[base + j] =
          code >= 0 ? code : this.codeOf(columns, base + j, this.finishRoute(columns, base + j, stop), policy);
      }
    }
    return out;
  }

  /** Class code of row `i` from its `route` result `r`. */
  private codeOf(columns: AlignedColumn[], i: number, r: number, policy?: UnclassifiedPolicy): number {
    const k = this.classes;
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
    for (let base = 0; base < nRows; base += BLOCK) {
      const count = Math.min(BLOCK, nRows - base);
      const leaves = this.routeBlock(columns, base, count);
      for (let j = 0; j < count; j++) {
        const i = base + j;
        const r = leaves[j];
        if (r >= 0 && !(this.unclassified[r] && policy?.unclassified === 'knn' && this.knn[r])) {
          for (let c = 0; c < k; c++) out[i * k + c] = this.proba[r * k + c];
        } else {
          out.fill(0, i * k, i * k + k);
          this.accumulate(columns, i, 0, 1, out, i * k, policy);
        }
      }
    }
    return out;
  }
}
