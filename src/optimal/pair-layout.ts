import type { Binarised } from './binarise.js';

/**
 * Which codes a pair table keeps pairs of (MurTree's sparse counting, section 4.4: only pairs of
 * features both 1 are counted, the other cells follow from single counts and totals). A feature
 * whose most frequent code holds at least half the rows leaves that code out: the rows with it
 * count no pair for that feature, and its pairs are the code's single weights less the feature's
 * other codes' (exact with integer weights). Codes no row has are left out too. A sparse 0/1
 * feature then costs the rows that have its rare value; a binned numeric one (no code that large)
 * keeps every code.
 */
export interface PairLayout {
  /** Codes (as `base`), the kept ones numbered 0 .. kept − 1 in feature order (`slot`, −1: left out). */
  readonly base: Int32Array;
  readonly slot: Int32Array;
  /** The code of each slot, its feature, and feature g's slots `first[g] .. first[g + 1]`. */
  readonly codeOf: Int32Array;
  readonly featOf: Int32Array;
  readonly first: Int32Array;
  /** Feature g's left-out frequent code (as `base`), −1 if it keeps every code it has. */
  readonly major: Int32Array;
  /** Cells of the table, and the mean pairs a row updates (its kept codes' pairs, its features' singles). */
  readonly cells: number;
  readonly rowCost: number;
  /** Cells read to take every code's slice once (what a depth-2 solve's sweeps read). */
  readonly sliceCells: number;
  /** Kept codes over every row (the length of `keptSlots`' list). */
  readonly keptTotal: number;
}

const layouts = new WeakMap<Binarised, PairLayout>();

/** The pair layout of a data set (computed once per data set: a pass over its codes). */
export function pairLayout(data: Binarised): PairLayout {
  const known = layouts.get(data);
  if (known) return known;
  const { features, n, k } = data;
  const F = features.length;
  const base = new Int32Array(F + 1);
  for (let g = 0; g < F; g++) base[g + 1] = base[g] + features[g].bins + 1;
  const C = base[F];
  const rows = new Int32Array(C);
  for (let g = 0; g < F; g++) {
    const codes = features[g].codes;
    for (let r = 0; r < n; r++) rows[base[g] + codes[r]]++;
  }
  const major = new Int32Array(F).fill(-1);
  const slot = new Int32Array(C).fill(-1);
  const first = new Int32Array(F + 1);
  const codeOf: number[] = [];
  const featOf: number[] = [];
  for (let g = 0; g < F; g++) {
    first[g] = codeOf.length;
    let top = base[g];
    for (let a = base[g]; a < base[g + 1]; a++) if (rows[a] > rows[top]) top = a;
    if (2 * rows[top] >= n) major[g] = top;
    for (let a = base[g]; a < base[g + 1]; a++) {
      if (rows[a] === 0 || a === major[g]) continue;
      slot[a] = codeOf.length;
      codeOf.push(a);
      featOf.push(g);
    }
  }
  const S = codeOf.length;
  first[F] = S;
  let cells = 0;
  for (let s = 0; s < S; s++) cells += (S - first[featOf[s]]) * k;
  let pairs = 0;
  for (let g = 0; g < F; g++) for (let s = first[g]; s < first[g + 1]; s++) pairs += rows[codeOf[s]];
  // A row's kept codes j update j(j + 1)/2 pairs; over rows, about (mean j)²/2 + mean j/2 plus its singles.
  const mean = n > 0 ? pairs / n : 0;
  const rowCost = (mean * (mean + 1)) / 2 + F;
  // A kept code's slice reads every kept code and each feature's left-out one; a left-out code's
  // reads every code and its feature's kept codes' slices.
  const kept = (S + F) * k;
  let sliceCells = 0;
  for (let g = 0; g < F; g++) {
    const own = first[g + 1] - first[g];
    sliceCells += own * kept + (major[g] >= 0 ? C * k + own * kept : 0);
  }
  const layout: PairLayout = {
    base,
    slot,
    codeOf: Int32Array.from(codeOf),
    featOf: Int32Array.from(featOf),
    first,
    major,
    cells,
    rowCost,
    sliceCells,
    keptTotal: pairs,
  };
  layouts.set(data, layout);
  return layout;
}

/** Each row's kept slots, in feature order: row r's are `slots[start[r] .. start[r + 1])`. */
export interface KeptSlots {
  readonly start: Int32Array;
  readonly slots: Int32Array;
}

const keptLists = new WeakMap<Binarised, KeptSlots>();

/** The rows' kept slots (`keptTotal` · 4 bytes; built once per data set, when a table is). */
export function keptSlots(data: Binarised): KeptSlots {
  const known = keptLists.get(data);
  if (known) return known;
  const { features, n } = data;
  const { base, slot, keptTotal } = pairLayout(data);
  const start = new Int32Array(n + 1);
  const slots = new Int32Array(keptTotal);
  let j = 0;
  for (let r = 0; r < n; r++) {
    start[r] = j;
    for (let g = 0; g < features.length; g++) {
      const s = slot[base[g] + features[g].codes[r]];
      if (s >= 0) slots[j++] = s;
    }
  }
  start[n] = j;
  const lists = { start, slots };
  keptLists.set(data, lists);
  return lists;
}
