import { type Binarised, maskCodes, SUBSET_CAP } from './binarise.js';
import { offerSplit, SubsetSearch } from './category-split.js';
import { RowGroups } from './row-groups.js';
import { SideBest } from './side-best.js';
import { leafError, leafSolution, type Solution, splitSolution, type Test } from './solution.js';
import { StopSearch } from './stop.js';

/**
 * MurTree's specialised solver for trees of depth ≤ 2 (Demirović et al. 2022, section 4.4),
 * adapted to ordered codes: for each root test it needs, per side, the best single split, which
 * is read off class-count histograms of every other feature over the rows of that side. Sweeping
 * the root feature's codes in order moves rows from right to left once, so one pass over the rows
 * per root feature (rows × features) fills every histogram, and each root test then costs one
 * scan over the occupied codes of every feature (tests × classes) — no pair of tests is counted
 * row by row. Exact: every test of the node's rows is tried at the root and at both children.
 */
export class Depth2Solver {
  private readonly groups: RowGroups;
  private readonly k: number;
  /**
   * Class weights by (groups.base[g] + code) · k + class: of all the node's rows, of the left side, of the
   * rows missing the root feature.
   */
  private readonly total: Float64Array;
  private readonly left: Float64Array;
  private readonly missingRoot: Float64Array;
  private readonly tot: Float64Array;
  private readonly sideL: Float64Array;
  private readonly missC: Float64Array;
  private readonly vL: Float64Array;
  private readonly vR: Float64Array;
  private readonly pl: Float64Array;
  private readonly pr: Float64Array;
  private readonly ml: Float64Array;
  private readonly mr: Float64Array;
  /**
   * Lower bounds on the best depth-1 tree of each side along an ordinal sweep, per direction of
   * the root feature's missing rows (0: right, 1: left); see `sweep`.
   */
  private readonly simL = new Float64Array(2);
  private readonly simR = new Float64Array(2);
  /** Cells of each histogram; whether every weight is an integer (then sums and differences are exact). */
  private readonly cells: number;
  private readonly integral: boolean;
  /** Weight below which two costs count as equal (rounding in sums of fractional weights). */
  private slack = 0;
  /** Root tests whose children were not scanned because the similarity bounds ruled them out. */
  skipped = 0;
  private readonly bestL = new SideBest();
  private readonly bestR = new SideBest();
  private readonly subL: SubsetSearch;
  private readonly subR: SubsetSearch;
  private best: Solution[] = [];
  private rootRows = 0;
  private leftRows = 0;
  /** Below this, a right side's weight (a difference of sums) counts as none: rounding, not rows. */
  private readonly tiny: number;
  /** Depth-2 sub-problems solved (a count for the benchmark). */
  solved = 0;

  constructor(
    private readonly data: Binarised,
    /** Objective value added per leaf. */
    private readonly penalty: number,
    /** Date.now() after which a solve stops (StopSearch), checked after each root feature. */
    private readonly deadline?: number,
  ) {
    this.groups = new RowGroups(data);
    let lightest = Infinity;
    for (const w of data.weights) if (w > 0 && w < lightest) lightest = w;
    this.tiny = lightest / 2;
    this.k = data.k;
    const cells = this.groups.base[data.features.length] * data.k;
    this.cells = cells;
    this.integral = data.weights.every((w) => Number.isInteger(w));
    this.total = new Float64Array(cells);
    this.left = new Float64Array(cells);
    this.missingRoot = new Float64Array(cells);
    const vec = () => new Float64Array(data.k);
    this.tot = vec();
    this.sideL = vec();
    this.missC = vec();
    this.vL = vec();
    this.vR = vec();
    this.pl = vec();
    this.pr = vec();
    this.ml = vec();
    this.mr = vec();
    this.subL = new SubsetSearch(data.k, maxCategories(data));
    this.subR = new SubsetSearch(data.k, maxCategories(data));
  }

  /** Bytes of the solver's arrays (its share of the memory bound). */
  static bytes(data: Binarised): number {
    let cells = 0;
    for (const f of data.features) cells += f.bins + 1;
    return cells * (3 * 8 * data.k + 9) + data.n * 4 + 2 * SubsetSearch.bytes(data.k, maxCategories(data));
  }

