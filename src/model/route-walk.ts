import type { AlignedColumn } from './align.js';

/**
 * What a fast walk reads (see `FastRoutes`): the records (thresholds at 2 × preorder id, the same
 * memory as int32 holding block columns and right children), then room for `slots` blocks of rows.
 * Its arrays may live in SharedArrayBuffers, so that a worker thread walks the same records
 * without a copy, with its own block (`RouteWalker`'s `slot`).
 */
/** The high word of a quiet NaN (a stop's threshold; its low word is free for a tag). */
const QUIET_NAN_HIGH = 0x7ff80000;

/** `RouteWalker.isStop` on records `rec` (their int32 view). */
export function isStopAt(rec: Int32Array, id: number): boolean {
  return rec[4 * id + 3] === 4 * id;
}

/** `RouteWalker.tagStop` on records `rec` (their int32 view). */
export function tagStopAt(rec: Int32Array, id: number, tag: number): void {
  rec[4 * id] = tag;
  rec[4 * id + 1] = QUIET_NAN_HIGH;
}

export interface RouteParts {
  /** Records, then the blocks: block `slot` starts at `records + slot × block × used.length`. */
  values: Float64Array;
  /** Where the blocks start in `values` (2 × the number of records). */
  records: number;
  /** Block column → model feature. */
  used: Int32Array;
  /** Record offset (4 × preorder id) of each tree's root. */
  roots: Int32Array;
  /** Rows per block (a multiple of 4). */
  block: number;
  /** Blocks `values` has room for. */
  slots: number;
}

/**
 * The fast walk over `RouteParts`' records, rows copied into block `slot` (see `FastRoutes`, which
 * lays the records out and walks them in slot 0).
 */
export class RouteWalker {
  /** Thresholds (at 2 × preorder id), then from `start` this walker's block. */
  protected readonly values: Float64Array;
  /** The same memory as int32: block column offset at 4 × id + 2, right child's record at 4 × id + 3. */
  protected readonly rec: Int32Array;
  /** Where this walker's block starts in `values`. */
  private readonly start: number;
  /** Block column → model feature. */
  private readonly used: Int32Array;
  /** Block column → its column in the current call (kept to spare an allocation per block). */
  private readonly cols: AlignedColumn[] = [];
  /** Per group of four rows of the block: 1 when one may have a missing value among the used features. */
  private readonly missing: Uint8Array;

  /** Record offset (4 × preorder id) of each tree's root: trees are laid out one after another. */
  readonly roots: Int32Array;

  /** Rows per block (a multiple of 4). */
  readonly block: number;

  constructor(
    readonly parts: RouteParts,
    slot = 0,
  ) {
    if (!(slot >= 0 && slot < parts.slots)) throw new Error(`RouteWalker: no block slot ${slot}`);
    this.values = parts.values;
    this.rec = new Int32Array(parts.values.buffer, parts.values.byteOffset, 2 * parts.values.length);
    this.used = parts.used;
    this.roots = parts.roots;
    this.block = parts.block;
    this.start = parts.records + slot * parts.block * parts.used.length;
    this.missing = new Uint8Array(this.block / 4);
  }

  /**
   * For rows base..base+count-1 (count <= block), the (preorder) id of the stop where the fast walk
   * ended: a leaf or a node it does not handle; -1 for a row with a missing value (to be routed
   * from the root). `orig` maps stops to node ids. One tree's records only (the first).
   */
  route(columns: AlignedColumn[], base: number, count: number, out: Int32Array): void {
    this.fill(columns, base, count);
    this.walk(0, count, out);
  }

  /** Copy rows base..base+count-1 (count <= block) into the block, for `walk` to route them through any tree. */
  fill(columns: AlignedColumn[], base: number, count: number): void {
    // One call each per block of rows: the loops inside stay whole.
    if (this.used.length > 0) this.fillBlock(columns, base, count);
  }

  /**
   * `route`'s stops for the block `fill` copied, through tree `tree` (its root at `roots[tree]`);
   * with `tagged`, each stop's tag (`tagStop`) instead of its id, -1 still for a missing value.
   */
  walk(tree: number, count: number, out: Int32Array, tagged = false): void {
    const root = this.roots[tree];
    if (this.used.length === 0)
      out.fill(tagged ? this.rec[root] : root >> 2, 0, count); // the root is a stop
    else this.walkGroups(count, out, root, tagged ? 0 : 2);
  }

  /** True when record `id` is a stop (it points to itself), not a fast node. */
  isStop(id: number): boolean {
    return isStopAt(this.rec, id);
  }

  /**
   * Give stop `id` (`isStop`) a tag (an int32 other than -1) for `walk` to report: it is kept in the unused
   * bits of the stop's NaN threshold, so the caller's next lookup is in the record the walk has
   * just read instead of in a table of its own. The threshold stays a NaN (quiet, the tag its low
   * word), so the walk still stops there. Untagged stops' tags are 0.
   */
  tagStop(id: number, tag: number): void {
    tagStopAt(this.rec, id, tag);
  }

