import { grown } from '../core/arrays.js';

/**
 * TreeSHAP's "unique path" (Lundberg et al. 2020, Algorithm 2: EXTEND, UNWIND and the unwound
 * sum), one copy per tree depth in flat typed arrays. The walk at depth t reads its parent's copy
 * at depth t − 1 and writes its own; a copy stays intact while its node's subtree is walked, since
 * only deeper copies are written meanwhile.
 *
 * A path holds the distinct features met on the way plus the empty first element, so the copy at
 * depth t has at most min(t, F) + 1 elements (F = features): memory grows linearly with depth
 * past F, and a 100,000-deep tree costs no more than about 100,000 × (F + 1) entries.
 */
export class PathBuffer {
  feature = new Int32Array(0);
  zero = new Float64Array(0);
  one = new Float64Array(0);
  /** Weight of each subset size along the path (`pweight` in the paper). */
  weight = new Float64Array(0);

  /** Stride of the ratio tables: a path has at most nFeatures + 1 elements. */
  private readonly stride: number;
  /** up[u * stride + i] = (u + 1) / (i + 1): divisions done once, not per leaf and element. */
  private readonly up: Float64Array;
  /** down[u * stride + i] = (u − i) / (u + 1). */
  private readonly down: Float64Array;
  /** rise[u * stride + i] = (i + 1) / (u + 1). */
  private readonly rise: Float64Array;
  /** across[u * stride + i] = (u + 1) / (u − i), for i < u. */
  private readonly across: Float64Array;
  /** upDown[u * stride + i] = up × down = (u − i) / (i + 1). */
  private readonly upDown: Float64Array;

  constructor(private readonly nFeatures: number) {
    const s = nFeatures + 2;
    this.stride = s;
    this.up = new Float64Array(s * s);
    this.down = new Float64Array(s * s);
    this.rise = new Float64Array(s * s);
    this.across = new Float64Array(s * s);
    this.upDown = new Float64Array(s * s);
    for (let u = 0; u < s; u++)
      for (let i = 0; i <= u; i++) {
        this.up[u * s + i] = (u + 1) / (i + 1);
        this.down[u * s + i] = (u - i) / (u + 1);
        this.rise[u * s + i] = (i + 1) / (u + 1);
        this.across[u * s + i] = i < u ? (u + 1) / (u - i) : 0;
        this.upDown[u * s + i] = (u - i) / (i + 1);
      }
  }

  /** Offset of the copy at tree depth `depth`: the sum of min(s, F) + 1 for s < depth. */
  segment(depth: number): number {
    const f1 = this.nFeatures + 1;
    if (depth <= f1) return (depth * (depth + 1)) / 2;
    return (f1 * (f1 + 1)) / 2 + (depth - f1) * f1;
  }

  /** Copy the first `count` elements of depth − 1's path into depth's, growing the arrays as needed. */
  copy(depth: number, count: number): void {
    const to = this.segment(depth);
    this.reserve(to + count + 1);
    const from = this.segment(depth - 1);
    // Plain loops: paths are short, and copyWithin's call costs more than the copy.
    const { feature, zero, one, weight } = this;
    for (let i = 0; i < count; i++) {
      feature[to + i] = feature[from + i];
      zero[to + i] = zero[from + i];
      one[to + i] = one[from + i];
      weight[to + i] = weight[from + i];
    }
  }

  private reserve(size: number): void {
    if (size <= this.weight.length) return;
    const n = Math.max(size, this.weight.length * 2, 64);
    this.feature = grown(this.feature, n);
    this.zero = grown(this.zero, n);
    this.one = grown(this.one, n);
    this.weight = grown(this.weight, n);
  }

  /** EXTEND: append (feature, zero, one) at index `unique` of the path at `seg`, updating the weights. */
  extend(seg: number, unique: number, zero: number, one: number, feature: number): void {
    this.reserve(seg + unique + 1);
    const w = this.weight;
    this.feature[seg + unique] = feature;
    this.zero[seg + unique] = zero;
    this.one[seg + unique] = one;
    w[seg + unique] = unique === 0 ? 1 : 0;
    const row = unique * this.stride;
    const { rise, down } = this;
    for (let i = unique - 1; i >= 0; i--) {
      const wi = w[seg + i];
      w[seg + i + 1] += one * wi * rise[row + i];
      w[seg + i] = zero * wi * down[row + i];
    }
  }

