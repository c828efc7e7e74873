import type { Binarised } from './binarise.js';
import { offerSplit, SubsetSearch } from './category-split.js';
import type { RowGroups } from './row-groups.js';
import { SideBest } from './side-best.js';

/**
 * The depth-2 solver's children: for one root test, the best single split of each side over every
 * feature (a child may test the root's feature again: an interval), read off class-weight
 * histograms of the node's rows and of the left side, laid out as `(groups.base[g] + code) · k + class`.
 */
export class ChildSplits {
  readonly bestL = new SideBest();
  readonly bestR = new SideBest();
  private readonly k: number;
  /** 1 for an ordinal feature, 0 for a categorical one. */
  private readonly ordinal: Uint8Array;
  private readonly pl: Float64Array;
  private readonly pr: Float64Array;
  private readonly ml: Float64Array;
  private readonly mr: Float64Array;
  private readonly subL: SubsetSearch;
  private readonly subR: SubsetSearch;
  /** Below this, a right side's weight (a difference of sums) counts as none: rounding, not rows. */
  private readonly tiny: number;
  private total: Float64Array;
  private left: Float64Array;
  private missingRoot: Float64Array | null = null;

  constructor(
    private readonly data: Binarised,
    private readonly groups: RowGroups,
    /** Objective value added per leaf. */
    private readonly penalty: number,
  ) {
    this.k = data.k;
    this.ordinal = Uint8Array.from(data.features, (f) => (f.kind === 'ordinal' ? 1 : 0));
    let lightest = Infinity;
    for (const w of data.weights) if (w > 0 && w < lightest) lightest = w;
    this.tiny = lightest / 2;
    const vec = () => new Float64Array(data.k);
    this.pl = vec();
    this.pr = vec();
    this.ml = vec();
    this.mr = vec();
    this.subL = new SubsetSearch(data.k, maxCategories(data));
    this.subR = new SubsetSearch(data.k, maxCategories(data));
    this.total = this.left = new Float64Array(0);
  }

  /** Bytes of the scratch arrays. */
  static bytes(data: Binarised): number {
    return 2 * SubsetSearch.bytes(data.k, maxCategories(data)) + 32 * data.k;
  }

  /**
   * Offer `bestL` and `bestR` (reset by the caller) every split of their sides: the node's rows
   * are `total`, the left side's are `left` plus, when the root sends its missing rows left,
   * `missingRoot` (else null); the sides' class weights `L`, `R`.
   */
  scan(
    total: Float64Array,
    left: Float64Array,
    missingRoot: Float64Array | null,
    L: Float64Array,
    R: Float64Array,
  ): void {
    this.total = total;
    this.left = left;
    this.missingRoot = missingRoot;
    for (let g = 0; g < this.data.features.length; g++) this.scanChild(g, L, R);
  }

  /**
   * The best single split on feature g of each side of the current root test (sides' class
   * weights `L`, `R`; the left side's histogram is `left`, plus `missingRoot` when the root sends
   * its missing rows left). Rows missing g go to whichever child is better.
   */
  private scanChild(g: number, L: Float64Array, R: Float64Array): void {
    const { k, total, left, missingRoot, pl, pr, ml, mr, groups, penalty: P } = this;
    const m = groups.len[g];
    const o = groups.base[g];
    const ordinal = this.ordinal[g] === 1;
    const hasMiss = groups.missing[g] > 0;
    if (m < 2 && !(m === 1 && hasMiss)) return;
    if (ordinal && k === 2 && !hasMiss) {
      this.scanTwo(g, o, m, L, R);
      return;
    }
    const cell = (code: number) => (o + code) * k;
    const mc = cell(this.data.features[g].bins);
    for (let c = 0; c < k; c++) {
      ml[c] = left[mc + c] + (missingRoot ? missingRoot[mc + c] : 0);
      mr[c] = total[mc + c] - ml[c];
    }
    if (!ordinal) {
      this.scanCategory(g, L, R, hasMiss);
      return;
    }
    const last = hasMiss ? m : m - 1;
    pl.fill(0);
    pr.fill(0);
    for (let j = 0; j < last; j++) {
      const code = groups.occ[o + j];
      const x = cell(code);
      for (let c = 0; c < k; c++) {
        const h = left[x + c] + (missingRoot ? missingRoot[x + c] : 0);
        pl[c] += h;
        pr[c] += total[x + c] - h;
      }
      const b = j + 1 < m ? groups.occ[o + j + 1] : -1;
      offerSplit(this.bestL, pl, L, ml, hasMiss, g, code, b, P, k);
      offerSplit(this.bestR, pr, R, mr, hasMiss, g, code, b, P, k);
    }
  }

