/** What a typed source (Arrow, Parquet, DuckDB, JSON Lines) declares of its columns, and the sinks its values go to. */
import type { TimeUnit } from './dataset.js';
import type { EncodeOptions } from './encode-options.js';

/**
 * How a typed column's values arrive: numbers, text, booleans (as text), JS values of any of these
 * types (JSON), or not at all (unsupported).
 */
export type FieldKind = 'number' | 'text' | 'boolean' | 'value' | 'unsupported';

/**
 * A boolean column's texts by its 0/1 index, as a `boolean` field's text sink takes them (and as
 * DuckDB's `CAST(b AS VARCHAR)` writes them).
 */
export const BOOLEAN_TEXTS: readonly string[] = ['false', 'true'];

/** One column of a typed source: its name, how it is read, and its type's name for messages. */
export interface TypedField {
  name: string;
  kind: FieldKind;
  /** The source's own type name (`DOUBLE`, `Utf8`, `STRUCT(...)`), for warnings. */
  type: string;
  /**
   * A `number` field of dates or times, its numbers seconds in this unit: a numeric feature that
   * records the unit, never a class label.
   */
  time?: TimeUnit;
  /** A `number` field of decimals: its digits and scale (read as doubles, which may not hold every digit). */
  decimal?: { precision: number; scale: number };
}

/** Options of the typed readers: encodeTable's, and where warnings go (default `console.warn`). */
export interface TypedReadOptions extends EncodeOptions {
  /** Receives one line per warning (e.g. a skipped column). */
  onWarning?: (message: string) => void;
}

/** Receives column values by row index. */
export interface NumberSink {
  readonly kind: 'number';
  /** Row `i`'s value; `null` (or NaN) = missing. */
  set(i: number, value: number | null): void;
  /** Rows `start…start + values.length - 1` at once (NaN = missing). */
  setMany(start: number, values: ArrayLike<number>): void;
  /**
   * Rows `start…` from the bytes of float64 values in the platform's byte order (`bytes.length / 8`
   * of them, at any byte offset), copied as bytes: no alignment needed, no per-value work.
   */
  setFloat64Bytes(start: number, bytes: Uint8Array): void;
}

export interface TextSink {
  readonly kind: 'text';
  /** Row `i`'s text; `null` = missing. */
  set(i: number, value: string | null): void;
  /**
   * Rows `start…start + indexes.length - 1` hold `dictionary[indexes[k]]` (a negative index is
   * missing): each dictionary entry is looked up once, not once per row. Pass the same array
   * again for the next rows to reuse its lookups.
   */
  setIndexed(start: number, indexes: ArrayLike<number>, dictionary: readonly string[]): void;
}

/**
 * Receives JS values (JSON Lines) by row index, in row order, with {@link datasetFromRows}'s rules:
 * a number is its text `String(v)` (NaN missing), a boolean `true`/`false`, null missing.
 */
export interface ValueSink {
  readonly kind: 'value';
  /** Row `i`'s value; rows come in order. A non-finite number or another type is the caller's error to raise. */
  set(i: number, value: number | string | boolean | null): void;
}

/** Where a cell is, for error messages. */
export interface Place {
  name: string;
  file: string | undefined;
  rowOf: (i: number) => number;
}