  /**
   * The optimal trees of depth ≤ `depth` on `rows[0 .. count)`: element j is the best with at
   * most j + 1 leaves (j < 4 for depth 2, j < 2 for depth 1), ties going to fewer leaves.
   */
  solve(rows: Int32Array, count: number, depth: 1 | 2): Solution[] {
    this.solved++;
    const { k, tot } = this;
    this.groups.scan(rows, count);
    tot.fill(0);
    this.addRows(this.total, rows, 0, count, tot);
    const err = leafError(tot, 0, k);
    this.slack = 1e-9 * (err + this.penalty);
    const leaf = leafSolution(err + this.penalty);
    this.best = [leaf, leaf, leaf, leaf];
    if (err > 0) {
      this.rootRows = count;
      for (let f = 0; f < this.data.features.length; f++) {
        this.sweep(f, rows, count, depth);
        if (this.deadline !== undefined && Date.now() > this.deadline) {
          this.wipe(this.total, rows, 0, count);
          throw new StopSearch('time');
        }
      }
    }
    this.wipe(this.total, rows, 0, count);
    const best = this.best.slice(0, depth === 1 ? 2 : 4);
    for (let j = 1; j < best.length; j++) if (!(best[j].cost < best[j - 1].cost)) best[j] = best[j - 1];
    return best;
  }

  /** Every root test on feature f, in code order. */
  private sweep(f: number, rows: Int32Array, count: number, depth: 1 | 2): void {
    const g = this.groups;
    const m = g.sortBy(f, rows, count);
    const { order, start } = g;
    const miss = g.missing[f] > 0;
    if (m + (miss ? 1 : 0) < 2) return;
    this.missC.fill(0);
    if (miss) this.addRows(this.missingRoot, order, start[m], start[m + 1], this.missC);
    const o = g.base[f];
    this.sideL.fill(0);
    this.leftRows = 0;
    if (this.data.features[f].kind === 'ordinal') {
      // With missing rows, the last test sends every known value left and the missing rows right.
      const last = miss ? m : m - 1;
      // Similarity bounds (MurTree section 4.5) along the sweep: the left side only gains rows, so
      // its best depth-1 tree cannot get cheaper; the right side loses bucket i, so its best can
      // get cheaper by at most that bucket's weight. A test whose bounds reach the best trees so
      // far needs no scan of its children.
      this.simL.fill(0);
      this.simR.fill(0);
      // One test (two codes, or one code and missing rows: all its rows left with missing ones is no test).
      const one = last === 1 && this.mirrorPays(start[1] - start[0], start[2] - start[1]);
      if (one) {
        this.mirror(order, start[1], start[2]);
        this.leftRows = start[1];
        this.evaluate({ feature: f, a: g.occ[o], b: m > 1 ? g.occ[o + 1] : -1 }, false, depth, false);
        this.left.fill(0);
      }
      for (let i = 0; i < (one ? 0 : last); i++) {
        const before = sumOf(this.sideL);
        this.addRows(this.left, order, start[i], start[i + 1], this.sideL);
        const moved = sumOf(this.sideL) - before;
        for (let dir = 0; dir < 2; dir++) this.simR[dir] = Math.max(0, this.simR[dir] - moved - this.slack);
        this.leftRows += start[i + 1] - start[i];
        const test = { feature: f, a: g.occ[o + i], b: i + 1 < m ? g.occ[o + i + 1] : -1 };
        this.evaluate(test, false, depth, true);
        if (miss) this.evaluate(test, true, depth, true);
      }
      if (!one) this.wipe(this.left, order, 0, start[Math.max(0, last)]);
    } else if (m <= SUBSET_CAP) this.sweepSubsets(f, m, miss, depth);
    else {
      for (let i = 0; i < m; i++) {
        this.sideL.fill(0);
        this.addRows(this.left, order, start[i], start[i + 1], this.sideL);
        this.leftRows = start[i + 1] - start[i];
        const test = { feature: f, a: g.occ[o + i], b: -1 };
        this.evaluate(test, false, depth, false);
        if (miss) this.evaluate(test, true, depth, false);
        this.clearRows(this.left, order, start[i], start[i + 1]);
      }
    }
    if (miss) this.clearRows(this.missingRoot, order, start[m], start[m + 1]);
  }

