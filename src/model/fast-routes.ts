import type { AlignedColumn } from './align.js';

/** Rows routed together: their used numeric values are first copied into one block. */
export const BLOCK = 256;

/** The parts of a compiled tree the fast path reads (see `CompiledTree`). */
export type RoutableTree = Readonly<
  Record<'kind' | 'feature' | 'firstChild' | 'paramStart' | 'paramCount' | 'thresholds', ArrayLike<number>>
>;

const NUMERIC = 1;
/** Values kept free after the records for a block whose size depends on the features (2 MB). */
const BLOCK_ROOM = 2 ** 18;
/** The high word of a quiet NaN (a stop's threshold; its low word is free for a tag). */
const QUIET_NAN_HIGH = 0x7ff80000;
/** A fast node's `leafCode` while its tree is being laid out (a stop's is -1 or a class). */
const FAST = -2;

/** `slots` grown to hold index `f`, the new entries -1. */
function grown(slots: Int32Array, f: number): Int32Array {
  const out = new Int32Array(Math.max(2 * slots.length, f + 1)).fill(-1);
  out.set(slots);
  return out;
}

/** True for a node the fast walk takes: a numeric split with one threshold. */
export function isFastNode(tree: RoutableTree, v: number): boolean {
  return tree.kind[v] === NUMERIC && tree.paramCount[v] === 1;
}

/**
 * The hot path of prediction for binary numeric nodes, the common case.
 *
 * Nodes are renumbered in depth-first preorder so that a left child is the next record (the path
 * of a row mostly stays within a cache line or the next), and each record is 16 bytes:
 * threshold (float64), block column (int32) and right child (int32); a stop points to itself with
 * a NaN threshold, so a walk that reaches it stays there. A stop is a leaf or any node the fast
 * path does not handle (categorical, several thresholds); routing then continues in
 * `CompiledTree.route` from the original node (from the root for a row with a missing value).
 *
 * The branch rule is route.ts's `numericBranch` for one threshold, written inline: a row goes
 * left (branch 0) when `x <= t`, else right. For a value that is not NaN that is the same test
 * (`numericBranch` moves right while `x > t`); a row with a NaN among the used features never
 * takes this walk (its group is flagged and `walkOne` returns -1), as `numericBranch` gives it
 * `NO_BRANCH`. test/model/route.test.ts compares the two on edge values.
 *
 * Rows go through in blocks whose values of the features the tree uses are first copied into one
 * array, four rows interleaved (see `route`), so a walk reads small contiguous slices whatever
 * the column types. The block lives in the same Float64Array as the thresholds: V8 re-checks
 * every typed array a loop reads on each iteration, so one array fewer in the walk pays
 * (docs/performance.md, "Prediction").
 */
export class FastRoutes {
  /** Thresholds (at 2 × preorder id), then from `start` the block. */
  private readonly values: Float64Array;
  /** The same memory as int32: block column offset at 4 × id + 2, right child's record at 4 × id + 3. */
  private readonly rec: Int32Array;
  /** Where the block starts in `values`. */
  private readonly start: number;
  /** Preorder id → original node id. */
  readonly orig: Int32Array;
  /** Preorder id → the class a row that stops there gets, or -1 when that needs more work (see CompiledTree). */
  readonly leafCode: Int32Array;
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

