import type { Binarised } from './binarise.js';
import { type KeptSlots, keptSlots, type PairLayout, pairLayout } from './pair-layout.js';

/** Most cells of one pair table (its offsets are 32-bit). */
const MAX_CELLS = 2 ** 28;
/**
 * Costs relative to adding one row to one cell (a scattered add): zeroing a cell, a cell of a
 * table's difference and of a slice read (sequential passes).
 */
const CLEAR = 0.25;
const DIFFERENCE = 0.5;
export const SLICE = 0.5;
/** Children of a parent that share the cost of holding its table (a sweep has many). */
const AMORTISE = 8;

/**
 * Class weights of every pair of kept feature codes over one row set (MurTree's pairwise counts,
 * Demirović et al. 2022, section 4.4, over codes rather than single tests, sparse as in
 * `PairLayout`): the depth-2 solver reads the left side of any root test on feature f as a sum
 * of f's code slices instead of adding the side's rows over every feature. Kept up to date
 * incrementally (MurTree section 4.6): moving the table to a new row set adds and removes only
 * the rows the two sets do not share, so a sweep's neighbouring sub-problems cost their
 * difference, not their rows.
 *
 * The table keeps each pair of kept codes once, (s, t) with s's feature ≤ t's: slot s's row of
 * cells holds every slot t from its feature's first. Integer weights only: sums and differences
 * of integers are exact, so a table moved by additions and removals holds exactly what a fresh
 * one would, and a left-out code's pairs (a difference) are exact too.
 */
export class PairTable {
  /** Class weights per pair of kept codes; `start[s] + (t − first[featOf[s]])·k + class`. */
  private readonly pairs: Float64Array;
  /** Class weights per code, `(code)·k + class` (the depth-2 solver's `total`). */
  readonly single: Float64Array;
  /** Rows per code. */
  readonly rowsOf: Int32Array;
  /** Class weights of the row set. */
  readonly classes: Float64Array;
  private readonly layout: PairLayout;
  private readonly start: Int32Array;
  /** Each row's kept slots. */
  private readonly kept: KeptSlots;
  /** Rows added less rows removed (what `settle` counts the left-out codes' rows from). */
  private held = 0;
  /** The row set the table holds, and a row's membership in it. */
  rows: Int32Array;
  count = 0;
  readonly member: Uint8Array;
  /** When the table last served a solve (the least recent is rebuilt). */
  used = 0;

  constructor(private readonly data: Binarised) {
    const { features, n, k } = data;
    const F = features.length;
    const layout = pairLayout(data);
    this.layout = layout;
    const S = layout.codeOf.length;
    this.start = new Int32Array(S);
    let at = 0;
    for (let s = 0; s < S; s++) {
      this.start[s] = at;
      at += (S - layout.first[layout.featOf[s]]) * k;
    }
    this.pairs = new Float64Array(at);
    const C = layout.base[F];
    this.single = new Float64Array(C * k);
    this.rowsOf = new Int32Array(C);
    this.classes = new Float64Array(k);
    this.kept = keptSlots(data);
    this.rows = new Int32Array(n);
    this.member = new Uint8Array(n);
  }

  /** Cells of the pair table (each pair of kept codes once, times classes). */
  static cells(data: Binarised): number {
    return pairLayout(data).cells;
  }

  /** Bytes of one table. */
  static bytes(data: Binarised): number {
    let C = 0;
    for (const f of data.features) C += f.bins + 1;
    return PairTable.cells(data) * 8 + C * (8 * data.k + 16) + data.n * 5 + 8 * data.k;
  }

  /** Empty the table. */
  clear(): void {
    for (let i = 0; i < this.count; i++) this.member[this.rows[i]] = 0;
    this.count = 0;
    this.held = 0;
    this.pairs.fill(0);
    this.single.fill(0);
    this.rowsOf.fill(0);
    this.classes.fill(0);
  }

  /**
   * Add (sign 1) or remove (sign -1) row r's weight in every pair of its kept codes and in their
   * single weights; the left-out codes' are filled in by `settle`.
   */
  update(r: number, sign: number): void {
    const { data, start, pairs, single, rowsOf } = this;
    const { first, featOf, codeOf } = this.layout;
    const { slots } = this.kept;
    const k = data.k;
    const y = data.labels[r];
    const w = sign * data.weights[r];
    const from = this.kept.start[r];
    const to = this.kept.start[r + 1];
    for (let i = from; i < to; i++) {
      const s = slots[i];
      const code = codeOf[s];
      single[code * k + y] += w;
      rowsOf[code] += sign;
      const at = start[s] - first[featOf[s]] * k + y;
      for (let t = i; t < to; t++) pairs[at + slots[t] * k] += w;
    }
    this.classes[y] += w;
    this.held += sign;
  }