  /**
   * Every subset test on categorical feature f (m known codes at the node, at most SUBSET_CAP):
   * the subsets of buckets 0 .. m-2 (the last bucket's side is the complement) in Gray-code
   * order, so the left histogram gains or loses one bucket's rows per test. With one code, the
   * test is that code against the missing rows.
   */
  private sweepSubsets(f: number, m: number, miss: boolean, depth: 1 | 2): void {
    const g = this.groups;
    const { order, start } = g;
    const count = m === 1 ? 1 : 2 ** (m - 1) - 1;
    let mask = 0;
    for (let s = 1; s <= count; s++) {
      const i = 31 - Math.clz32(s & -s);
      if ((mask >> i) & 1) this.dropBucket(mask, i);
      else {
        this.addRows(this.left, order, start[i], start[i + 1], this.sideL);
        this.leftRows += start[i + 1] - start[i];
      }
      mask ^= 1 << i;
      const test = { feature: f, a: -1, b: -1, left: maskCodes(mask, g.occ, g.base[f]) };
      this.evaluate(test, false, depth, false);
      if (miss) this.evaluate(test, true, depth, false);
    }
    for (let i = 0; i < m; i++) if ((mask >> i) & 1) this.clearRows(this.left, order, start[i], start[i + 1]);
  }

  /**
   * Take bucket i's rows out of the left side (buckets `mask`): subtracted with integer weights
   * (exact), else the side rebuilt from its other buckets (sums of fractions are not undone exactly).
   */
  private dropBucket(mask: number, i: number): void {
    const { order, start } = this.groups;
    this.leftRows -= start[i + 1] - start[i];
    if (this.integral) {
      this.addRows(this.left, order, start[i], start[i + 1], this.sideL, -1);
      return;
    }
    for (let b = 0; mask >> b !== 0; b++) if ((mask >> b) & 1) this.clearRows(this.left, order, start[b], start[b + 1]);
    this.sideL.fill(0);
    for (let b = 0; mask >> b !== 0; b++)
      if (b !== i && (mask >> b) & 1) this.addRows(this.left, order, start[b], start[b + 1], this.sideL);
  }

  /**
   * One root test: the best tree of each leaf budget that starts with it, kept when it beats the best so far.
   * `carry`: an ordinal sweep's test, whose similarity bounds (`simL`, `simR`) may rule its children out.
   */
  private evaluate(t: Omit<Test, 'missingLeft'>, missingLeft: boolean, depth: 1 | 2, carry: boolean) {
    const { k, tot, sideL, missC, penalty: P } = this;
    const L = this.vL;
    const R = this.vR;
    let rowsL = this.leftRows;
    if (missingLeft) rowsL += this.groups.missing[t.feature];
    if (rowsL === 0 || rowsL === this.rootRows) return;
    for (let c = 0; c < k; c++) {
      L[c] = sideL[c] + (missingLeft ? missC[c] : 0);
      R[c] = tot[c] - L[c];
    }
    const errL = leafError(L, 0, k);
    const errR = leafError(R, 0, k);
    const test: Test = { ...t, missingLeft };
    const best = this.best;
    if (errL + errR + 2 * P < best[1].cost)
      best[1] = splitSolution(test, leafSolution(errL + P), leafSolution(errR + P));
    if (depth === 1) return;
    const dir = missingLeft ? 1 : 0;
    if (carry) {
      const lbL = this.simL[dir];
      const lbR = this.simR[dir];
      const three = Math.min(lbL + errR + P, errL + P + lbR);
      if (three - this.slack >= best[2].cost && lbL + lbR - this.slack >= best[3].cost) {
        this.skipped++;
        return;
      }
    }
    this.bestL.reset(errL + P);
    this.bestR.reset(errR + P);
    // A child may test the root's feature again (an interval).
    if (errL > 0 || errR > 0) for (let g = 0; g < this.data.features.length; g++) this.scanChild(g, missingLeft, L, R);
    const l = this.bestL;
    const r = this.bestR;
    this.simL[dir] = l.cost;
    this.simR[dir] = r.cost;
    const three = Math.min(l.cost + errR + P, errL + P + r.cost);
    if (three < best[2].cost) {
      best[2] =
        l.cost + errR + P <= errL + P + r.cost
          ? splitSolution(test, l.solution(), leafSolution(errR + P))
          : splitSolution(test, leafSolution(errL + P), r.solution());
    }
    if (l.cost + r.cost < best[3].cost) best[3] = splitSolution(test, l.solution(), r.solution());
  }