  /** Copy the block's rows into `values`, interleaved by groups of four, and flag groups with a missing value. */
  private fillBlock(columns: AlignedColumn[], base: number, count: number): void {
    const s = this.used.length;
    const values = this.values;
    const start = this.start;
    const missing = this.missing;
    const cols = this.cols;
    for (let slot = 0; slot < s; slot++) cols[slot] = columns[this.used[slot]];
    // The block holds groups of four rows, interleaved: row 4g + l's value in block column k is at
    // start + 4 (g s + k) + l. A column is copied four values per iteration, which spares three
    // quarters of V8's per-iteration checks and keeps reading each column in order. A group is
    // flagged when the sum of four of its values is NaN: one of them is (or infinities cancel:
    // walkOne looks at each value).
    const groups = count >> 2;
    missing.fill(0);
    for (let slot = 0; slot < s; slot++) {
      const column = cols[slot];
      for (let g = 0, i = base, p = start + 4 * slot; g < groups; g++, i += 4, p += 4 * s) {
        const x0 = column[i];
        const x1 = column[i + 1];
        const x2 = column[i + 2];
        const x3 = column[i + 3];
        values[p] = x0;
        values[p + 1] = x1;
        values[p + 2] = x2;
        values[p + 3] = x3;
        const sum = x0 + x1 + x2 + x3;
        if (sum !== sum) missing[g] = 1;
      }
    }
    // The last count % 4 rows: a partial group, walked one at a time.
    const rest = 4 * groups;
    for (let slot = 0, p = start + rest * s; slot < s; slot++, p += 4) {
      for (let j = rest; j < count; j++) values[p + j - rest] = cols[slot][base + j];
    }
  }

  /** Walk the block's groups of four rows (`fillBlock`'s), the flagged ones and the last partial group row by row. */
  private walkGroups(count: number, out: Int32Array, root: number, shift: number): void {
    const s = this.used.length;
    const values = this.values;
    const rec = this.rec;
    const start = this.start;
    const missing = this.missing;
    const groups = count >> 2;
    const rest = 4 * groups;
    // A group's four rows are walked in lockstep without branches on the comparisons: their cache
    // misses overlap instead of queueing behind mispredicted branches. A walk is over when no row
    // moved. A row's state is its node's record offset q:
    // threshold values[q >> 1], block column offset rec[q + 2], right child rec[q + 3], left child
    // q + 4.
    for (let g = 0; g < groups; g++) {
      const o = start + 4 * g * s;
      if (missing[g] !== 0) {
        for (let l = 0; l < 4; l++) {
          const q = this.walkOne(o + l, root);
          out[4 * g + l] = q < 0 ? -1 : shift === 0 ? rec[q] : q >> 2;
        }
        continue;
      }
      let a = root;
      let b = root;
      let c = root;
      let d = root;
      for (;;) {
        // next = left when x <= t, else right: right + ((left - right) & -(x <= t)).
        // (The casts only quiet TypeScript: `(x <= t) | 0` is 1 or 0 in JavaScript, without a
        // branch; the other `| 0` spare V8 overflow checks.)
        const ra = rec[(a + 3) | 0];
        const rb = rec[(b + 3) | 0];
        const rc = rec[(c + 3) | 0];
        const rd = rec[(d + 3) | 0];
        const na =
          (ra + ((a + 4 - ra) & -(((values[(o + rec[(a + 2) | 0]) | 0] <= values[a >> 1]) as unknown as number) | 0))) |
          0;
        const nb =
          (rb +
            ((b + 4 - rb) & -(((values[(o + 1 + rec[(b + 2) | 0]) | 0] <= values[b >> 1]) as unknown as number) | 0))) |
          0;
        const nc =
          (rc +
            ((c + 4 - rc) & -(((values[(o + 2 + rec[(c + 2) | 0]) | 0] <= values[c >> 1]) as unknown as number) | 0))) |
          0;
        const nd =
          (rd +
            ((d + 4 - rd) & -(((values[(o + 3 + rec[(d + 2) | 0]) | 0] <= values[d >> 1]) as unknown as number) | 0))) |
          0;
        if (((na ^ a) | (nb ^ b) | (nc ^ c) | (nd ^ d)) === 0) break;
        a = na;
        b = nb;
        c = nc;
        d = nd;
      }
      // The stop's id (shift 2), or its tag in the threshold's low word (shift 0: rec[4 × id]).
      out[4 * g] = shift === 0 ? rec[a] : a >> 2;
      out[4 * g + 1] = shift === 0 ? rec[b] : b >> 2;
      out[4 * g + 2] = shift === 0 ? rec[c] : c >> 2;
      out[4 * g + 3] = shift === 0 ? rec[d] : d >> 2;
    }
    for (let j = rest; j < count; j++) {
      const q = this.walkOne(start + rest * s + j - rest, root);
      out[j] = q < 0 ? -1 : shift === 0 ? rec[q] : q >> 2;
    }
  }

  /** The row whose values are at o, o + 4, ... in `values`: its stop's record offset, or -1 if one is missing. */
  private walkOne(o: number, root: number): number {
    const values = this.values;
    const rec = this.rec;
    for (let slot = 0, s = this.used.length; slot < s; slot++) {
      const x = values[o + 4 * slot];
      if (x !== x) return -1;
    }
    let q = root;
    for (;;) {
      const next = values[o + rec[q + 2]] <= values[q >> 1] ? q + 4 : rec[q + 3];
      if (next === q) return q;
      q = next;
    }
  }
}
