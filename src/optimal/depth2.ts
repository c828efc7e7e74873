import { type Binarised, maskCodes, SUBSET_CAP, wideCategories } from './binarise.js';
import { ChildSplits } from './child-splits.js';
import { pairLayout } from './pair-layout.js';
import { type PairTable, PairTables, SLICE } from './pair-table.js';
import { RowGroups } from './row-groups.js';
import { leafError, leafSolution, type Solution, splitSolution, type Test } from './solution.js';
import { StopSearch } from './stop.js';

/**
 * MurTree's specialised solver for trees of depth ≤ 2 (Demirović et al. 2022, section 4.4),
 * adapted to ordered codes: for each root test it needs, per side, the best single split, which
 * is read off class-count histograms of every other feature over the rows of that side. Sweeping
 * the root feature's codes in order moves rows from right to left once, so one pass over the rows
 * per root feature (rows × features) fills every histogram, and each root test then costs one
 * scan over the occupied codes of every feature (tests × classes) — no pair of tests is counted
 * row by row. With integer weights and rows enough, the left side's histograms are instead sums
 * of slices of a pair table (`PairTables`: class weights per pair of codes, moved from the last
 * solve's rows by their difference, or taken as the parent's less the sibling's), so a solve
 * costs the rows it differs by rather than rows × features². Exact: every test of the node's
 * rows is tried at the root and at both children.
 */
export class Depth2Solver {
  private readonly groups: RowGroups;
  private readonly k: number;
  /**
   * Class weights by (groups.base[g] + code) · k + class: of all the node's rows, of the left side, of the
   * rows missing the root feature.
   */
  private total: Float64Array;
  private readonly ownTotal: Float64Array;
  private readonly left: Float64Array;
  private readonly missingRoot: Float64Array;
  private readonly tot: Float64Array;
  private readonly sideL: Float64Array;
  private readonly missC: Float64Array;
  private readonly vL: Float64Array;
  private readonly vR: Float64Array;
  /** The best split of each side of a root test. */
  private readonly children: ChildSplits;
  /**
   * Lower bounds on the best depth-1 tree of each side along an ordinal sweep, per direction of
   * the root feature's missing rows (0: right, 1: left); see `sweep`.
   */
  private readonly simL = new Float64Array(2);
  private readonly simR = new Float64Array(2);
  /** Cells of each histogram; whether every weight is an integer (then sums and differences are exact). */
  private readonly cells: number;
  private readonly integral: boolean;
  /** Whether costs are exact sums (integer weights, a penalty of a few binary digits): ties are real ties. */
  private readonly exact: boolean;
  /** No categorical feature wider than SUBSET_CAP (see `sweep`: the right side's bound needs it). */
  private readonly narrow: boolean;
  /** Weight below which two costs count as equal (rounding in sums of fractional weights). */
  private slack = 0;
  /** Root tests whose children were not scanned because the similarity bounds ruled them out. */
  skipped = 0;
  private best: Solution[] = [];
  private rootRows = 0;
  private leftRows = 0;
  /** Depth-2 sub-problems solved (a count for the benchmark). */
  solved = 0;
  /** Pair tables (made on the first depth-2 solve when `pairs`), and the one serving the current solve. */
  tables: PairTables | null = null;
  private table: PairTable | null = null;

  constructor(
    private readonly data: Binarised,
    /** Objective value added per leaf. */
    private readonly penalty: number,
    /** Date.now() after which a solve stops (StopSearch), checked after each root feature. */
    private readonly deadline?: number,
    /** Pair tables for depth-2 solves (they fit the memory bound) when cheaper, or 'always'; integer weights only. */
    private readonly pairs: boolean | 'always' = false,
  ) {
    this.groups = new RowGroups(data);
    this.k = data.k;
    const cells = this.groups.base[data.features.length] * data.k;
    this.cells = cells;
    this.integral = data.weights.every((w) => Number.isInteger(w));
    this.exact = this.integral && Number.isInteger(penalty * 2 ** 16);
    this.narrow = wideCategories(data).length === 0;
    this.ownTotal = new Float64Array(cells);
    this.total = this.ownTotal;
    this.left = new Float64Array(cells);
    this.missingRoot = new Float64Array(cells);
    const vec = () => new Float64Array(data.k);
    this.tot = vec();
    this.sideL = vec();
    this.missC = vec();
    this.vL = vec();
    this.vR = vec();
    this.children = new ChildSplits(data, this.groups, penalty);
  }

