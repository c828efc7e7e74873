/**
 * A numeric feature's bin codes by direct lookup: the range of its training values cut into equal
 * cells, `cell = floor((x − origin) × scale)`, and per cell the lowest code of a training value in
 * it. A row's code is then that code plus a few comparisons with the next bin edges, where a
 * binary search over the edges costs log₂(bins) lookups: the lookups are what an engine's list
 * search spends its time on. The grid is built from the feature's distinct training values, each
 * with its code, in the same double arithmetic the engine uses (IEEE subtraction, then
 * multiplication, then floor), so every training value gets exactly its code.
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
 * The cheapest grid for sorted distinct values `xs[0…n−1]` with codes `code(v)` (non-decreasing),
 * or null when a grid saves nothing over a binary search of `searchSteps` lookups (values too
 * crowded, or a range that is not finite).
 */
export function codeGrid(
  xs: Float64Array,
  n: number,
  bins: number,
  code: (v: number) => number,
  searchSteps: number,
): CodeGrid | null {
  if (n < 2 || bins < 2) return null;
  const origin = xs[0];
  const span = xs[n - 1] - origin;
  if (!Number.isFinite(origin) || !Number.isFinite(span) || span <= 0) return null;
  let best: CodeGrid | null = null;
  for (const perBin of CELLS_PER_BIN) {
    const cells = perBin * bins;
    const scale = cells / span;
    if (!Number.isFinite(scale)) continue;
    const grid = fill(xs, n, code, origin, scale, cells);
    if (grid && (!best || grid.compares < best.compares)) best = grid;
    if (best && best.compares <= 1) break;
  }
  // One lookup for the cell, then the comparisons, each a lookup in the edges.
  return best && 1 + best.compares < searchSteps ? best : null;
}

function fill(
  xs: Float64Array,
  n: number,
  code: (v: number) => number,
  origin: number,
  scale: number,
  cells: number,
): CodeGrid | null {
  const first = new Int32Array(cells + 1).fill(-1);
  let compares = 0;
  let cell = -1;
  let low = 0;
  for (let v = 0; v < n; v++) {
    const at = Math.floor((xs[v] - origin) * scale);
    if (at < 0 || at > cells || at < cell) return null;
    const c = code(v);
    if (at !== cell) {
      cell = at;
      low = c;
      first[at] = c;
    } else if (c - low > compares) compares = c - low;
  }
  // Empty cells hold the code of the cell below: no training value reads them.
  let last = 0;
  for (let g = 0; g <= cells; g++) {
    if (first[g] < 0) first[g] = last;
    else last = first[g];
  }
  return { origin, scale, first, compares };
}
