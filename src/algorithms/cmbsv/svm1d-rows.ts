/** The rows of a one-dimensional SVM problem, split by class and sorted by x, in buffers kept between solves. */

/**
 * A problem's rows of positive C split by class, each ascending by x (x, C and the row's index in
 * the input), and the bias search's breakpoints: buffers kept from one solve to the next, since
 * C-MBSV solves one problem per pair of classes at every node.
 */
export class ClassRows {
  px = new Float64Array(0);
  pc = new Float64Array(0);
  pi = new Int32Array(0);
  np = 0;
  nx = new Float64Array(0);
  nc = new Float64Array(0);
  ni = new Int32Array(0);
  nn = 0;
  /** `optimalBias`'s breakpoints and their C, ascending. */
  a = new Float64Array(0);
  ac = new Float64Array(0);
  e = new Float64Array(0);
  ec = new Float64Array(0);
  /** α when only the `max-alpha` bias needs it. */
  alpha = new Float64Array(0);

  /** Room for m rows, none held. */
  reset(m: number): void {
    if (this.px.length < m) {
      for (const key of ['px', 'pc', 'nx', 'nc', 'a', 'ac', 'e', 'ec', 'alpha'] as const)
        this[key] = new Float64Array(m);
      this.pi = new Int32Array(m);
      this.ni = new Int32Array(m);
    }
    this.np = 0;
    this.nn = 0;
  }
}

/**
 * The rows of positive C split by class, each ascending by x, written to `rows` (the caller's
 * buffers, grown when short) and returned.
 */
export function classRows(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  c: ArrayLike<number>,
  m: number,
  sorted: boolean,
  rows: ClassRows,
): ClassRows {
  let order: Int32Array | null = null;
  if (!sorted) {
    order = new Int32Array(m);
    for (let i = 0; i < m; i++) order[i] = i;
    order.sort((a, b) => x[a] - x[b] || a - b);
  }
  rows.reset(m);
  const { px, pc, pi, nx, nc, ni } = rows;
  let np = 0;
  let nn = 0;
  for (let j = 0; j < m; j++) {
    const i = order ? order[j] : j;
    const ci = c[i];
    if (!(ci >= 0) || !Number.isFinite(ci) || !Number.isFinite(x[i])) throw new RangeError(`solveSvm1d: bad row ${i}`);
    if (ci === 0) continue;
    if (y[i] > 0) {
      px[np] = x[i];
      pc[np] = ci;
      pi[np++] = i;
    } else {
      nx[nn] = x[i];
      nc[nn] = ci;
      ni[nn++] = i;
    }
  }
  rows.np = np;
  rows.nn = nn;
  return rows;
}