  /**
   * COPY then EXTEND in one pass: the first `unique` elements of the path at `from`, plus
   * (feature, zero, one) at index `unique`, written to the path at `seg` with its weights.
   */
  extendFrom(from: number, seg: number, unique: number, zero: number, one: number, feature: number): void {
    this.reserve(seg + unique + 1);
    const { weight: w, feature: features, zero: zeros, one: ones, rise, down } = this;
    features[seg + unique] = feature;
    zeros[seg + unique] = zero;
    ones[seg + unique] = one;
    w[seg + unique] = unique === 0 ? 1 : 0;
    const row = unique * this.stride;
    for (let i = unique - 1; i >= 0; i--) {
      const wi = w[from + i];
      features[seg + i] = features[from + i];
      zeros[seg + i] = zeros[from + i];
      ones[seg + i] = ones[from + i];
      w[seg + i + 1] += one * wi * rise[row + i];
      w[seg + i] = zero * wi * down[row + i];
    }
  }

  /** UNWIND: remove element `p` (1 ≤ p ≤ unique) of the path at `seg`, undoing its EXTEND. */
  unwind(seg: number, unique: number, p: number): void {
    const w = this.weight;
    const one = this.one[seg + p];
    const zero = this.zero[seg + p];
    let next = w[seg + unique];
    for (let i = unique - 1; i >= 0; i--) {
      if (one !== 0) {
        const kept = w[seg + i];
        w[seg + i] = (next * (unique + 1)) / ((i + 1) * one);
        next = kept - (w[seg + i] * zero * (unique - i)) / (unique + 1);
      } else {
        w[seg + i] = (w[seg + i] * (unique + 1)) / (zero * (unique - i));
      }
    }
    for (let i = p; i < unique; i++) {
      this.feature[seg + i] = this.feature[seg + i + 1];
      this.zero[seg + i] = this.zero[seg + i + 1];
      this.one[seg + i] = this.one[seg + i + 1];
    }
  }

  /**
   * Add every element's contribution at a leaf into `out[offset + feature * k + c]`: `scale` ×
   * (one − zero) × the unwound sum × `value[at + c]`. An element with one = 0 has unwound sum
   * Σᵢ wᵢ (u + 1) / (u − i) / zero, so its contribution is −scale × that sum without the division:
   * the same for every such element, computed once per leaf.
   */
  addLeaf(
    seg: number,
    unique: number,
    scale: number,
    value: Float64Array,
    at: number,
    k: number,
    out: Float64Array,
    offset: number,
  ): void {
    const { weight: w, one: ones, zero: zeros, feature } = this;
    const row = unique * this.stride;
    let offPath = NaN;
    for (let p = 1; p <= unique; p++) {
      const one = ones[seg + p];
      let contribution: number;
      if (one !== 0) contribution = this.onePathSum(seg, unique, one, zeros[seg + p]) * (one - zeros[seg + p]) * scale;
      else {
        if (offPath !== offPath) {
          const across = this.across;
          offPath = 0;
          for (let i = unique - 1; i >= 0; i--) offPath += w[seg + i] * across[row + i];
        }
        contribution = -offPath * scale;
      }
      if (contribution === 0) continue;
      const o = offset + feature[seg + p] * k;
      for (let c = 0; c < k; c++) out[o + c] += contribution * value[at + c];
    }
  }

  /** The total weight the path would have with an element (`one` ≠ 0, `zero`) unwound. */
  private onePathSum(seg: number, unique: number, one: number, zero: number): number {
    const { weight: w, up, down } = this;
    const row = unique * this.stride;
    let total = 0;
    let next = w[seg + unique];
    if (one === 1) {
      // next · up · down folded into one table: a shorter chain of dependent operations.
      const across = this.upDown;
      for (let i = unique - 1; i >= 0; i--) {
        total += next * up[row + i];
        next = w[seg + i] - next * (zero * across[row + i]);
      }
      return total;
    }
    const perOne = 1 / one;
    for (let i = unique - 1; i >= 0; i--) {
      const part = next * up[row + i] * perOne;
      total += part;
      next = w[seg + i] - part * zero * down[row + i];
    }
    return total;
  }

  /** Index (≥ 1) of `feature` in the path at `seg`, or 0 when it is not there. */
  find(seg: number, unique: number, feature: number): number {
    for (let i = 1; i <= unique; i++) if (this.feature[seg + i] === feature) return i;
    return 0;
  }
}
