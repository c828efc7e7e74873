import type { CodeSortedRows } from '../split/code-sorted.js';
import { ENTRY, type LabelCodes, NEW_VALUE, type SortedSlice } from '../split/sorted-slice.js';

/** How a split divides a node: `sizes[b]` entries go to branch b, for b < `count`. */
export interface BranchSizes {
  count: number;
  sizes: Int32Array;
}

/**
 * What every partition of one grower reads and writes, made once per grower: each entry's branch
 * at the node being split (`branchOf`, written by the branch assignment, disjoint between
 * subtrees), and scratch as long as the largest slice partitioned.
 */
export class PartitionScratch {
  /** Next write position per branch. */
  readonly offsets: Int32Array;
  /** Per branch: the count of value changes seen when it last took an entry (k-way sorted partitions). */
  readonly marks: Int32Array;
  /** C4.5's fractional policy: the first clone of each entry with a missing value (`partitionWithClones`). */
  firstClone: Int32Array = new Int32Array(0);

  constructor(
    /** Branch of each entry at the node being split (-1: every branch, under the fractional policy). */
    public branchOf: Int32Array,
    /** Scratch entry ids. */
    public ids: Int32Array,
    /** Scratch labels, as long as `ids` (sorted slices only; may be empty otherwise). */
    public labs: LabelCodes,
    maxBranches: number,
  ) {
    this.offsets = new Int32Array(maxBranches);
    this.marks = new Int32Array(maxBranches);
  }
}

/** `offsets[b]` = where branch b starts: `from` plus the sizes of the branches before it. */
function branchStarts(offsets: Int32Array, { sizes, count }: BranchSizes, from: number): void {
  let acc = from;
  for (let b = 0; b < count; b++) {
    offsets[b] = acc;
    acc += sizes[b];
  }
}

/**
 * Stable k-way partition of `arr[start..end)` by `w.branchOf[arr[i]]`, through `w.ids`.
 * Stability keeps each numeric feature's slice sorted, so children never re-sort.
 */
export function partitionStable(
  arr: Int32Array,
  start: number,
  end: number,
  br: BranchSizes,
  w: PartitionScratch,
): void {
  const { offsets, branchOf, ids: scratch } = w;
  branchStarts(offsets, br, start);
  if (br.count === 2) {
    // As in partitionSorted: write positions in registers.
    let left = offsets[0];
    let right = offsets[1];
    for (let i = start; i < end; i++) {
      const r = arr[i];
      const b = branchOf[r];
      scratch[b === 0 ? left : right] = r;
      left += 1 - b;
      right += b;
    }
  } else {
    for (let i = start; i < end; i++) {
      const r = arr[i];
      scratch[offsets[branchOf[r]]++] = r;
    }
  }
  arr.set(scratch.subarray(start, end), start);
}

/**
 * `partitionStable` with each row's branch from its code of one feature: `table[codes[r · d + f]]`
 * (the histogram growers' row-major code matrix and a code → branch table), so no branch
 * assignment pass is needed before it.
 */
export function partitionByTable(
  arr: Int32Array,
  start: number,
  end: number,
  br: BranchSizes,
  w: PartitionScratch,
  codes: Uint8Array | Uint16Array | Uint32Array,
  d: number,
  f: number,
  table: Int32Array,
): void {
  const { offsets, ids: scratch } = w;
  branchStarts(offsets, br, start);
  for (let i = start; i < end; i++) {
    const r = arr[i];
    scratch[offsets[table[codes[r * d + f]]]++] = r;
  }
  arr.set(scratch.subarray(start, end), start);
}

/**
 * `partitionStable` for the rows of a small histogram-mode node sorted by bin code
 * (src/split/histogram.ts): `sorted.rows[at..at+m)` and their codes move together, each branch
 * keeping the order, through the object's scratch.
 */
export function partitionByCode(
  sorted: CodeSortedRows,
  at: number,
  m: number,
  br: BranchSizes,
  w: PartitionScratch,
): void {
  const { rows, codes, scratchRows, scratchCodes } = sorted;
  const { offsets, branchOf } = w;
  branchStarts(offsets, br, 0);
  for (let i = at, end = at + m; i < end; i++) {
    const r = rows[i];
    const o = offsets[branchOf[r]]++;
    scratchRows[o] = r;
    scratchCodes[o] = codes[i];
  }
  rows.set(scratchRows.subarray(0, m), at);
  codes.set(scratchCodes.subarray(0, m), at);
}

