import type { IncrementalForm } from '../criteria/incremental.js';
import { orientedScore } from '../criteria/registry.js';
import type { CountTable, Criterion } from '../criteria/types.js';
import type { MissingPolicy } from '../options/options.js';
import { beats } from './candidate.js';
import type { EntryPool } from './entries.js';
import type { SortedSlice } from './sorted-slice.js';

/** A node as the scanners see it: positions [start, end) of its buffers, and its rows' class weights. */
export interface NodeRange {
  start: number;
  end: number;
  totals: Float64Array;
  /** The node's draw seed (src/learn/feature-draw.ts): random thresholds (`splitter: 'random'`) draw from it. */
  seed?: number;
}

/** A node's entries: in any order (`ids`), and sorted per numeric feature (null for a categorical one). */
export interface NodeBuffers {
  ids: Int32Array;
  sorted: readonly (SortedSlice | null)[];
}

function emptyTable(branches: number, classes: number): CountTable {
  return {
    branches,
    classes,
    counts: new Float64Array(Math.max(1, branches) * classes),
    branchTotals: new Float64Array(Math.max(1, branches)),
    classTotals: new Float64Array(classes),
    total: 0,
  };
}

/**
 * What every scanner needs, allocated once per fit: the training entries, the criterion that
 * ranks candidate splits within a feature (its direction resolved once), the missing-value
 * policy, and scratch count tables.
 */
export class ScanContext {
  /** +1 or -1: the scan criterion's orientation (owned by the registry), as a factor for the hot loop. */
  readonly sign: number;
  /** The scan table: the candidate split being scored. */
  readonly table: CountTable;
  /** Second scan table, for the `learned` policy (missing entries added to one branch). */
  readonly alt: CountTable;
  /** The node (its known-value rows) as a single branch. */
  readonly parent: CountTable;
  /** Scratch for a scan: class weights of the node's rows whose value is known. */
  readonly known: Float64Array;
  /**
   * Weight each branch of a split needs (`minWeightFractionLeaf` × the fit's total weight); 0: no
   * such rule. Set by the evaluator.
   */
  minWeightLeaf = 0;

  /** True when a two-branch split with these branch weights leaves a branch under `minWeightLeaf`. */
  tooLight(left: number, right: number): boolean {
    return this.minWeightLeaf > 0 && (left < this.minWeightLeaf || right < this.minWeightLeaf);
  }

  constructor(
    readonly pool: EntryPool,
    readonly classes: number,
    /** Ranks candidate splits of one feature (thresholdCriterion, else the criterion). */
    readonly scanCriterion: Criterion,
    readonly minLeaf: number,
    readonly missing: MissingPolicy,
    readonly maxBranches: number,
  ) {
    this.sign = orientedScore(scanCriterion, 1);
    this.inc = scanCriterion.incremental?.() ?? null;
    this.table = emptyTable(Math.max(2, maxBranches), classes);
    this.alt = emptyTable(2, classes);
    this.parent = emptyTable(1, classes);
    this.known = new Float64Array(classes);
    this.k = classes;
    this.local = Int32Array.from({ length: classes }, (_, c) => c);
    this.present = Int32Array.from({ length: classes }, (_, c) => c);
    this.nodeTotals = new Float64Array(classes);
  }

  /**
   * Number of classes the scans' tables hold: those present at the node (`enterNode`), numbered
   * densely in class order, or every class when no node was entered (histogram mode). Every
   * criterion gives the same value without the classes of zero weight, and keeping class order
   * adds the same numbers in the same order, so the scores are the same to the last bit.
   */
  k: number;
  /**
   * Class code → its column in the scans' tables; 0 for a class absent at the node (whose entries, if any,
   * weigh 0).
   */
  readonly local: Int32Array;
  /** Column → class code. */
  readonly present: Int32Array;
  /** The entered node's class weights, by column. */
  readonly nodeTotals: Float64Array;

