/**
 * A numeric feature's bin codes by direct lookup: the range of its training values cut into equal
 * cells, `cell = floor((x − origin) × scale)`, and per cell the lowest code of a training value in
 * it. A row's code is then that code plus a few comparisons with the next bin edges, where a
 * binary search over the edges costs log₂(bins) lookups: the lookups are what an engine's list
 * search spends its time on. The grid is built from the bins' smallest and largest training
 * values in the same double arithmetic the engine uses (IEEE subtraction, then multiplication,
 * then floor, each monotone), so every training value gets exactly its code.
 */
export interface CodeGrid {
  origin: number;
  scale: number;
  /** The lowest code of a training value in each cell (empty cells: the code below them). */
  first: Int32Array;
  /** Comparisons with the bin edges after the lookup: the most codes one cell holds, less one. */
  compares: number;
}

/** Lookups of a branchless binary search over `bins` bin edges (padded to a power of two). */
export function searchSteps(bins: number): number {
  return Math.ceil(Math.log2(bins));
}

/** Cells per bin tried, fewest first: more cells, fewer comparisons, a longer list. */
const CELLS_PER_BIN = [16, 256] as const;

/**
 * The cheapest grid for a feature's bins (`lo[k]`, `hi[k]`: the smallest and largest training
 * value of bin k, increasing), or null when a grid saves nothing over a binary search of
 * `searchSteps` lookups (values too crowded, or a range that is not finite). The training values
 * of bin k lie in the cells from lo[k]'s to hi[k]'s; a cell's entry is the lowest bin reaching it
 * and `compares` the most further bins reaching one cell, so every training value's code is its
 * cell's entry plus its comparisons, whatever values lie between a bin's ends.
 */
export function codeGrid(lo: Float64Array, hi: Float64Array, bins: number, searchSteps: number): CodeGrid | null {
  if (bins < 2) return null;
  const origin = lo[0];
  const span = hi[bins - 1] - origin;
  if (!Number.isFinite(origin) || !Number.isFinite(span) || span <= 0) return null;
  let best: CodeGrid | null = null;
  for (const perBin of CELLS_PER_BIN) {
    const cells = perBin * bins;
    const scale = cells / span;
    if (!Number.isFinite(scale)) continue;
    const grid = fill(lo, hi, bins, origin, scale, cells);
    if (grid && (!best || grid.compares < best.compares)) best = grid;
    if (best && best.compares <= 1) break;
  }
  // One lookup for the cell, then the comparisons, each a lookup in the edges.
  return best && 1 + best.compares < searchSteps ? best : null;
}

function fill(
  lo: Float64Array,
  hi: Float64Array,
  bins: number,
  origin: number,
  scale: number,
  cells: number,
): CodeGrid | null {
  const first = new Int32Array(cells + 1).fill(-1);
  let compares = 0;
  let reached = -1; // the highest cell a bin so far reaches
  for (let k = 0; k < bins; k++) {
    const from = Math.floor((lo[k] - origin) * scale);
    const to = Math.floor((hi[k] - origin) * scale);
    if (from < reached || to < from || to > cells) return null;
    if (first[from] < 0) first[from] = k;
    else if (k - first[from] > compares) compares = k - first[from];
    for (let g = from + 1; g <= to; g++) first[g] = k;
    reached = to;
  }
  // Empty cells hold the code of the cell below: no training value reads them.
  let last = 0;
  for (let g = 0; g <= cells; g++) {
    if (first[g] < 0) first[g] = last;
    else last = first[g];
  }
  return { origin, scale, first, compares };
}
