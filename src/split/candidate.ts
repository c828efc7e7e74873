import type { Split } from '../model/split.js';

export type { Split };

/** Relative tolerance under which two scores count as tied (the first feature, lowest threshold wins). */
export const TIE_TOLERANCE = 1e-12;

/** Weka's `Utils.SMALL`: J48 compares weights and scores with this absolute tolerance. */
export const J48_SMALL = 1e-6;

/** True when `score` beats `best` by more than the tie tolerance. */
export function beats(score: number, best: number): boolean {
  if (best === -Infinity) return score > -Infinity;
  return score > best + TIE_TOLERANCE * Math.max(1, Math.abs(best));
}

/**
 * The best split found for one feature, reused across features and nodes so that scans do not
 * allocate per candidate. A scanner fills the search fields (`oriented` is the scan criterion's
 * value with its direction applied) and copies the count table of its best split into `table`;
 * `finalizeCandidate` then fills the comparison fields.
 */
export class Candidate {
  // ---- search ----
  found = false;
  feature = -1;
  kind: Split['kind'] = 'numeric';
  oriented = -Infinity;
  threshold = NaN;
  /** Histogram mode: the last bin of the left branch. */
  splitBin = -1;
  /** Category codes: the branches of a multiway split, or the set V of a subset split. */
  values: number[] = [];
  /** Subset split: the codes seen at the node that are not in V. */
  others: number[] = [];
  /** Number of candidate splits scored (thresholds, for the MDL correction). */
  tried = 0;
  /** Count table of the best split, branch-major, `branches × k`. */
  branches = 0;
  /** Columns of `table` and entries of `unknown`: the classes the scan numbered (ScanContext.k). */
  k: number;
  readonly table: Float64Array;
  /**
   * Class weights of the entries whose value is missing (not in `table` unless `missingBranch` ≥ 0 under
   * `learned`).
   */
  readonly unknown: Float64Array;
  unknownWeight = 0;
  /** Branch that takes missing values (`learned`: chosen by the scan; -1 = not decided here). */
  missingBranch = -1;
  /** True when `table` already includes the missing entries (the `learned` policy). */
  unknownInTable = false;
  // ---- comparison (finalizeCandidate) ----
  /** The main criterion's raw value, as its paper defines it. */
  raw = NaN;
  /** Improvement over the parent, scaled by the known share where the policy says so: the comparison key. */
  key = -Infinity;
  /** Information gain of the split (scaled and MDL-corrected as the key), for C4.5's average-gain rule. */
  gain = NaN;
  /** J48: the feature counts toward the average gain (not a categorical one with very many values). */
  inAverage = true;

  constructor(maxBranches: number, classes: number) {
    this.table = new Float64Array(Math.max(2, maxBranches) * classes);
    this.unknown = new Float64Array(classes);
    this.k = classes;
  }

  /** Start a scan of `feature` whose tables have `k` class columns (all classes by default). */
  reset(feature: number, kind: Split['kind'], k = this.unknown.length): void {
    this.k = k;
    this.found = false;
    this.feature = feature;
    this.kind = kind;
    this.oriented = -Infinity;
    this.threshold = NaN;
    this.splitBin = -1;
    // Reused: toSplit() and copyFrom() copy. Numeric scans leave them empty, and setting an
    // array's length is a call into the runtime.
    if (this.values.length > 0) this.values.length = 0;
    if (this.others.length > 0) this.others.length = 0;
    this.tried = 0;
    this.branches = 0;
    this.unknown.fill(0, 0, k);
    this.unknownWeight = 0;
    this.missingBranch = -1;
    this.unknownInTable = false;
    this.raw = NaN;
    this.key = -Infinity;
    this.gain = NaN;
  }

  copyFrom(o: Candidate): void {
    this.found = o.found;
    this.feature = o.feature;
    this.kind = o.kind;
    this.oriented = o.oriented;
    this.threshold = o.threshold;
    this.splitBin = o.splitBin;
    this.values = o.values.slice();
    this.others = o.others.slice();
    this.tried = o.tried;
    this.branches = o.branches;
    this.k = o.k;
    this.table.set(o.table.subarray(0, o.branches * o.k));
    this.unknown.set(o.unknown.subarray(0, o.k));
    this.unknownWeight = o.unknownWeight;
    this.missingBranch = o.missingBranch;
    this.unknownInTable = o.unknownInTable;
    this.raw = o.raw;
    this.key = o.key;
    this.gain = o.gain;
    this.inAverage = o.inAverage;
  }

  /**
   * Keep a two-branch candidate as the best so far: its oriented score, threshold (and bin in
   * histogram mode), the learned direction, and a copy of the count table `counts` (2 × classes).
   */
  keepBinary(score: number, threshold: number, missingBranch: number, counts: Float64Array, splitBin = -1): void {
    this.found = true;
    this.oriented = score;
    this.threshold = threshold;
    this.splitBin = splitBin;
    this.missingBranch = missingBranch;
    const n = 2 * this.k;
    for (let i = 0; i < n; i++) this.table[i] = counts[i];
  }

  /** Close a two-branch scan: under the `learned` policy fold the unknown entries into their branch. */
  finishBinary(learned: boolean): void {
    this.branches = 2;
    if (!this.found || !learned) return;
    const k = this.k;
    for (let c = 0; c < k; c++) this.table[this.missingBranch * k + c] += this.unknown[c];
    this.unknownInTable = true;
  }

  /** Weight of branch b in the best table. */
  branchWeight(b: number): number {
    const k = this.k;
    let s = 0;
    for (let c = 0; c < k; c++) s += this.table[b * k + c];
    return s;
  }

  toSplit(): Split {
    switch (this.kind) {
      case 'numeric':
        return { kind: 'numeric', feature: this.feature, thresholds: [this.threshold] };
      case 'multiway':
        return { kind: 'multiway', feature: this.feature, values: this.values.slice() };
      case 'subset': {
        const a = this.values.slice().sort((x, y) => x - y);
        const b = this.others.slice().sort((x, y) => x - y);
        const aFirst = a.length < b.length || (a.length === b.length && a[0] < b[0]);
        return { kind: 'subset', feature: this.feature, left: aFirst ? a : b, right: aFirst ? b : a };
      }
    }
  }

  /** Whether toSplit() swapped V and its complement (so branch 0 of the table is branch 1 of the split). */
  subsetSwapped(): boolean {
    if (this.kind !== 'subset') return false;
    const a = smallest(this.values);
    const b = smallest(this.others);
    return !(this.values.length < this.others.length || (this.values.length === this.others.length && a < b));
  }
}

/** The smallest of `values` (Infinity when empty); a loop, since V can hold every code of an ID column. */
function smallest(values: readonly number[]): number {
  let min = Infinity;
  for (const v of values) if (v < min) min = v;
  return min;
}
