/**
 * Apache Arrow tables into Datasets. Integer, float and decimal columns are numeric; dates and
 * timestamps are numeric, in seconds since 1970-01-01, and times of day in seconds since
 * midnight (refused as the target); string and dictionary-encoded columns are read as text
 * (numeric when every value is a number, as CSV cells are, else categorical); booleans are
 * categorical; nulls are missing. Other types (lists, structs, binary, intervals) are skipped
 * with a warning, refused as the target. The rules are
 * {@link TypedTableBuilder}'s, shared with the Parquet reader.
 *
 * PURE: no Node imports. Types only from apache-arrow: the caller brings its own Arrow build, and
 * neither the CLI's start nor the browser bundle pays for loading the library.
 */

import type { Data, DataType, Dictionary, Float, Int, RecordBatch, Schema, Table, Vector } from 'apache-arrow';
import { GroveError } from '../core/errors.js';
import { describeType } from './check.js';
import type { Dataset, TimeUnit } from './dataset.js';
import { TypedTableBuilder } from './typed-columns.js';
import type { FieldKind, NumberSink, TextSink, TypedField, TypedReadOptions } from './typed-fields.js';

/** Arrow's type ids (apache-arrow's `Type` enum: Schema.fbs numbering, Dictionary as -1). */
export const ARROW_TYPE_ID = {
  Int: 2,
  Float: 3,
  Utf8: 5,
  Bool: 6,
  Decimal: 7,
  Date: 8,
  Time: 9,
  Timestamp: 10,
  LargeUtf8: 20,
  Dictionary: -1,
} as const;

/** Divisors from a time type's stored integers to seconds, by Arrow's TimeUnit (SECOND … NANOSECOND). */
const PER_SECOND = [1, 1e3, 1e6, 1e9];

/**
 * A date, time or timestamp type's unit and how its stored integers become seconds (`times`, then
 * divided by `per`), else undefined.
 */
function arrowTime(type: DataType): { unit: TimeUnit; times: number; per: number } | undefined {
  const id = type.typeId as number;
  const unit = (type as { unit?: number } & DataType).unit ?? 0;
  if (id === ARROW_TYPE_ID.Date)
    return unit === 0 ? { unit: 'epoch-seconds', times: 86400, per: 1 } : { unit: 'epoch-seconds', times: 1, per: 1e3 };
  if (id === ARROW_TYPE_ID.Timestamp) return { unit: 'epoch-seconds', times: 1, per: PER_SECOND[unit] ?? 1 };
  if (id === ARROW_TYPE_ID.Time) return { unit: 'day-seconds', times: 1, per: PER_SECOND[unit] ?? 1 };
  return undefined;
}

/** How grove reads an Arrow column type. */
export function arrowFieldKind(type: DataType): FieldKind {
  const id = type.typeId as number;
  if (id === ARROW_TYPE_ID.Int || id === ARROW_TYPE_ID.Float || id === ARROW_TYPE_ID.Decimal) return 'number';
  if (arrowTime(type)) return 'number';
  if (id === ARROW_TYPE_ID.Utf8 || id === ARROW_TYPE_ID.LargeUtf8) return 'text';
  if (id === ARROW_TYPE_ID.Bool) return 'boolean';
  if (id === ARROW_TYPE_ID.Dictionary) {
    const inner = arrowFieldKind((type as Dictionary).dictionary);
    return inner === 'number' ? 'number' : inner === 'unsupported' ? 'unsupported' : 'text';
  }
  return 'unsupported';
}

/** A number from an Arrow cell (bigint, decimal's big number, or number). */
function toNumber(value: unknown, scale: number): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  // Decimal: a big-number view of the unscaled integer, whose text is its digits; parse the text so rounding is exact.
  const digits = String(value);
  return scale === 0 ? Number(digits) : Number(`${digits}e-${scale}`);
}

/** Fill rows `at…` of a number sink from a date, time or timestamp column: its stored integers as seconds. */
function readTimes(vector: Vector, sink: NumberSink, at: number, { times, per }: { times: number; per: number }): void {
  let row = 0;
  for (const chunk of vector.data as Data[]) {
    const values = chunk.values as ArrayLike<number | bigint>;
    for (let k = 0; k < chunk.length; k++)
      sink.set(at + row + k, chunk.nullCount > 0 && !chunk.getValid(k) ? null : (Number(values[k]) * times) / per);
    row += chunk.length;
  }
}

