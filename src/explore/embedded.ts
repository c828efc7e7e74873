import { GroveError } from '../core/errors.js';
import type { ClassLabel, Column, Dataset } from '../data/dataset.js';

/**
 * The data set as `grove explore` writes it into the page: the encoded columns (the same Dataset
 * `grove fit` builds from the file, so the page grows the same trees), plain JSON. A missing
 * numeric value is `null` (JSON has no NaN), a missing category `-1`. A file opened in the page
 * comes from its reader worker packed instead: typed arrays (a missing number NaN), which cross
 * between threads as whole buffers, not element by element on the page's main thread.
 */
export interface EmbeddedData {
  /** File name shown in the page. */
  source: string;
  target: string;
  classes: ClassLabel[];
  labels: number[] | Int32Array;
  features: EmbeddedColumn[];
  /** Rows in the file; more than `labels.length` when the page holds a sample. */
  totalRows: number;
  /** Present when the rows are a stratified sample of the file's. */
  sample?: { seed: number; rows: number };
  /** With `sample`: each row's number in the file (1 = first data row). */
  rowNumbers?: number[] | Int32Array;
}

export type EmbeddedColumn =
  | { kind: 'numeric'; name: string; values: (number | null)[] | Float64Array }
  | { kind: 'categorical'; name: string; categories: string[]; codes: number[] | Int32Array };

/**
 * `data` as page JSON (`sample` when the rows are a sample of `totalRows`), or `packed` in typed
 * arrays of its own (no view of `data`'s), ready to be transferred (`packedBuffers`).
 */
export function embedDataset(
  data: Dataset,
  source: string,
  totalRows: number,
  sample?: EmbeddedData['sample'] & { picked: Int32Array },
  packed = false,
): EmbeddedData {
  const features = data.features.map(
    (col): EmbeddedColumn =>
      col.kind === 'numeric'
        ? {
            kind: 'numeric',
            name: col.name,
            values: packed
              ? Float64Array.from(col.values)
              : Array.from(col.values, (v) => (Number.isNaN(v) ? null : v)),
          }
        : {
            kind: 'categorical',
            name: col.name,
            categories: col.categories,
            codes: packed ? col.codes.slice() : Array.from(col.codes),
          },
  );
  const rowNumbers = sample && (packed ? sample.picked.map((r) => r + 1) : Array.from(sample.picked, (r) => r + 1));
  return {
    source,
    target: data.targetName,
    classes: data.classes,
    labels: packed ? data.labels.slice() : Array.from(data.labels),
    features,
    totalRows,
    ...(sample && rowNumbers ? { sample: { seed: sample.seed, rows: sample.rows }, rowNumbers } : {}),
  };
}

/**
 * What the page's main thread holds of a data set: everything but its columns' values (those stay
 * with the page's data keeper and its workers), enough to write the page's texts and forms.
 */
export interface DataShape {
  source: string;
  target: string;
  classes: ClassLabel[];
  /** Rows the page holds (the sample's when it holds one). */
  rows: number;
  features: ColumnShape[];
  totalRows: number;
  sample?: { seed: number; rows: number };
}

export type ColumnShape =
  | { kind: 'numeric'; name: string }
  | { kind: 'categorical'; name: string; categories: string[] };

/** `data` without its columns' values. */
export function dataShape(data: EmbeddedData): DataShape {
  return {
    source: data.source,
    target: data.target,
    classes: data.classes,
    rows: data.labels.length,
    features: data.features.map(
      (f): ColumnShape =>
        f.kind === 'numeric'
          ? { kind: 'numeric', name: f.name }
          : { kind: 'categorical', name: f.name, categories: f.categories },
    ),
    totalRows: data.totalRows,
    ...(data.sample ? { sample: data.sample } : {}),
  };
}

/** A packed copy of `data` (page JSON or packed): typed arrays of its own, ready to be transferred. */
export function packedCopy(data: EmbeddedData): EmbeddedData {
  const ints = (xs: ArrayLike<number>) => Int32Array.from(xs);
  return {
    ...data,
    labels: ints(data.labels),
    features: data.features.map(
      (f): EmbeddedColumn =>
        f.kind === 'numeric'
          ? { ...f, values: Float64Array.from(f.values as ArrayLike<number | null>, (v) => (v === null ? NaN : v)) }
          : { ...f, codes: ints(f.codes) },
    ),
    ...(data.rowNumbers ? { rowNumbers: ints(data.rowNumbers) } : {}),
  };
}

/** The buffers of packed `data`'s typed arrays, to transfer it to another thread. */
export function packedBuffers(data: EmbeddedData): ArrayBuffer[] {
  const arrays: unknown[] = [
    data.labels,
    data.rowNumbers,
    ...data.features.map((f) => (f.kind === 'numeric' ? f.values : f.codes)),
  ];
  const buffers = new Set<ArrayBuffer>();
  for (const a of arrays) if (ArrayBuffer.isView(a)) buffers.add(a.buffer as ArrayBuffer);
  return [...buffers];
}

/** The Dataset of page JSON (typed arrays again). */
export function datasetFromEmbedded(e: EmbeddedData): Dataset {
  const features = e.features.map(
    (col): Column =>
      col.kind === 'numeric'
        ? {
            kind: 'numeric',
            name: col.name,
            values: Float64Array.from(col.values as ArrayLike<number | null>, (v) => (v === null ? NaN : v)),
          }
        : { kind: 'categorical', name: col.name, categories: col.categories, codes: Int32Array.from(col.codes) },
  );
  return {
    features,
    labels: Int32Array.from(e.labels),
    classes: e.classes,
    targetName: e.target,
    nRows: e.labels.length,
    source: e.source,
  };
}

/** Whether a column has at least two distinct known values (a split can use it). */
export function usableColumn(col: Column): boolean {
  let first: number | undefined;
  const n = col.kind === 'numeric' ? col.values.length : col.codes.length;
  for (let i = 0; i < n; i++) {
    const v = col.kind === 'numeric' ? col.values[i] : col.codes[i];
    if (col.kind === 'numeric' ? Number.isNaN(v) : v < 0) continue;
    if (first === undefined) first = v;
    else if (v !== first) return true;
  }
  return false;
}

/**
 * GroveError when no tree can be grown worth exploring: one class, or no feature with two
 * distinct known values. The page runs the same check, for data handed to it another way.
 */
export function checkExplorable(data: Dataset): void {
  const file = data.source;
  const present = new Set<number>();
  for (let i = 0; i < data.nRows && present.size < 2; i++) present.add(data.labels[i]);
  if (present.size < 2)
    throw new GroveError(
      `only one class (${String(data.classes[data.labels[0]] ?? data.classes[0])}) in '${data.targetName}': ` +
        'every tree is a single leaf, nothing to explore',
      { file, code: 'E_DATA' },
    );
  if (!data.features.some(usableColumn))
    throw new GroveError(
      `no usable feature: every column but '${data.targetName}' has fewer than two distinct known values`,
      { file, code: 'E_DATA' },
    );
}
