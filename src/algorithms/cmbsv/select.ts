/**
 * C-MBSV feature selection (paper, section 2.1 and eq. 10): at each node, on that node's rows, the
 * feature with the largest absolute correlation with the class label, where both vectors are first
 * normalised to unit L2 norm:  j = argmax_i |⟨X_i/‖X_i‖, Y/‖Y‖⟩|.
 *
 * Choices the paper leaves open, as options:
 * - `labelCoding`: `ordinal` (the paper: class index + 1, i.e. 1..n in the data set's class order,
 *   which grove sorts) or `one-vs-rest` (max over classes c of |r(X, 1[y = c])|, which does not
 *   depend on an arbitrary order of the classes).
 * - `correlationCentring`: false (the paper's eq. 10 as written: the cosine of the raw vectors) or
 *   true (subtract the means first: Pearson's r, the standardisation of LARS that the paper cites).
 *
 * A feature whose known values at the node are all equal cannot be split and is never selected
 * (uncentred, a constant vector still has a non-zero cosine with the labels). Missing values: the
 * score is computed on the rows whose value is known. Unordered categorical features (section 3.1)
 * are scored by the chi-square association of their values with the class, as Cramér's
 * V = sqrt(χ² / (n (min(r, c) − 1))), which lies in [0, 1] like |r| (for a 2 × 2 table it is
 * |φ| = |Pearson r| of the two indicator variables), so both kinds compete on one scale.
 * Ties go to the first feature in column order (relative tolerance 1e-12).
 */
import type { Column, NumericValues } from '../../data/dataset.js';
import { beats } from '../../split/candidate.js';

export type LabelCoding = 'ordinal' | 'one-vs-rest';

export interface SelectionOptions {
  labelCoding: LabelCoding;
  correlationCentring: boolean;
}

/**
 * |r| of a numeric feature with the label over `rows` (eq. 10), or -Infinity when the feature
 * cannot split them (fewer than two distinct known values).
 */
export function correlationScore(
  values: NumericValues,
  labels: Int32Array,
  classes: number,
  rows: ArrayLike<number>,
  weights: ArrayLike<number>,
  opts: SelectionOptions,
): number {
  gatherRows(known, labels, rows, weights, opts, values);
  return numericScore(values, known, classes, opts) ?? -Infinity;
}

/**
 * A node's rows of positive weight (and, for one feature's score, known value), gathered in row
 * order with what every feature's score reads of them: their weights and labels, Σ w and
 * Σ w·(y + 1), and for the ordinal coding y + 1 − mean(y + 1) and Σ w·(that)². Each sum adds the
 * same terms in the same order as a walk of the node's rows would. Buffers grow as needed.
 */
interface GatheredRows {
  rows: Int32Array;
  w: Float64Array;
  y: Int32Array;
  dy: Float64Array;
  /** A numeric feature's values at the rows (its score's second pass reads them in order). */
  x: Float64Array;
  m: number;
  W: number;
  Sy: number;
  Syy: number;
}

const gathered = (): GatheredRows => ({
  rows: new Int32Array(0),
  w: new Float64Array(0),
  y: new Int32Array(0),
  dy: new Float64Array(0),
  x: new Float64Array(0),
  m: 0,
  W: 0,
  Sy: 0,
  Syy: 0,
});
/** The node's rows, gathered once for all its features. */
const node = gathered();
/** The rows of known value of one feature with missing values at the node. */
const known = gathered();

/*
 * Every pass over a node's rows below is a function of its own that returns right after its loop
 * (docs/performance.md, "V8's on-stack compilation"), its other results in these variables: a
 * variable of the module is written without the type feedback a property would need.
 */
/** `gatherPositive`: Σ w and Σ w·(y + 1). */
let sumW = 0;
let sumWy = 0;
/** `gatherValues`: 1 when the values differ, 0 when they are all equal, NaN when one is missing. */
let valuesVary = 0;
/** `ordinalSums`: Σ w (x − mx)(y + 1 − my). */
let sumXY = 0;