/** Fill rows `at…` of a number sink from one Arrow column (fast path for plain numeric arrays without nulls). */
function readNumbers(vector: Vector, sink: NumberSink, at: number): void {
  const type = vector.type as DataType;
  const time = arrowTime(type);
  if (time) {
    readTimes(vector, sink, at, time);
    return;
  }
  const id = type.typeId as number;
  const scale = id === ARROW_TYPE_ID.Decimal ? (type as { scale: number } & DataType).scale : 0;
  const plain =
    (id === ARROW_TYPE_ID.Float && (type as Float).precision !== 0) ||
    (id === ARROW_TYPE_ID.Int && (type as Int).bitWidth <= 32);
  let row = 0;
  for (const chunk of vector.data as Data[]) {
    if (plain && chunk.nullCount === 0) {
      sink.setMany(
        at + row,
        (chunk.values as ArrayLike<number>).length === chunk.length
          ? chunk.values
          : chunk.values.subarray(0, chunk.length),
      );
    } else {
      const part = vector.slice(row, row + chunk.length);
      for (let k = 0; k < chunk.length; k++) {
        const v = part.get(k);
        sink.set(at + row + k, v === null || v === undefined ? null : toNumber(v, scale));
      }
    }
    row += chunk.length;
  }
}

/** A dictionary's texts, made once per dictionary vector (a stream reuses it across batches). */
const dictionaryTexts = new WeakMap<Vector, string[]>();

function textsOf(dictionary: Vector): string[] {
  let texts = dictionaryTexts.get(dictionary);
  if (!texts) {
    texts = Array.from({ length: dictionary.length }, (_, k) => {
      const v = dictionary.get(k);
      return v === null || v === undefined ? '' : String(v); // '' is missing
    });
    dictionaryTexts.set(dictionary, texts);
  }
  return texts;
}

/**
 * Fill rows `at…` of a text sink: dictionary columns by index (one lookup per distinct text), others value by
 * value.
 */
function readText(vector: Vector, sink: TextSink, at: number): void {
  if ((vector.type.typeId as number) === ARROW_TYPE_ID.Dictionary) {
    let row = 0;
    for (const chunk of vector.data as Data[]) {
      const indexes = new Int32Array(chunk.length);
      const keys = chunk.values as ArrayLike<number | bigint>;
      for (let k = 0; k < chunk.length; k++)
        indexes[k] = chunk.nullCount > 0 && !chunk.getValid(k) ? -1 : Number(keys[k]);
      sink.setIndexed(at + row, indexes, textsOf(chunk.dictionary as Vector));
      row += chunk.length;
    }
    return;
  }
  for (let i = 0; i < vector.length; i++) {
    const v = vector.get(i);
    sink.set(at + i, v === null || v === undefined ? null : String(v));
  }
}

/** How grove reads each field of an Arrow schema. */
export function arrowFields(schema: Schema): TypedField[] {
  return schema.fields.map((f) => {
    const field: TypedField = { name: f.name, kind: arrowFieldKind(f.type), type: String(f.type) };
    const time = arrowTime(f.type);
    if (time) field.time = time.unit;
    if ((f.type.typeId as number) === ARROW_TYPE_ID.Decimal) {
      const { precision, scale } = f.type as { precision: number; scale: number } & DataType;
      field.decimal = { precision, scale };
    }
    return field;
  });
}

/**
 * Copy the columns of an Arrow table or record batch into rows `at…` of a builder made from its
 * schema ({@link arrowFields}); a stream calls it batch by batch.
 */
export function readArrowColumns(builder: TypedTableBuilder, batch: Table | RecordBatch, at: number): void {
  batch.schema.fields.forEach((_, j) => {
    const sink = builder.sink(j);
    if (!sink) return;
    const vector = batch.getChildAt(j)!;
    if (sink.kind === 'number') readNumbers(vector, sink, at);
    else if (sink.kind === 'text') readText(vector, sink, at);
  });
}

/**
 * Build a Dataset from an Apache Arrow `Table` (e.g. `tableFromIPC(bytes)`), following the same
 * rules as the CSV reader, so the same data give an identical Dataset. `options` are the readers'
 * (`target`, `categorical`, `numeric`, `float32`, `source`, …) plus `onWarning` for skipped
 * columns. Throws {@link GroveError} on bad input; row numbers count the table's rows from 1.
 */
export function datasetFromArrow(table: Table, options: TypedReadOptions = {}): Dataset {
  if (table === null || typeof table !== 'object' || !('schema' in table) || typeof table.getChildAt !== 'function')
    throw new GroveError(`datasetFromArrow: expected an Apache Arrow Table, got ${describeType(table)}`);
  const builder = new TypedTableBuilder(arrowFields(table.schema), table.numRows, options);
  readArrowColumns(builder, table, 0);
  return builder.finish();
}
