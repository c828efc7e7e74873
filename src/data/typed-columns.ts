/**
 * Building a Dataset from typed columns (an Arrow table, a Parquet file read by grove's decoder or
 * through DuckDB): numbers go straight into a Float64Array, text straight into dictionary codes,
 * never a table of string cells. The result follows encodeTable's rules (encode.ts) so the same
 * data read from a CSV file or from a typed file give identical Datasets:
 *
 * - A number column is numeric (null = missing); forced categorical, its values become the
 *   categories `String(v)`. As the target, its distinct values are the (numeric) classes.
 * - A text column is read as CSV cells are: trimmed, empty or `?` missing, numeric when every
 *   value is a finite decimal number, else categorical (first-appearance order, numeric sort when
 *   every category looks like a number).
 * - A boolean column is categorical (`true`/`false`); as the target, its classes are the booleans
 *   `false`, `true` (a label keeps its type: predict returns booleans).
 * - A date, timestamp or time column arrives as numbers (seconds, `TypedField.time`): a numeric
 *   feature that records its unit; refused as the target (a point in time is no class label).
 * - A column of another type (nested list, struct, binary…) is skipped with a warning, or
 *   refused when it is the target.
 *
 * PURE: no Node imports.
 */

import { GroveError, printable } from '../core/errors.js';
import { indexColumns, planColumns } from './column-plan.js';
import type { Column, Dataset } from './dataset.js';
import { isMissingToken } from './dataset.js';
import type { NumberSink, Place, TextSink, TypedField, TypedReadOptions, ValueSink } from './typed-fields.js';
import { NumberColumnSink, type Sink, TextColumnSink, ValueColumnSink } from './typed-sinks.js';

/** The target column's type cannot hold class labels. */
function targetTypeError(f: TypedField, file: string | undefined): GroveError {
  return new GroveError(`the target column has type ${f.type}, which grove cannot read as class labels`, {
    file,
    code: 'E_DATA',
    column: f.name,
  });
}

/** Unscaled integers of at least this size have more digits than a double holds: its spacing there exceeds 1. */
const EXACT_INTEGERS = 2 ** 53;

/**
 * The warning for a decimal column whose doubles lost digits: a value whose unscaled integer
 * (`|v| · 10^scale`) reaches 2^53, where the nearest double no longer tells it from the next
 * decimal of its scale. Only decimals of more than 15 digits can.
 */
function warnLostDigits(
  values: ArrayLike<number>,
  field: TypedField,
  { precision, scale }: { precision: number; scale: number },
  place: Place,
  warn: (message: string) => void,
): void {
  if (precision <= 15) return;
  const limit = EXACT_INTEGERS / 10 ** scale;
  let lost = 0;
  let first = -1;
  for (let i = 0; i < values.length; i++)
    if (Math.abs(values[i]) >= limit) {
      lost++;
      if (first < 0) first = i;
    }
  if (lost === 0) return;
  const where = place.file !== undefined ? `${place.file}: ` : '';
  warn(
    `${where}column '${place.name}' of type ${field.type}: ${lost} ${lost === 1 ? 'value has' : 'values have'} ` +
      `more digits than a double holds (first at row ${place.rowOf(first)}); read as the nearest doubles`,
  );
}

/**
 * Collects the columns of a typed source, then builds the Dataset. Fill each {@link sink} (one per
 * field; `undefined` for a skipped field) in any order, then call {@link finish}. A source of
 * unknown length (a stream) passes a first capacity, calls {@link reserve} before each batch of
 * rows and gives the row count to {@link finish}.
 */
export class TypedTableBuilder {
  private readonly sinks: Array<Sink | undefined>;
  private readonly targetIdx: number;
  private readonly forced: Map<string, 'numeric' | 'categorical'>;
  /** Fields left out by `drop` / `features`: filled like the others (every reader fills every sink), not kept. */
  private readonly dropped: ReadonlySet<number>;
  private capacity: number;
  private readonly warn: (message: string) => void;

