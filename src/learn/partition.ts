import { ENTRY, type LabelCodes, NEW_VALUE, type SortedSlice } from '../split/sorted-slice.js';

/** `offsets[b]` = where branch b starts: `from` plus the sizes of the branches before it. */
function branchStarts(offsets: Int32Array, sizes: Int32Array, branches: number, from: number): void {
  let acc = from;
  for (let b = 0; b < branches; b++) {
    offsets[b] = acc;
    acc += sizes[b];
  }
}

/**
 * Stable k-way partition of `arr[start..end)` by `branchOf[arr[i]]`, through `scratch`.
 * `sizes[b]` must hold the number of entries going to branch b. Stability keeps each numeric
 * feature's slice sorted, so children never re-sort.
 */
export function partitionStable(
  arr: Int32Array,
  start: number,
  end: number,
  branchOf: Int32Array,
  sizes: Int32Array,
  branches: number,
  offsets: Int32Array,
  scratch: Int32Array,
): void {
  branchStarts(offsets, sizes, branches, start);
  if (branches === 2) {
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
 * `partitionStable` for the rows of a small histogram-mode node sorted by bin code
 * (src/split/histogram.ts, `sortByCode`): `rows[at..at+m)` and their `codes` move together, each
 * branch keeping the order. `scratchR` and `scratchC` hold at least m entries.
 */
export function partitionByCode(
  rows: Int32Array,
  codes: Uint16Array,
  at: number,
  m: number,
  branchOf: Int32Array,
  sizes: Int32Array,
  branches: number,
  offsets: Int32Array,
  scratchR: Int32Array,
  scratchC: Uint16Array,
): void {
  branchStarts(offsets, sizes, branches, 0);
  for (let i = at, end = at + m; i < end; i++) {
    const r = rows[i];
    const o = offsets[branchOf[r]]++;
    scratchR[o] = r;
    scratchC[o] = codes[i];
  }
  rows.set(scratchR.subarray(0, m), at);
  codes.set(scratchC.subarray(0, m), at);
}

/**
 * `partitionStable` for a sorted slice (src/split/sorted-slice.ts): ids and labels move together,
 * and the `NEW_VALUE` marks stay true: an entry is marked in its branch when any entry from just
 * after the branch's previous one up to itself was marked in the parent slice (some value changed
 * in between). `marks` is scratch (branches); `scratchL` holds labels as `scratch` holds ids.
 */
export function partitionSorted(
  slice: SortedSlice,
  start: number,
  end: number,
  branchOf: Int32Array,
  sizes: Int32Array,
  branches: number,
  offsets: Int32Array,
  marks: Int32Array,
  scratch: Int32Array,
  scratchL: LabelCodes,
): void {
  const { order, labs } = slice;
  branchStarts(offsets, sizes, branches, start);
  if (branches === 2) {
    // Binary splits, the common case: both write positions and both pending marks stay in
    // registers, picked without a branch; `offsets[b]++` chains every step through memory (2.1 ×
    // slower per entry on 1M entries split at random, 14.7 vs 6.9 ns).
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
    marks.fill(-1, 0, branches);
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
 * Stable k-way partition into fresh arrays of `total` entries where entries with `branchOf` = -1
 * (a missing value under C4.5's fractional policy) go to every branch: as themselves in branch 0
 * and as their clones `firstClone[e] + b - 1` in branch b. With `labs`, `arr` is a sorted slice:
 * its labels move along (a clone has its original's label and value) and its `NEW_VALUE` marks are
 * kept true as in `partitionSorted`; without, `arr` is plain ids (and `labs` comes back empty).
 */
export function partitionWithClones(
  arr: Int32Array,
  labs: LabelCodes | null,
  start: number,
  end: number,
  branchOf: Int32Array,
  firstClone: Int32Array,
  sizes: Int32Array,
  branches: number,
  offsets: Int32Array,
  total: number,
): SortedSlice {
  const order = new Int32Array(total);
  const outLabs = labs instanceof Uint16Array ? new Uint16Array(total) : new Uint8Array(labs ? total : 0);
  const marks = new Int32Array(branches).fill(-1);
  let seen = 0;
  branchStarts(offsets, sizes, branches, 0);
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