  /**
   * Number the classes of weight > 0 in `totals` (a node's class weights) densely for the node's
   * scans: O(classes) once per node, so that each feature's scan costs O(classes present).
   */
  enterNode(totals: ArrayLike<number>): void {
    const { local, present, nodeTotals } = this;
    for (let i = 0; i < this.k; i++) local[present[i]] = 0;
    let k = 0;
    for (let c = 0; c < this.classes; c++) {
      const x = totals[c];
      if (x === 0) continue;
      local[c] = k;
      present[k] = c;
      nodeTotals[k++] = x;
    }
    this.k = k;
    this.table.classes = k;
    this.alt.classes = k;
    this.parent.classes = k;
  }

  /** Scan criterion value of `t`, oriented so that bigger is better. */
  score(t: CountTable): number {
    return this.sign * this.scanCriterion.evaluate(t);
  }

  /** Put class totals into `table` (classTotals, total) for a scan over those entries. */
  setTotals(totals: Float64Array): void {
    let total = 0;
    for (let c = 0; c < this.k; c++) {
      this.table.classTotals[c] = totals[c];
      total += totals[c];
    }
    this.table.total = total;
  }

  /**
   * Under `learned`, score the current 2-branch `table` with the unknown entries added to branch 0
   * and to branch 1; return the better oriented score and set `lastMissingBranch`.
   */
  scoreLearned(unknown: Float64Array, unknownWeight: number): number {
    const k = this.k;
    const t = this.table;
    const a = this.alt;
    a.branches = 2;
    a.total = t.total + unknownWeight;
    for (let c = 0; c < k; c++) a.classTotals[c] = t.classTotals[c] + unknown[c];
    let best = -Infinity;
    for (let side = 0; side < 2; side++) {
      for (let i = 0; i < 2 * k; i++) a.counts[i] = t.counts[i];
      for (let c = 0; c < k; c++) a.counts[side * k + c] += unknown[c];
      a.branchTotals[0] = t.branchTotals[0] + (side === 0 ? unknownWeight : 0);
      a.branchTotals[1] = t.branchTotals[1] + (side === 1 ? unknownWeight : 0);
      const s = this.score(a);
      if (beats(s, best)) {
        best = s;
        this.lastMissingBranch = side;
      }
    }
    return best;
  }

  lastMissingBranch = 0;

  /**
   * Start a two-branch scan over entries with class weights `known`: nothing on the left, all on
   * the right. Returns the incremental form to use, or null (none, or the `learned` policy, which
   * scores two tables per candidate).
   */
  startBinaryScan(known: ArrayLike<number>, learned: boolean): IncrementalForm | null {
    const k = this.k;
    const t = this.table;
    let total = 0;
    for (let c = 0; c < k; c++) {
      t.classTotals[c] = known[c];
      t.counts[c] = 0;
      t.counts[k + c] = known[c];
      total += known[c];
    }
    t.total = total;
    t.branches = 2;
    t.branchTotals[0] = 0;
    t.branchTotals[1] = total;
    const inc = learned ? null : this.inc;
    inc?.reset(known, k);
    return inc;
  }

  /**
   * Oriented score of the current two-branch table, whose branch weights are `left` and `right`;
   * or, when the form's optimistic bound cannot beat `best`, that bound (the caller then keeps its
   * best, as it would with the exact score).
   */
  scoreBinary(
    inc: IncrementalForm | null,
    left: number,
    right: number,
    unknown: Float64Array,
    unknownWeight: number,
    best: number,
  ): number {
    if (inc) {
      if (inc.optimistic !== undefined && best !== -Infinity) {
        const bound = this.sign * inc.optimistic(left, right);
        if (!beats(bound, best)) return bound;
      }
      return this.sign * inc.value(left, right);
    }
    this.table.branchTotals[0] = left;
    this.table.branchTotals[1] = right;
    return unknownWeight > 0 && this.missing === 'learned'
      ? this.scoreLearned(unknown, unknownWeight)
      : this.score(this.table);
  }
  /** The scan criterion's O(1)-per-move form, when it has one (two-branch scans use it). */
  readonly inc: IncrementalForm | null;
  /** Weka J48's rules (`j48Rules`): minimum objects by weight, C4.5's numeric minimum branch, 1e-5 value ties. */
  j48 = false;
  /** True while every entry weighs 1 (no sample weights, no fractional clones): scans skip weight loads. */
  unitWeights = false;
}