  /** `nRows`: the row count, or the first capacity of a stream's columns. */
  constructor(
    private readonly fields: readonly TypedField[],
    private readonly nRows: number,
    private readonly options: TypedReadOptions = {},
  ) {
    this.capacity = nRows;
    const file = options.source;
    const names = fields.map((f) => f.name);
    const plan = planColumns(names, indexColumns(names, file), options);
    this.targetIdx = plan.targetIdx;
    this.forced = plan.forced;
    if (nRows === 0) throw new GroveError('no data rows', { file, code: 'E_DATA' });
    const warn = options.onWarning ?? ((m: string) => console.warn(`grove: warning: ${printable(m)}`));
    const na = options.naTokens && new Set(options.naTokens.map((t) => t.trim()));
    const isMissing = na ? (text: string) => na.has(text.trim()) : isMissingToken;
    this.dropped = plan.dropped;
    this.warn = warn;
    this.sinks = fields.map((f, j) => {
      if (j === plan.targetIdx && f.time !== undefined) throw targetTypeError(f, file);
      if (f.kind === 'number') return new NumberColumnSink(nRows);
      if (f.kind === 'text' || f.kind === 'boolean') return new TextColumnSink(nRows, f.kind === 'boolean');
      if (f.kind === 'value') return new ValueColumnSink(nRows, isMissing);
      if (plan.dropped.has(j)) return undefined; // left out by the caller: no warning
      if (j === plan.targetIdx) throw targetTypeError(f, file);
      warn(`${file !== undefined ? `${file}: ` : ''}column '${f.name}' of type ${f.type} is skipped (not supported)`);
      return undefined;
    });
    if (this.sinks.every((s, j) => s === undefined || j === plan.targetIdx || plan.dropped.has(j)))
      throw new GroveError('no feature columns grove can read', { file, code: 'E_DATA' });
  }

  /** The sink of field `j`, or undefined when that field is skipped. */
  sink(j: number): NumberSink | TextSink | ValueSink | undefined {
    return this.sinks[j];
  }

  /** Make room for `rows` rows in all (growing by half at least, so a stream's copies stay linear). */
  reserve(rows: number): void {
    if (rows <= this.capacity) return;
    this.capacity = Math.max(rows, Math.ceil(this.capacity * 1.5));
    for (const s of this.sinks) s?.resize(this.capacity);
  }

  /**
   * The Dataset of the first `nRows` rows (default: the row count given to the constructor);
   * `rowNumbers`: each row's line in the file for errors (default: `firstDataRow` + index).
   */
  finish(nRows = this.nRows, rowNumbers?: ArrayLike<number>): Dataset {
    const { fields, options } = this;
    const file = options.source;
    if (nRows === 0) throw new GroveError('no data rows', { file, code: 'E_DATA' });
    if (nRows !== this.capacity) for (const s of this.sinks) s?.resize(nRows);
    const first = options.firstDataRow ?? 1;
    const rowOf = rowNumbers ? (i: number) => rowNumbers[i] : (i: number) => first + i;
    const place = (j: number): Place => ({ name: fields[j].name, file, rowOf });
    const features: Column[] = [];
    this.sinks.forEach((s, j) => {
      if (!s || j === this.targetIdx || this.dropped.has(j)) return;
      const column = s.finishFeature(place(j), this.forced.get(fields[j].name), options.float32 === true);
      const unit = fields[j].time;
      features.push(unit !== undefined && column.kind === 'numeric' ? { ...column, unit } : column);
      const decimal = fields[j].decimal;
      if (decimal && column.kind === 'numeric') warnLostDigits(column.values, fields[j], decimal, place(j), this.warn);
    });
    const source = file !== undefined ? { source: file } : {};
    if (this.targetIdx < 0)
      return { features, labels: new Int32Array(nRows).fill(-1), classes: [], targetName: '', nRows, ...source };
    const { labels, classes } = this.sinks[this.targetIdx]!.finishTarget(place(this.targetIdx));
    return { features, labels, classes, targetName: fields[this.targetIdx].name, nRows, ...source };
  }
}