/**
 * `partitionStable` for a sorted slice (src/split/sorted-slice.ts): ids and labels move together,
 * and the `NEW_VALUE` marks stay true: an entry is marked in its branch when any entry from just
 * after the branch's previous one up to itself was marked in the parent slice (some value changed
 * in between).
 */
export function partitionSorted(
  slice: SortedSlice,
  start: number,
  end: number,
  br: BranchSizes,
  w: PartitionScratch,
): void {
  const { order, labs } = slice;
  const { offsets, branchOf, marks, ids: scratch, labs: scratchL } = w;
  branchStarts(offsets, br, start);
  if (br.count === 2) {
    // Binary splits, the common case: both write positions and both pending marks stay in
    // registers, picked without a branch; `offsets[b]++` would chain every step through memory
    // (docs/performance.md, "What was done for speed").
    let left = offsets[0];
    let right = offsets[1];
    let markL = 0;
    let markR = 0;
    for (let i = start; i < end; i++) {
      const x = order[i];
      const e = x & ENTRY;
      const b = branchOf[e];
      const m = x & NEW_VALUE;
      markL |= m;
      markR |= m;
      const d = b === 0 ? left : right;
      scratch[d] = e | (b === 0 ? markL : markR);
      scratchL[d] = labs[i];
      left += 1 - b;
      right += b;
      markL &= -b; // cleared when written left (b = 0), kept otherwise
      markR &= b - 1;
    }
  } else {
    // A count of marks seen so far; a branch's next entry is marked when the count moved since its last one.
    let seen = 0;
    marks.fill(-1, 0, br.count);
    for (let i = start; i < end; i++) {
      const x = order[i];
      if (x < 0) seen++;
      const e = x & ENTRY;
      const b = branchOf[e];
      const d = offsets[b]++;
      scratch[d] = marks[b] === seen ? e : e | NEW_VALUE;
      scratchL[d] = labs[i];
      marks[b] = seen;
    }
  }
  order.set(scratch.subarray(start, end), start);
  labs.set(scratchL.subarray(start, end), start);
}

/**
 * Stable k-way partition into fresh arrays (as long as the branch sizes add up to) where entries
 * with `branchOf` = -1 (a missing value under C4.5's fractional policy) go to every branch: as
 * themselves in branch 0 and as their clones `w.firstClone[e] + b - 1` in branch b. With `labs`,
 * `arr` is a sorted slice: its labels move along (a clone has its original's label and value) and
 * its `NEW_VALUE` marks are kept true as in `partitionSorted`; without, `arr` is plain ids (and
 * `labs` comes back empty).
 */
export function partitionWithClones(
  arr: Int32Array,
  labs: LabelCodes | null,
  start: number,
  end: number,
  br: BranchSizes,
  w: PartitionScratch,
): SortedSlice {
  const { offsets, branchOf, firstClone } = w;
  const branches = br.count;
  let total = 0;
  for (let b = 0; b < branches; b++) total += br.sizes[b];
  const order = new Int32Array(total);
  const outLabs = labs instanceof Uint16Array ? new Uint16Array(total) : new Uint8Array(labs ? total : 0);
  const marks = new Int32Array(branches).fill(-1);
  let seen = 0;
  branchStarts(offsets, br, 0);
  for (let i = start; i < end; i++) {
    const x = arr[i];
    if (labs && x < 0) seen++;
    const e = x & ENTRY;
    const b = branchOf[e];
    for (let c = b >= 0 ? b : 0; c < (b >= 0 ? b + 1 : branches); c++) {
      const id = b >= 0 || c === 0 ? e : firstClone[e] + c - 1;
      const d = offsets[c]++;
      order[d] = labs && marks[c] !== seen ? id | NEW_VALUE : id;
      if (labs) outLabs[d] = labs[i];
      marks[c] = seen;
    }
  }
  return { order, labs: outLabs };
}
