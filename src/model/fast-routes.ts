import { type RouteParts, RouteWalker } from './route-walk.js';

/** Rows routed together: their used numeric values are first copied into one block. */
export const BLOCK = 256;

/** The parts of a compiled tree the fast path reads (see `CompiledTree`). */
export type RoutableTree = Readonly<
  Record<'kind' | 'feature' | 'firstChild' | 'paramStart' | 'paramCount' | 'thresholds', ArrayLike<number>>
>;

const NUMERIC = 1;
/** Values kept free after the records for a block whose size depends on the features (4 MB: `forestBlock`). */
const BLOCK_ROOM = 2 ** 19;
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
export class FastRoutes extends RouteWalker {
  /** Preorder id → original node id. */
  readonly orig: Int32Array;
  /** Preorder id → the class a row that stops there gets, or -1 when that needs more work (see CompiledTree). */
  readonly leafCode: Int32Array;

  /**
   * The fast records of one tree, or of several (a forest: their records one tree after another,
   * one block of the features any of them uses). `codeOfLeaf(node, tree)` gives a stop's class
   * (a fast node's is -1 without asking). `block`: rows per block (a multiple of 4), or a function
   * of the number of features the fast nodes use that gives it. `slots` > 1: room for that many
   * blocks, the records in a SharedArrayBuffer, for worker threads' walkers
   * (`RouteWalker` over `parts`, each its own slot).
   */
  static of(
    trees: RoutableTree | readonly RoutableTree[],
    codeOfLeaf: (node: number, tree: number) => number,
    block: number | ((features: number) => number) = BLOCK,
    slots = 1,
  ): FastRoutes {
    const list: readonly RoutableTree[] = Array.isArray(trees) ? trees : [trees as RoutableTree];
    let m = 0;
    let largest = 0;
    for (const tree of list) {
      m += tree.kind.length;
      largest = Math.max(largest, tree.kind.length);
    }
    const writer = new RecordWriter(m, largest, list.length, block, slots);
    for (let t = 0; t < list.length; t++) writer.add(list[t], list[t].kind.length, (v) => codeOfLeaf(v, t));
    return writer.finish();
  }

  /** Records laid out by a `RecordWriter`. */
  constructor(laid: LaidOut) {
    super(laid.parts, 0);
    this.orig = laid.orig;
    this.leafCode = laid.leafCode;
  }
}

/** What `RecordWriter.finish` gives: the walker's parts, and per record its node and stop class. */
export interface LaidOut {
  parts: RouteParts;
  orig: Int32Array;
  leafCode: Int32Array;
}

/**
 * Lays out `FastRoutes`' records tree by tree (`add`, trees in order), so a caller may hand it each
 * tree's arrays in turn (a forest file's trees go through one set of scratch arrays).
 */
export class RecordWriter {
  // Feature → its block column (-1: none yet), grown on demand, and the features in block order.
  private slotOf: Int32Array = new Int32Array(64).fill(-1);
  private readonly usedFeatures: number[] = [];
  readonly orig: Int32Array;
  readonly leafCode: Int32Array;
  /** The records as float64 (thresholds at 2 × id) and, the same memory, as int32. */
  readonly records: Float64Array;
  readonly rec: Int32Array;
  private readonly roots: Int32Array;
  // Each tree's original id → preorder id, and the walk's stack (at most one entry per node).
  private readonly preorderOf: Int32Array;
  private readonly stack: Int32Array;
  /** Records written so far. */
  count = 0;
  private tree = 0;

  /**
   * Room for `m` records over `trees` trees of at most `largest` nodes each; `block` and `slots` as
   * `FastRoutes.of` takes them.
   */
  constructor(
    m: number,
    largest: number,
    trees: number,
    private readonly block: number | ((features: number) => number),
    private readonly slots: number,
  ) {
    this.orig = new Int32Array(m);
    this.leafCode = new Int32Array(m);
    // The records, written here as they are found (a fast node's right child as its original id
    // until its tree is done), then the block: a forest's (a block size by features) fits in the
    // room left after them (`forestBlock`'s blocks hold at most 2^19 values), a tree's is copied
    // after them once its size is known.
    // With several slots the memory is shared, for worker threads' walkers.
    const room = typeof block === 'number' ? 0 : slots * BLOCK_ROOM;
    const bytes = 8 * (2 * m + room);
    this.records = new Float64Array(slots > 1 ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
    this.rec = new Int32Array(this.records.buffer);
    this.roots = new Int32Array(trees);
    this.preorderOf = new Int32Array(largest);
    this.stack = new Int32Array(largest + 1);
  }

  /**
   * The next tree's records: its first `m` nodes of `tree`, in preorder over the fast nodes and the
   * stops directly below them; `codeOfLeaf(node)` gives a stop's class. Returns the tree's first
   * record id (its records end at `count`).
   */
  add(tree: RoutableTree, m: number, codeOfLeaf: (node: number) => number): number {
    const { kind, paramCount, feature, firstChild, paramStart, thresholds } = tree;
    const { orig, leafCode, records, rec, preorderOf, stack, usedFeatures } = this;
    let slotOf = this.slotOf;
    let count = this.count;
    this.roots[this.tree++] = 4 * count;
    const first = count;
    let top = 0;
    if (m > 0) stack[top++] = 0;
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
        leafCode[id] = codeOfLeaf(v);
      }
    }
    for (let id = first; id < count; id++) {
      if (leafCode[id] !== FAST) continue;
      rec[4 * id + 3] = 4 * preorderOf[rec[4 * id + 3]];
      leafCode[id] = -1;
    }
    this.slotOf = slotOf;
    this.count = count;
    return first;
  }

  /** The records with room for the blocks after them, once every tree is added. */
  finish(): FastRoutes {
    const { count, records, slots, usedFeatures, orig, leafCode } = this;
    const m = orig.length;
    const block = this.block;
    const size = typeof block === 'number' ? block : block(usedFeatures.length);
    // Records are indexed by 4 × preorder id (their int32 offset), what the walk keeps per row.
    const end = 2 * count + slots * size * usedFeatures.length;
    let values: Float64Array;
    if (end <= records.length) values = new Float64Array(records.buffer, 0, end);
    else {
      values = new Float64Array(slots > 1 ? new SharedArrayBuffer(8 * end) : new ArrayBuffer(8 * end));
      values.set(records.subarray(0, 2 * count));
    }
    return new FastRoutes({
      parts: { values, records: 2 * count, used: Int32Array.from(usedFeatures), roots: this.roots, block: size, slots },
      orig: count === m ? orig : orig.slice(0, count),
      leafCode: count === m ? leafCode : leafCode.slice(0, count),
    });
  }
}
