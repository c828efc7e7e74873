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
  let acc = start;
  for (let b = 0; b < branches; b++) {
    offsets[b] = acc;
    acc += sizes[b];
  }
  for (let i = start; i < end; i++) {
    const r = arr[i];
    scratch[offsets[branchOf[r]]++] = r;
  }
  arr.set(scratch.subarray(start, end), start);
}

/**
 * Stable k-way partition into a fresh array of `total` entries where entries with `branchOf` = -1
 * (a missing value under C4.5's fractional policy) go to every branch: as themselves in branch 0
 * and as their clones `firstClone[e] + b - 1` in branch b. Stability keeps sorted slices sorted.
 */
export function partitionWithClones(
  arr: Int32Array,
  start: number,
  end: number,
  branchOf: Int32Array,
  firstClone: Int32Array,
  sizes: Int32Array,
  branches: number,
  offsets: Int32Array,
  total: number,
): Int32Array {
  const out = new Int32Array(total);
  let acc = 0;
  for (let b = 0; b < branches; b++) {
    offsets[b] = acc;
    acc += sizes[b];
  }
  for (let i = start; i < end; i++) {
    const e = arr[i];
    const b = branchOf[e];
    if (b >= 0) out[offsets[b]++] = e;
    else {
      out[offsets[0]++] = e;
      for (let c = 1; c < branches; c++) out[offsets[c]++] = firstClone[e] + c - 1;
    }
  }
  return out;
}