  /** The rows of the depth-3 node whose children are solved next (their pair tables may be its less a sibling's). */
  setParent(rows: Int32Array, count: number): void {
    if (!this.pairs || !this.integral) return;
    this.tables ??= new PairTables(this.data);
    this.tables.setParent(rows, count);
  }

  /** Bytes of the solver's arrays (its share of the memory bound). */
  static bytes(data: Binarised): number {
    let cells = 0;
    for (const f of data.features) cells += f.bins + 1;
    return cells * (3 * 8 * data.k + 9) + data.n * 4 + ChildSplits.bytes(data);
  }

  /**
   * The optimal trees of depth ≤ `depth` on `rows[0 .. count)`: element j is the best with at
   * most j + 1 leaves (j < 4 for depth 2, j < 2 for depth 1), ties going to fewer leaves.
   */
  solve(rows: Int32Array, count: number, depth: 1 | 2): Solution[] {
    this.solved++;
    const { k, tot } = this;
    this.table = null;
    this.total = this.ownTotal;
    const t = this.pairTable(rows, count, depth);
    if (t) {
      this.table = t;
      this.total = t.single;
      tot.set(t.classes);
      this.groups.fromCounts(t.rowsOf);
    } else {
      this.groups.scan(rows, count);
      tot.fill(0);
      this.addRows(this.total, rows, 0, count, tot);
    }
    const err = leafError(tot, 0, k);
    this.slack = 1e-9 * (err + this.penalty);
    const leaf = leafSolution(err + this.penalty);
    this.best = [leaf, leaf, leaf, leaf];
    if (err > 0) {
      this.rootRows = count;
      for (let f = 0; f < this.data.features.length; f++) {
        this.sweep(f, rows, count, depth);
        // No tree of two leaves or more costs less than two leaves' penalties.
        if (this.exact && this.best[1].cost <= 2 * this.penalty) break;
        if (this.deadline !== undefined && Date.now() > this.deadline) {
          if (!this.table) this.wipe(this.total, rows, 0, count);
          throw new StopSearch('time');
        }
      }
    }
    if (!this.table) this.wipe(this.total, rows, 0, count);
    const best = this.best.slice(0, depth === 1 ? 2 : 4);
    for (let j = 1; j < best.length; j++) if (!(best[j].cost < best[j - 1].cost)) best[j] = best[j - 1];
    return best;
  }

  /** A pair table for a depth-2 solve when cheaper than rows × features² (a slice costs the table's width). */
  private pairTable(rows: Int32Array, count: number, depth: 1 | 2): PairTable | null {
    if (depth !== 2 || !this.pairs || !this.integral) return null;
    const F = this.data.features.length;
    const slices = SLICE * pairLayout(this.data).sliceCells;
    const byRows = this.pairs === 'always' ? Infinity : count * F * F;
    if (slices >= byRows) return null;
    this.tables ??= new PairTables(this.data);
    return this.tables.moveTo(rows, count, byRows - slices);
  }