/** Gather into `g` the rows of positive weight, and of known value when `values` is given. */
function gatherRows(
  g: GatheredRows,
  labels: Int32Array,
  rows: ArrayLike<number>,
  weights: ArrayLike<number>,
  opts: SelectionOptions,
  values?: NumericValues,
): void {
  if (g.rows.length < rows.length) {
    const size = Math.max(rows.length, 2 * g.rows.length);
    g.rows = new Int32Array(size);
    g.w = new Float64Array(size);
    g.y = new Int32Array(size);
    g.dy = new Float64Array(size);
    g.x = new Float64Array(size);
  }
  g.m = gatherPositive(g, labels, rows, weights, values);
  g.W = sumW;
  g.Sy = sumWy;
  // y = class index + 1.
  g.Syy = opts.labelCoding === 'ordinal' ? centredLabels(g, opts.correlationCentring ? g.Sy / g.W : 0) : 0;
}

/** The rows, weights and labels into `g`; their number (`sumW`, `sumWy`). */
function gatherPositive(
  g: GatheredRows,
  labels: Int32Array,
  rows: ArrayLike<number>,
  weights: ArrayLike<number>,
  values?: NumericValues,
): number {
  const { rows: gr, w: gw, y: gy } = g;
  let m = 0;
  let W = 0;
  let Sy = 0;
  for (let j = 0; j < rows.length; j++) {
    const r = rows[j];
    if (values && Number.isNaN(values[r])) continue;
    const w = weights[r];
    if (!(w > 0)) continue;
    const y = labels[r];
    gr[m] = r;
    gw[m] = w;
    gy[m] = y;
    W += w;
    Sy += w * (y + 1);
    m++;
  }
  sumW = W;
  sumWy = Sy;
  return m;
}

/** y + 1 − my of every gathered row into `g.dy`; Σ w·(that)². */
function centredLabels(g: GatheredRows, my: number): number {
  const { w: gw, y: gy, dy: gdy, m } = g;
  let Syy = 0;
  for (let j = 0; j < m; j++) {
    const dy = gy[j] + 1 - my;
    gdy[j] = dy;
    Syy += gw[j] * dy * dy;
  }
  return Syy;
}

/**
 * |r| of a numeric feature over the gathered rows `g`, -Infinity when its values there are all
 * equal (or there are none), or null when one of them is missing (`g` gathered without `values`).
 */
function numericScore(values: NumericValues, g: GatheredRows, classes: number, opts: SelectionOptions): number | null {
  const { m, W } = g;
  if (m === 0) return -Infinity;
  const Sx = gatherValues(values, g);
  if (Number.isNaN(valuesVary)) return null;
  if (valuesVary === 0 || !(W > 0)) return -Infinity;
  const mx = opts.correlationCentring ? Sx / W : 0;
  if (opts.labelCoding === 'ordinal') {
    const Sxx = ordinalSums(g, mx);
    if (!(Sxx > 0) || !(g.Syy > 0)) return 0;
    return Math.abs(sumXY) / Math.sqrt(Sxx * g.Syy);
  }
  return oneVsRest(g, mx, classes, opts);
}

/** The feature's values at the gathered rows into `g.x`; Σ w·x (`valuesVary`). */
function gatherValues(values: NumericValues, g: GatheredRows): number {
  const { rows: gr, w: gw, x: gx, m } = g;
  const x0 = values[gr[0]];
  let varies = 0;
  let Sx = 0;
  for (let j = 0; j < m; j++) {
    const x = values[gr[j]];
    if (Number.isNaN(x)) {
      varies = NaN;
      break;
    }
    if (x !== x0) varies = 1;
    gx[j] = x;
    Sx += gw[j] * x;
  }
  valuesVary = varies;
  return Sx;
}

/** Σ w (x − mx)² (`sumXY`: the ordinal coding's cross sum). */
function ordinalSums(g: GatheredRows, mx: number): number {
  const { w: gw, x: gx, dy: gdy, m } = g;
  let Sxx = 0;
  let Sxy = 0;
  for (let j = 0; j < m; j++) {
    const w = gw[j];
    const dx = gx[j] - mx;
    Sxx += w * dx * dx;
    Sxy += w * dx * gdy[j];
  }
  sumXY = Sxy;
  return Sxx;
}