  /** `scanChild` of an ordinal feature without missing values, for two classes: the same sums, in locals. */
  private scanTwo(g: number, o: number, m: number, L: Float64Array, R: Float64Array): void {
    const { total, left, missingRoot, penalty: P, bestL, bestR } = this;
    const occ = this.groups.occ;
    const L0 = L[0];
    const L1 = L[1];
    const R0 = R[0];
    const R1 = R[1];
    let l0 = 0;
    let l1 = 0;
    let r0 = 0;
    let r1 = 0;
    // The sides' best costs in locals: a split is offered only when it beats them (as offerTwo would).
    let costL = bestL.cost;
    let costR = bestR.cost;
    for (let j = 0; j < m - 1; j++) {
      const code = occ[o + j];
      const x = (o + code) * 2;
      const h0 = missingRoot ? left[x] + missingRoot[x] : left[x];
      const h1 = missingRoot ? left[x + 1] + missingRoot[x + 1] : left[x + 1];
      l0 += h0;
      l1 += h1;
      r0 += total[x] - h0;
      r1 += total[x + 1] - h1;
      if (twoCost(l0, l1, L0, L1, P) < costL) {
        offerTwo(bestL, l0, l1, L0, L1, g, code, occ[o + j + 1], P);
        costL = bestL.cost;
      }
      if (twoCost(r0, r1, R0, R1, P) < costR) {
        offerTwo(bestR, r0, r1, R0, R1, g, code, occ[o + j + 1], P);
        costR = bestR.cost;
      }
    }
  }

  /**
   * The best split on categorical feature g of each side (as `scanChild`): the categories with
   * weight on a side are its tests' categories (a subset of them, or each against the rest).
   */
  private scanCategory(g: number, L: Float64Array, R: Float64Array, hasMiss: boolean): void {
    const { k, total, left, missingRoot, pl, pr, groups, subL, subR } = this;
    const m = groups.len[g];
    const o = groups.base[g];
    subL.reset();
    subR.reset();
    for (let j = 0; j < m; j++) {
      const code = groups.occ[o + j];
      const x = (o + code) * k;
      let onLeft = 0;
      let onRight = 0;
      for (let c = 0; c < k; c++) {
        const h = left[x + c] + (missingRoot ? missingRoot[x + c] : 0);
        pl[c] = h;
        pr[c] = total[x + c] - h;
        onLeft += h;
        onRight += pr[c];
      }
      if (onLeft > 0) subL.add(code, pl);
      if (onRight > this.tiny) subR.add(code, pr);
    }
    subL.offer(this.bestL, g, L, this.ml, hasMiss, this.penalty);
    subR.offer(this.bestR, g, R, this.mr, hasMiss, this.penalty);
  }
}

/** A two-class leaf's cost: its weight less its majority's, plus the leaf penalty `P`. */
function leafCost(x0: number, x1: number, P: number): number {
  let m = x0 > 0 ? x0 : 0;
  if (x1 > m) m = x1;
  return 0 + x0 + x1 - m + P;
}

/** What `offerTwo` would offer: the two leaves' cost (the same sums in the same order). */
function twoCost(x0: number, x1: number, all0: number, all1: number, P: number): number {
  return leafCost(x0, x1, P) + leafCost(all0 - x0, all1 - x1, P);
}

/** `offerSplit` for two classes and no missing rows: the same sums in the same order, so the same costs. */
function offerTwo(
  side: SideBest,
  x0: number,
  x1: number,
  all0: number,
  all1: number,
  g: number,
  a: number,
  b: number,
  P: number,
) {
  const e1 = leafCost(x0, x1, P);
  const e2 = leafCost(all0 - x0, all1 - x1, P);
  if (e1 + e2 < side.cost) side.offer(e1 + e2, g, a, b, false, e1, e2);
}

/** The most categories of any categorical feature (the size of the subset search's scratch). */
function maxCategories(data: Binarised): number {
  let most = 0;
  for (const f of data.features) if (f.kind === 'category') most = Math.max(most, f.bins);
  return most;
}