  /** Every root test on feature f, in code order. */
  private sweep(f: number, rows: Int32Array, count: number, depth: 1 | 2): void {
    const g = this.groups;
    const m = this.table ? g.len[f] : g.sortBy(f, rows, count);
    const { order, start } = g;
    const miss = g.missing[f] > 0;
    if (m + (miss ? 1 : 0) < 2) return;
    this.missC.fill(0);
    if (miss) this.addBucket(this.missingRoot, f, m, 1, this.missC);
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
      const one = !this.table && last === 1 && this.mirrorPays(start[1] - start[0], start[2] - start[1]);
      if (one) {
        this.mirror(order, start[1], start[2]);
        this.leftRows = start[1];
        this.evaluate({ feature: f, a: g.occ[o], b: m > 1 ? g.occ[o + 1] : -1 }, false, depth, false);
        this.left.fill(0);
      }
      for (let i = 0; i < (one ? 0 : last); i++) {
        const before = sumOf(this.sideL);
        this.addBucket(this.left, f, i, 1, this.sideL);
        const moved = sumOf(this.sideL) - before;
        // (Not with a categorical feature wider than SUBSET_CAP: the smaller right side may have
        // subset tests on it that the larger one, trying one category against the rest, lacked.)
        for (let dir = 0; dir < 2; dir++)
          this.simR[dir] = this.narrow ? Math.max(0, this.simR[dir] - moved - this.slack) : 0;
        const test = { feature: f, a: g.occ[o + i], b: i + 1 < m ? g.occ[o + i + 1] : -1 };
        this.evaluate(test, false, depth, true);
        if (miss) this.evaluate(test, true, depth, true);
      }
      if (this.table) this.left.fill(0);
      else if (!one) this.wipe(this.left, order, 0, start[Math.max(0, last)]);
    } else if (m <= SUBSET_CAP) this.sweepSubsets(f, m, miss, depth);
    else {
      for (let i = 0; i < m; i++) {
        this.sideL.fill(0);
        this.leftRows = 0;
        this.addBucket(this.left, f, i, 1, this.sideL);
        const test = { feature: f, a: g.occ[o + i], b: -1 };
        this.evaluate(test, false, depth, false);
        if (miss) this.evaluate(test, true, depth, false);
        this.clearBucket(this.left, f, i);
      }
    }
    if (miss) this.clearBucket(this.missingRoot, f, m);
  }

  /**
   * Add bucket i of root feature f (`sign` −1: take it out; integer weights) to histogram `hist`,
   * its class weights to `classes`, its rows to the left side's count (bucket `len[f]`: the rows
   * missing f). From the rows bucket-sorted by `sortBy`, or from the pair table's slice of its code.
   */
  private addBucket(hist: Float64Array, f: number, i: number, sign: number, classes: Float64Array): void {
    const t = this.table;
    const g = this.groups;
    if (!t) {
      const { order, start } = g;
      this.addRows(hist, order, start[i], start[i + 1], classes, sign);
      if (hist === this.left) this.leftRows += sign * (start[i + 1] - start[i]);
      return;
    }
    const code = i < g.len[f] ? g.occ[g.base[f] + i] : this.data.features[f].bins;
    t.addSlice(hist, f, code, sign);
    const x = (g.base[f] + code) * this.k;
    for (let c = 0; c < this.k; c++) classes[c] += sign * t.single[x + c];
    if (hist === this.left) this.leftRows += sign * t.rowsOf[g.base[f] + code];
  }

  /** Zero what bucket i of root feature f added to `hist` (exactly). */
  private clearBucket(hist: Float64Array, f: number, i: number): void {
    if (this.table) {
      const g = this.groups;
      const code = i < g.len[f] ? g.occ[g.base[f] + i] : this.data.features[f].bins;
      this.table.addSlice(hist, f, code, -1);
      return;
    }
    const { order, start } = this.groups;
    this.clearRows(hist, order, start[i], start[i + 1]);
  }

  /**
   * Every subset test on categorical feature f (m known codes at the node, at most SUBSET_CAP):
   * the subsets of buckets 0 .. m-2 (the last bucket's side is the complement) in Gray-code
   * order, so the left histogram gains or loses one bucket's rows per test. With one code, the
   * test is that code against the missing rows.
   */
  private sweepSubsets(f: number, m: number, miss: boolean, depth: 1 | 2): void {
    const g = this.groups;
    const count = m === 1 ? 1 : 2 ** (m - 1) - 1;
    let mask = 0;
    for (let s = 1; s <= count; s++) {
      const i = 31 - Math.clz32(s & -s);
      if ((mask >> i) & 1) this.dropBucket(f, mask, i);
      else this.addBucket(this.left, f, i, 1, this.sideL);
      mask ^= 1 << i;
      const test = { feature: f, a: -1, b: -1, left: maskCodes(mask, g.occ, g.base[f]) };
      this.evaluate(test, false, depth, false);
      if (miss) this.evaluate(test, true, depth, false);
    }
    for (let i = 0; i < m; i++) if ((mask >> i) & 1) this.clearBucket(this.left, f, i);
  }

  /** Take bucket i out of the left side (buckets `mask`): subtracted (integer weights), else rebuilt. */
  private dropBucket(f: number, mask: number, i: number): void {
    if (this.integral) {
      this.addBucket(this.left, f, i, -1, this.sideL);
      return;
    }
    const { order, start } = this.groups;
    this.leftRows -= start[i + 1] - start[i];
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
    // Trees of three and four leaves cost at least three and four leaves' penalties: when the best
    // so far (fewer leaves included, as `solve` ends) already cost no more, no child needs scanning.
    const two = Math.min(best[1].cost, best[2].cost);
    if (this.exact && two <= 3 * P && Math.min(two, best[3].cost) <= 4 * P) {
      this.skipped++;
      return;
    }
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
    const { bestL: l, bestR: r } = this.children;
    l.reset(errL + P);
    r.reset(errR + P);
    if (errL > 0 || errR > 0) this.children.scan(this.total, this.left, missingLeft ? this.missingRoot : null, L, R);
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

  /** Whether a two-bucket test's left side is cheaper as the total less its right side (integer weights: exact). */
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
