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
 * - A column of another type (nested list, struct, binary, date…) is skipped with a warning, or
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
    this.sinks = fields.map((f, j) => {
      if (f.kind === 'number') return new NumberColumnSink(nRows);
      if (f.kind === 'text' || f.kind === 'boolean') return new TextColumnSink(nRows, f.kind === 'boolean');
      if (f.kind === 'value') return new ValueColumnSink(nRows, isMissing);
      if (plan.dropped.has(j)) return undefined; // left out by the caller: no warning
      if (j === plan.targetIdx)
        throw new GroveError(`the target column has type ${f.type}, which grove cannot read as class labels`, {
          file,
          code: 'E_DATA',
          column: f.name,
        });
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
      if (s && j !== this.targetIdx && !this.dropped.has(j))
        features.push(s.finishFeature(place(j), this.forced.get(fields[j].name), options.float32 === true));
    });
    const source = file !== undefined ? { source: file } : {};
    if (this.targetIdx < 0)
      return { features, labels: new Int32Array(nRows).fill(-1), classes: [], targetName: '', nRows, ...source };
    const { labels, classes } = this.sinks[this.targetIdx]!.finishTarget(place(this.targetIdx));
    return { features, labels, classes, targetName: fields[this.targetIdx].name, nRows, ...source };
  }
}