  /** Fill in each left-out code's rows and single weights: the row set's less its feature's kept codes'. */
  settle(): void {
    const { single, rowsOf, classes } = this;
    const { first, codeOf, major } = this.layout;
    const k = this.data.k;
    for (let g = 0; g < major.length; g++) {
      const m = major[g];
      if (m < 0) continue;
      let rows = this.held;
      for (let y = 0; y < k; y++) single[m * k + y] = classes[y];
      for (let t = first[g]; t < first[g + 1]; t++) {
        const c = codeOf[t];
        rows -= rowsOf[c];
        for (let y = 0; y < k; y++) single[m * k + y] -= single[c * k + y];
      }
      rowsOf[m] = rows;
    }
  }

  /** Hold `whole` less `part` (a table of a subset of whole's rows), which are rows `rows[0 .. count)`. */
  difference(whole: PairTable, part: PairTable, rows: Int32Array, count: number): void {
    const { pairs, single, rowsOf, classes } = this;
    for (let i = 0; i < pairs.length; i++) pairs[i] = whole.pairs[i] - part.pairs[i];
    for (let i = 0; i < single.length; i++) single[i] = whole.single[i] - part.single[i];
    for (let i = 0; i < rowsOf.length; i++) rowsOf[i] = whole.rowsOf[i] - part.rowsOf[i];
    for (let i = 0; i < classes.length; i++) classes[i] = whole.classes[i] - part.classes[i];
    this.held = whole.held - part.held;
    for (let i = 0; i < this.count; i++) this.member[this.rows[i]] = 0;
    for (let i = 0; i < count; i++) this.member[rows[i]] = 1;
    this.rows.set(rows.subarray(0, count));
    this.count = count;
  }

  /**
   * Add `sign` × the class weights, over every code, of the rows with code `c` of feature f to
   * `hist` (laid out as `single`). A left-out code's slice is every row's less its feature's
   * kept codes' slices; a kept code's has, at each left-out code of another feature, the code's
   * single weights less its pairs with that feature's kept codes.
   */
  addSlice(hist: Float64Array, f: number, c: number, sign: number): void {
    const { base, slot, first, major } = this.layout;
    const a = base[f] + c;
    const s = slot[a];
    if (s >= 0) {
      this.addKept(hist, f, a, s, sign);
      return;
    }
    if (a !== major[f]) return; // a code no row has
    const { single } = this;
    if (sign > 0) for (let i = 0; i < single.length; i++) hist[i] += single[i];
    else for (let i = 0; i < single.length; i++) hist[i] -= single[i];
    for (let t = first[f]; t < first[f + 1]; t++) this.addKept(hist, f, this.layout.codeOf[t], t, -sign);
  }

  /** `addSlice` of kept code a (slot s) of feature f. */
  private addKept(hist: Float64Array, f: number, a: number, s: number, sign: number): void {
    const { pairs, start, single } = this;
    const { first, codeOf, major } = this.layout;
    const k = this.data.k;
    const F = this.data.features.length;
    const own = start[s] - first[f] * k;
    const ak = a * k;
    for (let g = 0; g < F; g++) {
      const m = major[g];
      // Feature f's own codes: the rows of code a have a, none other. Another feature's left-out
      // code: a's rows less those with one of its kept codes.
      if (g === f || m >= 0) {
        const x = g === f ? ak : m * k;
        for (let y = 0; y < k; y++) hist[x + y] += sign * single[ak + y];
        if (g === f) continue;
      }
      for (let t = first[g]; t < first[g + 1]; t++) {
        // Pair (s, t) is in the row of whichever slot's feature comes first.
        const at = g > f ? own + t * k : start[t] + (s - first[g]) * k;
        const x = codeOf[t] * k;
        if (m >= 0) {
          const mx = m * k;
          for (let y = 0; y < k; y++) {
            const v = sign * pairs[at + y];
            hist[x + y] += v;
            hist[mx + y] -= v;
          }
        } else for (let y = 0; y < k; y++) hist[x + y] += sign * pairs[at + y];
      }
    }
  }
}

/**
 * The depth-2 solver's pair tables: two for children, moved between row sets, and one for the
 * children's parent (a depth-3 node, named by `setParent`). A sweep alternates left and right
 * children, each a bucket away from the last of its side; and a child is also the parent's table
 * less its sibling's (MurTree section 4.6), so a sparse 0/1 feature's large side costs only its
 * small side's rows. Each solve takes the cheapest way, counting a row as the pairs it updates
 * and a table's cells once: move a child table by the rows it differs by, or rebuild it; or move
 * one to the complement within the parent and subtract it from the parent into the other.
 */
export class PairTables {
  private readonly kids: [PairTable, PairTable];
  private readonly parent: PairTable;
  /** The parent's rows (null: none named), and whether the parent table holds them yet. */
  private parentRows: Int32Array | null = null;
  private parentCount = 0;
  private parentHeld = false;
  private readonly mark: Uint8Array;
  private readonly inParent: Uint8Array;
  private readonly scratch: Int32Array;
  private clock = 0;
  /** Solves served as the parent's table less a sibling's. */
  differences = 0;
  /** Cost of updating one row (its pairs of features) and of touching every cell of a table. */
  private readonly rowCost: number;
  private readonly tableCost: number;

