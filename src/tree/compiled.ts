import type { TreeNode } from './node.js';
import { majorityClass } from './node.js';
import type { FeatureSchema } from './schema.js';

const LEAF = 0;
const NUMERIC = 1;
const CATEGORICAL = 2;

/** One aligned input column per model feature: numeric values (NaN = missing) or model codes (-1 = missing/unseen). */
export type AlignedColumn = Float64Array | Int32Array;

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

  constructor(nodes: TreeNode[], features: FeatureSchema[], readonly classes: number) {
    const m = nodes.length;
    this.kind = new Uint8Array(m);
    this.feature = new Int32Array(m);
    this.firstChild = new Int32Array(m);
    this.paramStart = new Int32Array(m);
    this.paramCount = new Int32Array(m);
    this.proba = new Float64Array(m * classes);
    this.classOf = new Int32Array(m);
    const thresholds: number[] = [];
    const codeBranch: number[] = [];
    nodes.forEach((node, i) => {
      const total = node.counts.reduce((a, b) => a + b, 0);
      for (let c = 0; c < classes; c++) this.proba[i * classes + c] = total > 0 ? node.counts[c] / total : 1 / classes;
      this.classOf[i] = majorityClass(node.counts);
      const split = node.split;
      if (!split || !node.children) return;
      this.feature[i] = split.feature;
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
    });
    this.thresholds = Float64Array.from(thresholds);
    this.codeBranch = Int32Array.from(codeBranch);
    void LEAF;
  }

  /**
   * The node where row `i` stops: a leaf, or an internal node whose test cannot be applied
   * (missing value, or a category with no branch there).
   */
  route(columns: AlignedColumn[], i: number): number {
    let node = 0;
    for (;;) {
      const kind = this.kind[node];
      if (kind === NUMERIC) {
        const x = columns[this.feature[node]][i];
        if (Number.isNaN(x)) return node;
        const s = this.paramStart[node];
        const count = this.paramCount[node];
        let b = 0;
        while (b < count && x > this.thresholds[s + b]) b++;
        node = this.firstChild[node] + b;
      } else if (kind === CATEGORICAL) {
        const code = columns[this.feature[node]][i];
        if (code < 0 || code >= this.paramCount[node]) return node;
        const b = this.codeBranch[this.paramStart[node] + code];
        if (b < 0) return node;
        node = this.firstChild[node] + b;
      } else {
        return node;
      }
    }
  }

  /** Class code per row. */
  predictCodes(columns: AlignedColumn[], nRows: number, out = new Int32Array(nRows)): Int32Array {
    for (let i = 0; i < nRows; i++) out[i] = this.classOf[this.route(columns, i)];
    return out;
  }

  /** Class probabilities, row-major: out[i * classes + c]. */
  predictProba(columns: AlignedColumn[], nRows: number, out = new Float64Array(nRows * this.classes)): Float64Array {
    const k = this.classes;
    for (let i = 0; i < nRows; i++) {
      const node = this.route(columns, i);
      for (let c = 0; c < k; c++) out[i * k + c] = this.proba[node * k + c];
    }
    return out;
  }
}
