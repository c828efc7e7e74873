/**
 * O(1)-per-move forms of criteria for two-branch scans (numeric thresholds, histogram bins).
 * A scan starts with every weight in the right branch and moves entries left one at a time; a
 * criterion that offers an `IncrementalForm` keeps running sums (of squares, of x·ln x, ...) so
 * that its value at a candidate costs O(1) instead of O(classes). The value must equal
 * `evaluate` on the same table up to rounding (tests compare the two on random tables).
 */
export interface IncrementalForm {
  /** Start a scan over a node with class weights `totals` (length k), all in the right branch. */
  reset(totals: ArrayLike<number>, k: number): void;
  /** Weight `w` of class `c` moves right → left; `l` and `r` are that class's weights before the move. */
  move(c: number, w: number, l: number, r: number): void;
  /** The criterion's value for the current split, whose branch weights are `nL` and `nR`. */
  value(nL: number, nR: number): number;
  /**
   * Optional: a cheaper bound of `value(nL, nR)` on its better side (at most the value for a
   * minimised criterion, at least it for a maximised one). A scan skips `value` when the bound
   * already cannot beat its best candidate, so the chosen split is the same.
   */
  optimistic?(nL: number, nR: number): number;
}

/** x·ln x with 0·ln 0 = 0; exact integers below the table size come from a table (no log call). */
export class XLogX {
  private table = new Float64Array(0);

  /** Make sure integers up to `max` are tabulated (called once per fit with the total weight). */
  prepare(max: number): void {
    const size = Math.min(Math.ceil(max) + 1, 1 << 22);
    if (size <= this.table.length) return;
    const t = new Float64Array(size);
    for (let i = 1; i < size; i++) t[i] = i * Math.log(i);
    this.table = t;
  }

  /** The table: `of(x)` for the integers 0 ≤ x < its length. */
  get integers(): Float64Array {
    return this.table;
  }

  of(x: number): number {
    if (x <= 0) return 0;
    const i = x | 0;
    return i === x && i < this.table.length ? this.table[i] : x * Math.log(x);
  }
}

/**
 * The change of Σ x·ln x when one count goes from `from` to `to`, read from `xlx` (an `XLogX`'s
 * `integers`): a unit-weight scan's form of `EntropySums.move`.
 */
export function xlxChange(xlx: Float64Array, from: number, to: number): number {
  return xlx[to] - xlx[from];
}

const LN2 = Math.LN2;

/**
 * Information gain in bits of a two-branch split, clamped at 0 like `informationGain`: n·H(parent)
 * in nats (`parent`) less the branches' n_b·H(b), each the x·ln x of its weight (`xL`, `xR`) less
 * its running Σ_c x·ln x (`sumL`, `sumR`), over n·ln 2. A function of its own so that a scan can
 * call it with sums held in local variables (as `giniOfSquares`).
 */
export function gainOfSums(parent: number, xL: number, sumL: number, xR: number, sumR: number, n: number): number {
  const g = (parent - (xL - sumL + (xR - sumR))) / (n * LN2);
  return g > 0 ? g : 0;
}

/**
 * Running Σ_c L_c ln L_c and Σ_c R_c ln R_c, from which the entropy family is computed:
 * n·H(branch) = n_b ln n_b − Σ_c n_bc ln n_bc (in nats; divide by ln 2 for bits).
 */
export class EntropySums implements IncrementalForm {
  readonly xlx = new XLogX();
  sumL = 0;
  sumR = 0;
  n = 0;
  /** n·H(parent) in nats. */
  parent = 0;

  reset(totals: ArrayLike<number>, k: number): void {
    let n = 0;
    let s = 0;
    for (let c = 0; c < k; c++) {
      n += totals[c];
      s += this.xlx.of(totals[c]);
    }
    this.xlx.prepare(n);
    this.n = n;
    this.sumL = 0;
    this.sumR = s;
    this.parent = this.xlx.of(n) - s;
  }

  move(_c: number, w: number, l: number, r: number): void {
    const x = this.xlx;
    this.sumL += x.of(l + w) - x.of(l);
    this.sumR += x.of(r - w) - x.of(r);
  }

  /** Information gain in bits, clamped at 0 like `informationGain`. */
  gain(nL: number, nR: number): number {
    const x = this.xlx;
    return gainOfSums(this.parent, x.of(nL), this.sumL, x.of(nR), this.sumR, this.n);
  }

  /** Binary split information in bits. */
  splitInfo(nL: number, nR: number): number {
    const x = this.xlx;
    const s = (x.of(this.n) - x.of(nL) - x.of(nR)) / (this.n * LN2);
    return s > 0 ? s : 0;
  }

  /** Information gain (info-gain's value; the other measures of the family replace it). */
  value(nL: number, nR: number): number {
    return this.gain(nL, nR);
  }
}

/** Whether `sums` scores by information gain: its `value` is the class's own, not replaced. */
export function scoresGain(sums: EntropySums): boolean {
  return sums.value === EntropySums.prototype.value;
}

/** Running Σ_c L_c² and Σ_c R_c² for the Gini family. */
export class SquareSums implements IncrementalForm {
  sqL = 0;
  sqR = 0;
  n = 0;

  reset(totals: ArrayLike<number>, k: number): void {
    let n = 0;
    let s = 0;
    for (let c = 0; c < k; c++) {
      n += totals[c];
      s += totals[c] * totals[c];
    }
    this.n = n;
    this.sqL = 0;
    this.sqR = s;
  }

  move(_c: number, w: number, l: number, r: number): void {
    this.sqL += w * (2 * l + w);
    this.sqR += w * (w - 2 * r);
  }

  /** Weighted Gini impurity of the two children. */
  value(nL: number, nR: number): number {
    return giniOfSquares(nL, nR, this.sqL, this.sqR, this.n);
  }
}

/**
 * Weighted Gini impurity of two children of weights `nL`, `nR` (of `n` in all) whose class
 * weights' squares sum to `sqL`, `sqR`; a function of its own so that a scan can call it with
 * sums held in local variables.
 */
export function giniOfSquares(nL: number, nR: number, sqL: number, sqR: number, n: number): number {
  let g = 0;
  if (nL > 0) g += nL - sqL / nL;
  if (nR > 0) g += nR - sqR / nR;
  return n > 0 ? g / n : 0;
}