  constructor(data: Binarised) {
    this.kids = [new PairTable(data), new PairTable(data)];
    this.parent = new PairTable(data);
    this.mark = new Uint8Array(data.n);
    this.inParent = new Uint8Array(data.n);
    this.scratch = new Int32Array(data.n);
    const layout = pairLayout(data);
    this.rowCost = layout.rowCost;
    this.tableCost = layout.cells;
  }

  /** Bytes of the three tables (Infinity past MAX_CELLS cells each). */
  static bytes(data: Binarised): number {
    if (PairTable.cells(data) > MAX_CELLS) return Infinity;
    // The tables, their marks, and the rows' kept slots they share.
    return 3 * PairTable.bytes(data) + data.n * 10 + pairLayout(data).keptTotal * 4;
  }

  /** The rows of the node whose children are solved next (read on the first of them, by reference). */
  setParent(rows: Int32Array, count: number): void {
    const { inParent } = this;
    if (this.parentRows) for (let i = 0; i < this.parentCount; i++) inParent[this.parentRows[i]] = 0;
    for (let i = 0; i < count; i++) inParent[rows[i]] = 1;
    this.parentRows = rows;
    this.parentCount = count;
    this.parentHeld = false;
  }

  /**
   * A table holding exactly rows `rows[0 .. count)`, or null when getting one would cost more than
   * `budget` (in row-feature updates; the caller has a way that costs that).
   */
  moveTo(rows: Int32Array, count: number, budget: number): PairTable | null {
    const { kids, parent, mark, scratch } = this;
    // Directly: a child table moved or rebuilt.
    let best = kids[0].used <= kids[1].used ? 0 : 1;
    let bestCost = this.moveCost(kids[best], rows, count);
    const other = this.moveCost(kids[1 - best], rows, count);
    if (other < bestCost) {
      best = 1 - best;
      bestCost = other;
    }
    // Through the parent: a child table moved to the rows' complement within it, subtracted from it.
    let via = -1;
    let rest = 0;
    const whole = this.parentRows;
    if (whole && this.within(rows, count)) {
      for (let i = 0; i < count; i++) mark[rows[i]] = 1;
      for (let i = 0; i < this.parentCount; i++) if (mark[whole[i]] === 0) scratch[rest++] = whole[i];
      for (let i = 0; i < count; i++) mark[rows[i]] = 0;
      // Holding the parent serves all its children: a share of its cost.
      const hold = this.parentHeld ? 0 : this.moveCost(parent, whole, this.parentCount) / AMORTISE;
      for (let j = 0; j < 2; j++) {
        const cost = hold + this.moveCost(kids[j], scratch, rest) + DIFFERENCE * this.tableCost;
        if (cost < bestCost) {
          via = j;
          bestCost = cost;
        }
      }
    }
    if (bestCost > budget) return null;
    let t = kids[best];
    if (via >= 0) {
      if (!this.parentHeld) this.move(parent, whole!, this.parentCount);
      this.parentHeld = true;
      this.move(kids[via], scratch, rest);
      t = kids[1 - via];
      t.difference(parent, kids[via], rows, count);
      this.differences++;
    } else this.move(t, rows, count);
    t.used = ++this.clock;
    return t;
  }

  /** Whether every row of `rows[0 .. count)` is one of the parent's. */
  private within(rows: Int32Array, count: number): boolean {
    const { inParent } = this;
    for (let i = 0; i < count; i++) if (inParent[rows[i]] === 0) return false;
    return true;
  }

  /** Rows in one of table t's row set and `rows[0 .. count)` but not the other. */
  private static diff(t: PairTable, rows: Int32Array, count: number): number {
    let shared = 0;
    for (let i = 0; i < count; i++) shared += t.member[rows[i]];
    return count - shared + (t.count - shared);
  }

  /** What moving table t to the rows costs: its difference's rows, or a rebuild. */
  private moveCost(t: PairTable, rows: Int32Array, count: number): number {
    const diff = PairTables.diff(t, rows, count);
    return Math.min(diff, count) * this.rowCost + (diff < count ? 0 : CLEAR * this.tableCost);
  }

  /** Make table t hold exactly `rows[0 .. count)`: by its difference, or rebuilt when that is cheaper. */
  private move(t: PairTable, rows: Int32Array, count: number): void {
    const { mark } = this;
    if (PairTables.diff(t, rows, count) >= count) t.clear();
    for (let i = 0; i < count; i++) mark[rows[i]] = 1;
    for (let i = 0; i < t.count; i++) {
      const r = t.rows[i];
      if (mark[r] === 0) t.update(r, -1);
    }
    for (let i = 0; i < count; i++) {
      const r = rows[i];
      if (t.member[r] === 0) t.update(r, 1);
    }
    for (let i = 0; i < t.count; i++) t.member[t.rows[i]] = 0;
    for (let i = 0; i < count; i++) {
      const r = rows[i];
      mark[r] = 0;
      t.member[r] = 1;
    }
    t.rows.set(rows.subarray(0, count));
    t.count = count;
    t.settle();
  }
}
