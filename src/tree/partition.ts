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
