import type { Binarised } from './binarise.js';
import { RowGroups } from './row-groups.js';
import { Reference } from './similarity.js';

/** Buffers of one level of the search (sub-problems of one depth left, 3 or more). */
export interface Level {
  readonly groups: RowGroups;
  readonly left: Int32Array;
  readonly right: Int32Array;
  /** Per bucket of the feature being swept: the two hash sums of its rows. */
  readonly h1: Uint32Array;
  readonly h2: Uint32Array;
  /** Per bucket: the weight of its rows. */
  readonly w: Float64Array;
  readonly sim: SweepBounds;
  /** The node's reference sub-problem for similarity bounds on its children. */
  readonly ref: Reference;
}

/** Lower bounds carried along a sweep, per direction of the missing rows (0: right, 1: left). */
export interface SweepBounds {
  left: Float64Array;
  right: Float64Array;
}

/** A level's buffers for the search over `data`. */
export function newLevel(data: Binarised): Level {
  const groups = new RowGroups(data);
  const n = data.n;
  const buckets = groups.start.length;
  return {
    groups,
    left: new Int32Array(n),
    right: new Int32Array(n),
    h1: new Uint32Array(buckets),
    h2: new Uint32Array(buckets),
    w: new Float64Array(buckets),
    sim: { left: new Float64Array(2), right: new Float64Array(2) },
    ref: new Reference(data, buckets),
  };
}

/** Sums of each bucket's row hashes (buckets of the feature `sortBy` last sorted on). */
export function bucketHashes(level: Level, m: number, z1: Uint32Array, z2: Uint32Array, weights: Float64Array): void {
  const { order, start } = level.groups;
  for (let b = 0; b <= m; b++) {
    let a1 = 0;
    let a2 = 0;
    let w = 0;
    for (let i = start[b]; i < start[b + 1]; i++) {
      a1 = (a1 + z1[order[i]]) >>> 0;
      a2 = (a2 + z2[order[i]]) >>> 0;
      w += weights[order[i]];
    }
    level.h1[b] = a1;
    level.h2[b] = a2;
    level.w[b] = w;
  }
}

/**
 * The rows of buckets [from, to), or with `mask` ≥ 0 of the buckets set in it, (plus the missing
 * bucket m when `missingLeft`) into `left`, the others into `right`.
 */
export function copySides(
  order: Int32Array,
  start: Int32Array,
  from: number,
  to: number,
  mask: number,
  m: number,
  missingLeft: boolean,
  left: Int32Array,
  right: Int32Array,
): void {
  let nl = 0;
  let nr = 0;
  for (let b = 0; b <= m; b++) {
    const known = mask >= 0 ? b < m && ((mask >> b) & 1) === 1 : b >= from && b < to;
    const toLeft = known || (b === m && missingLeft);
    const out = toLeft ? left : right;
    let n = toLeft ? nl : nr;
    for (let i = start[b]; i < start[b + 1]; i++) out[n++] = order[i];
    if (toLeft) nl = n;
    else nr = n;
  }
}