  /**
   * The fast records of one tree, or of several (a forest: their records one tree after another,
   * one block of the features any of them uses). `codeOfLeaf(node, tree)` gives a stop's class
   * (a fast node's is -1 without asking). `block`: rows per block (a multiple of 4), or a function
   * of the number of features the fast nodes use that gives it.
   */
  constructor(
    trees: RoutableTree | readonly RoutableTree[],
    codeOfLeaf: (node: number, tree: number) => number,
    block: number | ((features: number) => number) = BLOCK,
  ) {
    const list: readonly RoutableTree[] = Array.isArray(trees) ? trees : [trees as RoutableTree];
    let m = 0;
    let largest = 0;
    for (const tree of list) {
      m += tree.kind.length;
      largest = Math.max(largest, tree.kind.length);
    }
    // Feature → its block column (-1: none yet), grown on demand, and the features in block order.
    let slotOf: Int32Array = new Int32Array(64).fill(-1);
    const usedFeatures: number[] = [];
    const orig = new Int32Array(m);
    const leafCode = new Int32Array(m);
    // The records, written here as they are found (a fast node's right child as its original id
    // until its tree is done), then the block: a forest's (a block size by features) fits in the
    // room left after them (`forestBlock`'s blocks hold at most 2^18 values), a tree's is copied
    // after them once its size is known.
    const room = typeof block === 'number' ? 0 : BLOCK_ROOM;
    const records = new Float64Array(2 * m + room);
    const rec = new Int32Array(records.buffer);
    this.roots = new Int32Array(list.length);
    // Each tree's original id → preorder id, and the walk's stack (at most one entry per node).
    const preorderOf = new Int32Array(largest);
    const stack = new Int32Array(largest + 1);
    let count = 0;
    for (let t = 0; t < list.length; t++) {
      const tree = list[t];
      const { kind, paramCount, feature, firstChild, paramStart, thresholds } = tree;
      this.roots[t] = 4 * count;
      const first = count;
      // Preorder over the fast nodes and the stops directly below them.
      let top = 0;
      if (kind.length > 0) stack[top++] = 0;
      while (top > 0) {
        const v = stack[--top];
        const id = count++;
        orig[id] = v;
        preorderOf[v] = id;
        if (kind[v] === NUMERIC && paramCount[v] === 1) {
          const f = feature[v];
          if (f >= slotOf.length) slotOf = grown(slotOf, f);
          if (slotOf[f] < 0) {
            slotOf[f] = usedFeatures.length;
            usedFeatures.push(f);
          }
          const c = firstChild[v];
          records[2 * id] = thresholds[paramStart[v]];
          rec[4 * id + 2] = 4 * slotOf[f];
          rec[4 * id + 3] = c + 1;
          leafCode[id] = FAST;
          stack[top++] = c + 1;
          stack[top++] = c;
        } else {
          // A stop loops on itself: block column 0 and a NaN threshold send every value right, to itself.
          records[2 * id] = Number.NaN;
          rec[4 * id + 3] = 4 * id;
          leafCode[id] = codeOfLeaf(v, t);
        }
      }
      for (let id = first; id < count; id++) {
        if (leafCode[id] !== FAST) continue;
        rec[4 * id + 3] = 4 * preorderOf[rec[4 * id + 3]];
        leafCode[id] = -1;
      }
    }
    this.block = typeof block === 'number' ? block : block(usedFeatures.length);
    this.missing = new Uint8Array(this.block / 4);
    this.orig = count === m ? orig : orig.slice(0, count);
    this.leafCode = count === m ? leafCode : leafCode.slice(0, count);
    // Records are indexed by 4 × preorder id (their int32 offset), what the walk keeps per row.
    this.start = 2 * count;
    const size = this.start + this.block * usedFeatures.length;
    if (size <= records.length) this.values = new Float64Array(records.buffer, 0, size);
    else {
      this.values = new Float64Array(size);
      this.values.set(records.subarray(0, this.start));
    }
    this.rec = new Int32Array(this.values.buffer);
    this.used = Int32Array.from(usedFeatures);
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
    return this.rec[4 * id + 3] === 4 * id;
  }

  /**
   * Give stop `id` (`isStop`) a tag (an int32 other than -1) for `walk` to report: it is kept in the unused
   * bits of the stop's NaN threshold, so the caller's next lookup is in the record the walk has
   * just read instead of in a table of its own. The threshold stays a NaN (quiet, the tag its low
   * word), so the walk still stops there. Untagged stops' tags are 0.
   */
  tagStop(id: number, tag: number): void {
    this.rec[4 * id] = tag;
    this.rec[4 * id + 1] = QUIET_NAN_HIGH;
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
