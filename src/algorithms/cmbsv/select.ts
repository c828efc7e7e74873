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
  // The node's known rows gathered (value, weight, label) in row order, so the passes below read
  // memory in order; the sums add the same terms in the same order as a walk of `rows` would.
  const m = gatherKnown(values, labels, rows, weights);
  if (m < 0) return -Infinity;
  const { x: gx, w: gw, y: gy, W, Sx, Sy } = scratch;
  if (!(W > 0)) return -Infinity;
  const mx = opts.correlationCentring ? Sx / W : 0;
  if (opts.labelCoding === 'ordinal') {
    // y = class index + 1.
    const my = opts.correlationCentring ? Sy / W : 0;
    let Sxx = 0;
    let Syy = 0;
    let Sxy = 0;
    for (let j = 0; j < m; j++) {
      const w = gw[j];
      const dx = gx[j] - mx;
      const dy = gy[j] + 1 - my;
      Sxx += w * dx * dx;
      Syy += w * dy * dy;
      Sxy += w * dx * dy;
    }
    if (!(Sxx > 0) || !(Syy > 0)) return 0;
    return Math.abs(Sxy) / Math.sqrt(Sxx * Syy);
  }
  // one-vs-rest: D_c = Σ_{y=c} w (x − mx); Σ_c D_c = Σ w (x − mx).
  const D = new Float64Array(classes);
  const Wc = new Float64Array(classes);
  let Sxx = 0;
  for (let j = 0; j < m; j++) {
    const w = gw[j];
    const dx = gx[j] - mx;
    Sxx += w * dx * dx;
    D[gy[j]] += w * dx;
    Wc[gy[j]] += w;
  }
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

/**
 * `correlationScore`'s gathered rows, grown as needed (one scan at a time), and their sums of w,
 * w·x and w·(y + 1).
 */
const scratch = { x: new Float64Array(0), w: new Float64Array(0), y: new Int32Array(0), W: 0, Sx: 0, Sy: 0 };

/**
 * Gather the rows of known value and positive weight into `scratch`, in row order, with their
 * sums; their number, or -1 when their values are all equal (or there are none).
 */
function gatherKnown(
  values: NumericValues,
  labels: Int32Array,
  rows: ArrayLike<number>,
  weights: ArrayLike<number>,
): number {
  if (scratch.x.length < rows.length) {
    const size = Math.max(rows.length, 2 * scratch.x.length);
    scratch.x = new Float64Array(size);
    scratch.w = new Float64Array(size);
    scratch.y = new Int32Array(size);
  }
  const { x: gx, w: gw, y: gy } = scratch;
  let m = 0;
  let varies = false;
  let W = 0;
  let Sx = 0;
  let Sy = 0;
  for (let j = 0; j < rows.length; j++) {
    const r = rows[j];
    const x = values[r];
    if (Number.isNaN(x)) continue;
    const w = weights[r];
    if (!(w > 0)) continue;
    if (m > 0 && x !== gx[0]) varies = true;
    const y = labels[r];
    gx[m] = x;
    gw[m] = w;
    gy[m] = y;
    W += w;
    Sx += w * x;
    Sy += w * (y + 1);
    m++;
  }
  scratch.W = W;
  scratch.Sx = Sx;
  scratch.Sy = Sy;
  return varies ? m : -1;
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
  features.forEach((col, f) => {
    if (excluded.includes(f)) return;
    scores[f] =
      col.kind === 'numeric'
        ? correlationScore(col.values, labels, classes, rows, weights, opts)
        : cramersV(col.codes, col.categories.length, labels, classes, rows, weights);
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
