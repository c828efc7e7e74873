import { GroveError } from '../core/errors.js';
import type { Dataset } from '../data/dataset.js';
import { isMissingToken } from '../data/dataset.js';
import type { FeatureSchema } from './schema.js';

/** One input column aligned to the model's features: numeric values, or category codes (-1 = missing or unknown). */
export type AlignedColumn = Float64Array | Float32Array | Int32Array;

/** Rows to predict: a loaded Dataset, objects keyed by feature name, or arrays in the model's feature order. */
export type PredictInput = Dataset | ReadonlyArray<Record<string, unknown>> | ReadonlyArray<ReadonlyArray<unknown>>;

export interface Aligned {
  columns: AlignedColumn[];
  nRows: number;
}

function isDataset(input: PredictInput): input is Dataset {
  return !Array.isArray(input) && typeof (input as Dataset).nRows === 'number';
}

/** Map input rows onto the model's features: numeric → Float64Array, categorical → model codes. */
export function alignInput(features: FeatureSchema[], input: PredictInput): Aligned {
  if (isDataset(input)) return alignDataset(features, input);
  const rows = input as ReadonlyArray<unknown>;
  const nRows = rows.length;
  const columns = features.map((f, j) => {
    const get = (row: unknown, i: number): unknown => {
      if (Array.isArray(row)) {
        if (row.length < features.length)
          throw new GroveError(`row ${i}: expected ${features.length} values, found ${row.length}`);
        return row[j];
      }
      if (row === null || typeof row !== 'object') throw new GroveError(`row ${i}: expected an object or an array`);
      return (row as Record<string, unknown>)[f.name];
    };
    if (f.kind === 'numeric') {
      const out = new Float64Array(nRows);
      for (let i = 0; i < nRows; i++) out[i] = toNumber(get(rows[i], i), f.name, i);
      return out;
    }
    const codeOf = dictionary(f);
    const out = new Int32Array(nRows);
    for (let i = 0; i < nRows; i++) {
      const v = get(rows[i], i);
      out[i] = isMissing(v) ? -1 : (codeOf.get(String(v).trim()) ?? -1);
    }
    return out;
  });
  return { columns, nRows };
}

function alignDataset(features: FeatureSchema[], data: Dataset): Aligned {
  const byName = new Map(data.features.map((c) => [c.name, c]));
  const columns = features.map((f): AlignedColumn => {
    const col = byName.get(f.name);
    if (!col) throw new GroveError(`column '${f.name}' required by the model is missing`, { file: data.source });
    if (f.kind === 'numeric') {
      if (col.kind === 'numeric') return col.values;
      // A column the reader saw as categorical (e.g. all missing): parse its categories.
      const asNumber = col.categories.map((c) => toNumber(c, f.name, -1, data.source));
      return Float64Array.from(col.codes, (code) => (code < 0 ? NaN : asNumber[code]));
    }
    const codeOf = dictionary(f);
    if (col.kind === 'categorical') {
      const remap = col.categories.map((c) => codeOf.get(c) ?? -1);
      return Int32Array.from(col.codes, (code) => (code < 0 ? -1 : remap[code]));
    }
    return Int32Array.from(col.values, (v) => (Number.isNaN(v) ? -1 : (codeOf.get(String(v)) ?? -1)));
  });
  return { columns, nRows: data.nRows };
}

function dictionary(f: FeatureSchema): Map<string, number> {
  return new Map((f.categories ?? []).map((c, i) => [c, i]));
}

function isMissing(v: unknown): boolean {
  return (
    v === null ||
    v === undefined ||
    (typeof v === 'number' && Number.isNaN(v)) ||
    (typeof v === 'string' && isMissingToken(v))
  );
}

function toNumber(v: unknown, column: string, row: number, file?: string): number {
  if (isMissing(v)) return NaN;
  const x = typeof v === 'number' ? v : Number(String(v).trim());
  if (!Number.isFinite(x)) {
    throw new GroveError(`expected a number, found '${String(v)}'`, { file, column, ...(row >= 0 ? { row } : {}) });
  }
  return x;
}
