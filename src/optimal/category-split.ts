import { SUBSET_CAP } from './binarise.js';
import type { SideBest } from './side-best.js';
import { leafError } from './solution.js';

/**
 * The best depth-1 split of one side of a depth-2 root test on a categorical feature: its
 * categories (those with weight on the side) are gathered with `add`, then `offer` gives the side
 * the best subset test (SUBSET_CAP categories or fewer) or the best category against the rest.
 *
 * The best subset needs no enumeration of subsets: a split into two leaves predicting classes a
 * and b misclassifies, per category, its weight outside whichever of a and b it sends more of,
 * so for each pair of classes every category goes to its better side (at least one on each
 * side), and the least cost over pairs is the best split's error — k² × categories, not 2^m.
 */
export class SubsetSearch {
  /** Class weights of gathered category i at `v[i·k .. i·k + k)`, its code at `codes[i]`. */
  private readonly v: Float64Array;
  private readonly codes: Int32Array;
  private readonly n: Float64Array;
  private readonly sideL: Float64Array;
  private readonly sideR: Float64Array;
  private q = 0;

  constructor(
    private readonly k: number,
    maxCategories: number,
  ) {
    this.v = new Float64Array(Math.max(1, maxCategories) * k);
    this.codes = new Int32Array(Math.max(1, maxCategories));
    this.n = new Float64Array(Math.max(1, maxCategories));
    this.sideL = new Float64Array(k);
    this.sideR = new Float64Array(k);
  }

  /** Bytes of the scratch arrays for a feature of up to `maxCategories` categories and k classes. */
  static bytes(k: number, maxCategories: number): number {
    return Math.max(1, maxCategories) * (8 * k + 12) + 16 * k;
  }

  reset(): void {
    this.q = 0;
  }

  /** One category on the side: its code and class weights `w[0 .. k)`. */
  add(code: number, w: Float64Array): void {
    const { k, q } = this;
    this.codes[q] = code;
    let n = 0;
    for (let c = 0; c < k; c++) {
      this.v[q * k + c] = w[c];
      n += w[c];
    }
    this.n[q] = n;
    this.q++;
  }

  /**
   * Offer `side` the best split of feature g on the side (class weights `all`, of them `miss`
   * missing g; each leaf costs `P` more). Missing rows go to the better leaf.
   */
  offer(side: SideBest, g: number, all: Float64Array, miss: Float64Array, hasMiss: boolean, P: number): void {
    const { k, q, v } = this;
    if (q > SUBSET_CAP || q < 2) {
      for (let i = 0; i < q; i++)
        offerSplit(side, v.subarray(i * k, i * k + k), all, miss, hasMiss, g, this.codes[i], -1, P, k);
      return;
    }
    let missW = 0;
    if (hasMiss) for (let c = 0; c < k; c++) missW += miss[c];
    let best = Infinity;
    let bestMask = 0;
    let bestMissLeft = false;
    for (let a = 0; a < k; a++) {
      for (let b = a + 1; b < k; b++) {
        let cost = 0;
        let mask = 0;
        let moveL = Infinity;
        let iL = -1;
        let moveR = Infinity;
        let iR = -1;
        for (let i = 0; i < q; i++) {
          const wa = v[i * k + a];
          const wb = v[i * k + b];
          if (wa >= wb) {
            mask |= 1 << i;
            cost += this.n[i] - wa;
            if (wa - wb < moveL) {
              moveL = wa - wb;
              iL = i;
            }
          } else {
            cost += this.n[i] - wb;
            if (wb - wa < moveR) {
              moveR = wb - wa;
              iR = i;
            }
          }
        }
        // Each side keeps at least one category (all on one side is no test).
        if (mask === 0) {
          mask = 1 << iR;
          cost += moveR;
        } else if (iR < 0) {
          mask &= ~(1 << iL);
          cost += moveL;
        }
        const missLeft = missW > 0 && miss[a] >= miss[b];
        if (missW > 0) cost += missW - (missLeft ? miss[a] : miss[b]);
        if (cost < best) {
          best = cost;
          bestMask = mask;
          bestMissLeft = missLeft;
        }
      }
    }
    // The cheapest pair's cost is its split's error; count the split's leaves as they are.
    const { sideL, sideR } = this;
    sideL.fill(0);
    sideR.fill(0);
    for (let i = 0; i < q; i++) {
      const into = (bestMask >> i) & 1 ? sideL : sideR;
      for (let c = 0; c < k; c++) into[c] += v[i * k + c];
    }
    if (missW > 0) for (let c = 0; c < k; c++) (bestMissLeft ? sideL : sideR)[c] += miss[c];
    const e1 = leafError(sideL, 0, k) + P;
    const e2 = leafError(sideR, 0, k) + P;
    if (!side.offer(e1 + e2, g, -1, -1, bestMissLeft, e1, e2)) return;
    const left: number[] = [];
    for (let i = 0; i < q; i++) if ((bestMask >> i) & 1) left.push(this.codes[i]);
    side.left = left;
  }
}

/**
 * Offer `side` the split sending `p` left and `all − p` right, and, with missing rows, the one sending
 * them left too.
 */
export function offerSplit(
  side: SideBest,
  p: Float64Array,
  all: Float64Array,
  miss: Float64Array,
  hasMiss: boolean,
  g: number,
  a: number,
  b: number,
  P: number,
  k: number,
): void {
  let s1 = 0;
  let m1 = 0;
  let s2 = 0;
  let m2 = 0;
  let s3 = 0;
  let m3 = 0;
  let s4 = 0;
  let m4 = 0;
  for (let c = 0; c < k; c++) {
    const x = p[c];
    const y = all[c] - x;
    s1 += x;
    if (x > m1) m1 = x;
    s2 += y;
    if (y > m2) m2 = y;
    if (hasMiss) {
      const x2 = x + miss[c];
      const y2 = y - miss[c];
      s3 += x2;
      if (x2 > m3) m3 = x2;
      s4 += y2;
      if (y2 > m4) m4 = y2;
    }
  }
  const e1 = s1 - m1 + P;
  const e2 = s2 - m2 + P;
  side.offer(e1 + e2, g, a, b, false, e1, e2);
  if (hasMiss) {
    const e3 = s3 - m3 + P;
    const e4 = s4 - m4 + P;
    side.offer(e3 + e4, g, a, b, true, e3, e4);
  }
}