  /**
   * The best single split on feature g of each side of the current root test (sides' class
   * weights `L`, `R`; the left side's histogram is `left`, plus `missingRoot` when the root sends
   * its missing rows left). Rows missing g go to whichever child is better.
   */
  private scanChild(g: number, missingLeft: boolean, L: Float64Array, R: Float64Array): void {
    const { k, total, left, missingRoot, pl, pr, ml, mr, groups, penalty: P } = this;
    const m = groups.len[g];
    const o = groups.base[g];
    const ordinal = this.data.features[g].kind === 'ordinal';
    const hasMiss = groups.missing[g] > 0;
    if (m < 2 && !(m === 1 && hasMiss)) return;
    const cell = (code: number) => (o + code) * k;
    const mc = cell(this.data.features[g].bins);
    for (let c = 0; c < k; c++) {
      ml[c] = left[mc + c] + (missingLeft ? missingRoot[mc + c] : 0);
      mr[c] = total[mc + c] - ml[c];
    }
    if (!ordinal) {
      this.scanCategory(g, missingLeft, L, R, hasMiss);
      return;
    }
    const last = hasMiss ? m : m - 1;
    pl.fill(0);
    pr.fill(0);
    for (let j = 0; j < last; j++) {
      const code = groups.occ[o + j];
      const x = cell(code);
      for (let c = 0; c < k; c++) {
        const h = left[x + c] + (missingLeft ? missingRoot[x + c] : 0);
        pl[c] += h;
        pr[c] += total[x + c] - h;
      }
      const b = j + 1 < m ? groups.occ[o + j + 1] : -1;
      offerSplit(this.bestL, pl, L, ml, hasMiss, g, code, b, P, k);
      offerSplit(this.bestR, pr, R, mr, hasMiss, g, code, b, P, k);
    }
  }

  /**
   * The best split on categorical feature g of each side (as `scanChild`): the categories with
   * weight on a side are its tests' categories (a subset of them, or each against the rest).
   */
  private scanCategory(g: number, missingLeft: boolean, L: Float64Array, R: Float64Array, hasMiss: boolean): void {
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
        const h = left[x + c] + (missingLeft ? missingRoot[x + c] : 0);
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

  /**
   * Add rows `order[from .. to)` (times `sign`) to histogram `hist` over every feature, and their
   * class weights to `classes`.
   */
  private addRows(
    hist: Float64Array,
    order: Int32Array,
    from: number,
    to: number,
    classes: Float64Array,
    sign = 1,
  ): void {
    const { k, data } = this;
    const { labels, weights, features } = data;
    const base = this.groups.base;
    for (let i = from; i < to; i++) {
      const r = order[i];
      const y = labels[r];
      const w = sign * weights[r];
      classes[y] += w;
      for (let g = 0; g < features.length; g++) hist[(base[g] + features[g].codes[r]) * k + y] += w;
    }
  }

  /**
   * Whether a two-bucket test's left histogram is cheaper made as the node's total minus its right
   * side's (`right` rows added, then every cell subtracted) than by adding its `left` rows: when the
   * right side is the smaller (a sparse 0/1 feature's ones). Only with integer weights, whose
   * differences are exact.
   */
  private mirrorPays(left: number, right: number): boolean {
    return this.integral && right * this.data.features.length + this.cells < left * this.data.features.length;
  }

  /** The left histogram and class weights as the total's minus those of rows `order[from .. to)`. */
  private mirror(order: Int32Array, from: number, to: number): void {
    const { left, total, sideL, tot } = this;
    this.addRows(left, order, from, to, sideL);
    for (let i = 0; i < left.length; i++) left[i] = total[i] - left[i];
    for (let c = 0; c < this.k; c++) sideL[c] = tot[c] - sideL[c];
  }

  /** Zero what rows `order[from .. to)` added to `hist`: cell by cell, or all at once when that is cheaper. */
  private wipe(hist: Float64Array, order: Int32Array, from: number, to: number): void {
    if ((to - from) * this.data.features.length > this.cells) hist.fill(0);
    else this.clearRows(hist, order, from, to);
  }

  /** Zero the cells of `hist` that rows `order[from .. to)` touched (exact zeros, unlike subtracting). */
  private clearRows(hist: Float64Array, order: Int32Array, from: number, to: number): void {
    const { k, data } = this;
    const { labels, features } = data;
    const base = this.groups.base;
    for (let i = from; i < to; i++) {
      const r = order[i];
      const y = labels[r];
      for (let g = 0; g < features.length; g++) hist[(base[g] + features[g].codes[r]) * k + y] = 0;
    }
  }
}

function sumOf(a: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i];
  return s;
}

/** The most categories of any categorical feature (the size of the subset search's scratch). */
function maxCategories(data: Binarised): number {
  let most = 0;
  for (const f of data.features) if (f.kind === 'category') most = Math.max(most, f.bins);
  return most;
}
