import { type ArrayMaker, plainArrays } from '../core/arrays.js';
import type { Column, Dataset } from '../data/dataset.js';
import { type BinnedFeature, binEdges, writeCodes } from '../split/histogram.js';
import { SortWork } from '../split/sort-work.js';

/** Bin or category codes, one row's after another's: 8, 16 or 32 bits, as the widest feature needs. */
export type CodeMatrix = Uint8Array | Uint16Array | Uint32Array;

/**
 * The quantised data (shareable between threads): bin codes row-major (one row's codes in one
 * cache line, so building a histogram reads memory in order), each numeric feature's bin edges,
 * and the per-row arrays that node slices and partitions use.
 */
export interface HistLayout {
  codes: CodeMatrix;
  /** Bin edges of each numeric feature (their codes are in `codes`); null for a categorical one. */
  binned: (BinnedFeature | null)[];
  rows: Int32Array;
  branchOf: Int32Array;
}

/** Bytes of a code: 1, 2 or 4, as the widest feature needs. */
export function codeWidth(data: Dataset, maxBins: number): 1 | 2 | 4 {
  let widest = 0;
  for (const col of data.features)
    widest = Math.max(widest, (col.kind === 'numeric' ? maxBins : col.categories.length) + 1);
  // A categorical feature can have more codes than 16 bits hold (an ID column).
  return widest > 65536 ? 4 : widest > 256 ? 2 : 1;
}

/** The code matrix, 8, 16 or 32 bits a code as the widest feature needs (all zero). */
export function codeMatrix(data: Dataset, maxBins: number, make: ArrayMaker): CodeMatrix {
  const width = codeWidth(data, maxBins);
  const bytes = data.nRows * data.features.length * width;
  const buffer = make === plainArrays ? new ArrayBuffer(bytes) : new SharedArrayBuffer(bytes);
  return width === 4 ? new Uint32Array(buffer) : width === 2 ? new Uint16Array(buffer) : new Uint8Array(buffer);
}

/**
 * The layout's row arrays, `rows` in order 0..n-1 and `branchOf`, made after binning out of the
 * sort scratch `work` (as long as they are; new arrays from the work's maker when it has none), so
 * no dead scratch waits for a collection while growth allocates.
 */
function takeRowArrays(n: number, work: SortWork): Pick<HistLayout, 'rows' | 'branchOf'> {
  const rows = work.takeInt32(0, n);
  for (let i = 0; i < n; i++) rows[i] = i;
  return { rows, branchOf: work.takeInt32(1, n) };
}

/**
 * Quantise numeric feature `f` (values `values`) into `layout`: its codes go into column f of the
 * row-major matrix; returns its bin edges (without a codes copy).
 */
export function binInto(
  layout: Pick<HistLayout, 'codes'>,
  f: number,
  d: number,
  values: Column & { kind: 'numeric' },
  maxBins: number,
  work: SortWork,
): BinnedFeature {
  const edges = binEdges(values.values, maxBins, work);
  writeCodes(values.values, edges, work, layout.codes, f, d);
  return { codes: new Uint8Array(0), bins: edges.bins, lo: edges.lo, hi: edges.hi };
}

/** Put the categorical features' codes into the matrix (missing = the code after the last category). */
function codeCategoricals(layout: Pick<HistLayout, 'codes'>, features: Column[]): void {
  const d = features.length;
  features.forEach((col, f) => {
    if (col.kind === 'numeric') return;
    const missing = col.categories.length;
    for (let i = 0, o = f; i < col.codes.length; i++, o += d)
      layout.codes[o] = col.codes[i] < 0 ? missing : col.codes[i];
  });
}

/** The layout of `data`, every feature quantised or coded (one thread); the row arrays come last. */
export function binAll(data: Dataset, maxBins: number): HistLayout {
  const codes = codeMatrix(data, maxBins, plainArrays);
  const binned: (BinnedFeature | null)[] = data.features.map(() => null);
  const work = new SortWork();
  binNumerics(data, maxBins, codes, binned, work);
  return finishLayout(data, codes, binned, work);
}

/** Quantise every numeric feature of `data` into its column of `codes`, one after another. */
export function binNumerics(
  data: Dataset,
  maxBins: number,
  codes: HistLayout['codes'],
  binned: (BinnedFeature | null)[],
  work: SortWork,
): void {
  const d = data.features.length;
  data.features.forEach((col, f) => {
    if (col.kind === 'numeric') binned[f] = binInto({ codes }, f, d, col, maxBins, work);
  });
}

/**
 * The layout once the numeric features are binned: the categorical features coded, and the row
 * arrays made out of the sort scratch of `work`, which is then released.
 */
export function finishLayout(
  data: Dataset,
  codes: HistLayout['codes'],
  binned: (BinnedFeature | null)[],
  work: SortWork,
): HistLayout {
  codeCategoricals({ codes }, data.features);
  const layout = { codes, binned, ...takeRowArrays(data.nRows, work) };
  work.release();
  return layout;
}