/** The largest |r| of x with a class's indicator (the one-vs-rest coding). */
function oneVsRest(g: GatheredRows, mx: number, classes: number, opts: SelectionOptions): number {
  const W = g.W;
  // D_c = Σ_{y=c} w (x − mx); Σ_c D_c = Σ w (x − mx).
  const D = new Float64Array(classes);
  const Wc = new Float64Array(classes);
  const Sxx = classSums(g, mx, D, Wc);
  if (!(Sxx > 0)) return 0;
  let best = 0;
  for (let c = 0; c < classes; c++) {
    if (!(Wc[c] > 0)) continue;
    // Σ w (y_c − my)² : uncentred y_c² = y_c → Wc; centred → Wc (1 − Wc/W).
    const Syy = opts.correlationCentring ? Wc[c] * (1 - Wc[c] / W) : Wc[c];
    if (!(Syy > 0)) continue;
    // Centred: Σ w (x − mx)(y_c − p_c) = D_c − p_c Σ w (x − mx) = D_c, since Σ w (x − mx) = 0.
    best = Math.max(best, Math.abs(D[c]) / Math.sqrt(Sxx * Syy));
  }
  return best;
}

/** Σ w (x − mx)²; per class, Σ w (x − mx) into D and Σ w into Wc. */
function classSums(g: GatheredRows, mx: number, D: Float64Array, Wc: Float64Array): number {
  const { w: gw, y: gy, x: gx, m } = g;
  let Sxx = 0;
  for (let j = 0; j < m; j++) {
    const w = gw[j];
    const dx = gx[j] - mx;
    Sxx += w * dx * dx;
    D[gy[j]] += w * dx;
    Wc[gy[j]] += w;
  }
  return Sxx;
}

/**
 * Cramér's V of a categorical feature with the class over `rows` (known values only), or
 * -Infinity when fewer than two values occur.
 */
export function cramersV(
  codes: Int32Array,
  nCategories: number,
  labels: Int32Array,
  classes: number,
  rows: ArrayLike<number>,
  weights: ArrayLike<number>,
): number {
  const table = new Float64Array(nCategories * classes);
  const rowTot = new Float64Array(nCategories);
  const colTot = new Float64Array(classes);
  let W = 0;
  for (let j = 0; j < rows.length; j++) {
    const r = rows[j];
    const v = codes[r];
    const w = weights[r];
    if (v < 0 || !(w > 0)) continue;
    table[v * classes + labels[r]] += w;
    rowTot[v] += w;
    colTot[labels[r]] += w;
    W += w;
  }
  let nv = 0;
  for (let v = 0; v < nCategories; v++) if (rowTot[v] > 0) nv++;
  if (nv < 2) return -Infinity;
  let nc = 0;
  for (let c = 0; c < classes; c++) if (colTot[c] > 0) nc++;
  if (nc < 2) return 0;
  let chi2 = 0;
  for (let v = 0; v < nCategories; v++) {
    if (!(rowTot[v] > 0)) continue;
    for (let c = 0; c < classes; c++) {
      if (!(colTot[c] > 0)) continue;
      const e = (rowTot[v] * colTot[c]) / W;
      const d = table[v * classes + c] - e;
      chi2 += (d * d) / e;
    }
  }
  return Math.sqrt(chi2 / (W * (Math.min(nv, nc) - 1)));
}

/** Score of every feature at a node (-Infinity: cannot split here, or excluded). */
export function featureScores(
  features: readonly Column[],
  labels: Int32Array,
  classes: number,
  rows: ArrayLike<number>,
  weights: ArrayLike<number>,
  opts: SelectionOptions,
  excluded: readonly number[] = [],
): Float64Array {
  const scores = new Float64Array(features.length).fill(-Infinity);
  let gatheredHere = false;
  features.forEach((col, f) => {
    if (excluded.includes(f)) return;
    if (col.kind === 'categorical') {
      scores[f] = cramersV(col.codes, col.categories.length, labels, classes, rows, weights);
      return;
    }
    // The node's rows are gathered once; a feature missing at some of them gathers its known ones.
    if (!gatheredHere) gatherRows(node, labels, rows, weights, opts);
    gatheredHere = true;
    scores[f] =
      numericScore(col.values, node, classes, opts) ??
      correlationScore(col.values, labels, classes, rows, weights, opts);
  });
  return scores;
}

/** Index of the best score (first in column order on a tie), or -1 when no feature can split. */
export function bestFeature(scores: ArrayLike<number>): number {
  let best = -1;
  let bestScore = -Infinity;
  for (let f = 0; f < scores.length; f++) {
    if (scores[f] === -Infinity) continue;
    if (best < 0 || beats(scores[f], bestScore)) {
      best = f;
      bestScore = scores[f];
    }
  }
  return best;
}
