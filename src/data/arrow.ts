/**
 * Apache Arrow tables into Datasets. Integer, float and decimal columns are numeric; string and
 * dictionary-encoded columns are read as text (numeric when every value is a number, as CSV cells
 * are, else categorical); booleans are categorical; nulls are missing. Other types (lists,
 * structs, binary, dates) are skipped with a warning, refused as the target. The rules are
 * {@link TypedTableBuilder}'s, shared with the Parquet reader.
 *
 * PURE: no Node imports (apache-arrow runs in a browser).
 */

import { type Data, DataType, type Table, util, type Vector } from 'apache-arrow';
import { GroveError } from '../core/errors.js';
import { describeType } from './check.js';
import type { Dataset } from './dataset.js';
import { type FieldKind, type TypedReadOptions, TypedTableBuilder } from './typed-columns.js';

/** How grove reads an Arrow column type. */
export function arrowFieldKind(type: DataType): FieldKind {
  if (DataType.isInt(type) || DataType.isFloat(type) || DataType.isDecimal(type)) return 'number';
  if (DataType.isUtf8(type) || DataType.isLargeUtf8(type)) return 'text';
  if (DataType.isBool(type)) return 'boolean';
  if (DataType.isDictionary(type)) {
    const inner = arrowFieldKind(type.dictionary);
    return inner === 'number' ? 'number' : inner === 'unsupported' ? 'unsupported' : 'text';
  }
  return 'unsupported';
}

/** A number from an Arrow cell (bigint, decimal's big number, or number). */
function toNumber(value: unknown, scale: number): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  // Decimal: a big-number view of the unscaled integer; parse its text so rounding is exact.
  const digits = util.bigNumToString(value as never);
  return scale === 0 ? Number(digits) : Number(`${digits}e-${scale}`);
}

/** Fill a number sink from one Arrow column (fast path for plain numeric arrays without nulls). */
function readNumbers(vector: Vector, set: (i: number, v: number | null) => void): void {
  const type = vector.type as DataType;
  const scale = DataType.isDecimal(type) ? type.scale : 0;
  const plain = (DataType.isFloat(type) && type.precision !== 0) || (DataType.isInt(type) && type.bitWidth <= 32);
  let row = 0;
  for (const chunk of vector.data as Data[]) {
    if (plain && chunk.nullCount === 0) {
      const values = chunk.values as ArrayLike<number>;
      for (let k = 0; k < chunk.length; k++) set(row + k, values[k]);
    } else {
      const part = vector.slice(row, row + chunk.length);
      for (let k = 0; k < chunk.length; k++) {
        const v = part.get(k);
        set(row + k, v === null || v === undefined ? null : toNumber(v, scale));
      }
    }
    row += chunk.length;
  }
}

function readText(vector: Vector, set: (i: number, v: string | null) => void): void {
  for (let i = 0; i < vector.length; i++) {
    const v = vector.get(i);
    set(i, v === null || v === undefined ? null : String(v));
  }
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
  const fields = table.schema.fields.map((f) => ({ name: f.name, kind: arrowFieldKind(f.type), type: String(f.type) }));
  const builder = new TypedTableBuilder(fields, table.numRows, options);
  fields.forEach((_, j) => {
    const sink = builder.sink(j);
    if (!sink) return;
    const vector = table.getChildAt(j)!;
    if (sink.kind === 'number') readNumbers(vector, (i, v) => sink.set(i, v));
    else readText(vector, (i, v) => sink.set(i, v));
  });
  return builder.finish();
}
