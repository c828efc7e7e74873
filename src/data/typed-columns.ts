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
import { booleanClasses, orderCategories, orderClasses } from './class-order.js';
import { indexColumns, planColumns } from './column-plan.js';
import type { CategoricalColumn, ClassLabel, Column, Dataset } from './dataset.js';
import { isMissingToken } from './dataset.js';
import type { EncodeOptions } from './encode-options.js';
import { float32TooLarge, isNumericToken } from './tokens.js';

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

type Sink = NumberColumnSink | TextColumnSink | ValueColumnSink;

/** Where a cell is, for error messages. */
interface Place {
  name: string;
  file: string | undefined;
  rowOf: (i: number) => number;
}

class NumberColumnSink implements NumberSink {
  readonly kind = 'number';
  values: Float64Array;
  constructor(nRows: number) {
    this.values = new Float64Array(nRows);
  }
  /** Room for `capacity` rows, or exactly `capacity` rows when fewer (the read ended). */
  resize(capacity: number): void {
    const next = new Float64Array(capacity);
    next.set(capacity < this.values.length ? this.values.subarray(0, capacity) : this.values);
    this.values = next;
  }
  set(i: number, value: number | null): void {
    this.values[i] = value === null ? NaN : value;
  }
  setMany(start: number, values: ArrayLike<number>): void {
    this.values.set(values, start);
  }
  setFloat64Bytes(start: number, bytes: Uint8Array): void {
    const { values } = this;
    new Uint8Array(values.buffer, values.byteOffset + start * 8, bytes.length).set(bytes);
  }

  finishFeature(place: Place, forced: 'numeric' | 'categorical' | undefined, float32: boolean): Column {
    const { values } = this;
    if (forced === 'categorical') {
      const { codes, distinct } = this.dictionary(place, false);
      return finishCategorical(place.name, codes, distinct);
    }
    let missing = 0;
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      const stored = float32 ? Math.fround(v) : v;
      // One test for the usual finite value: x - x is 0 for it, NaN for NaN and ±Infinity.
      if (stored - stored === 0) continue;
      if (Number.isNaN(v)) {
        missing++;
        continue;
      }
      const why = Number.isFinite(v) ? float32TooLarge(String(v)) : `value ${v} is not a finite number`;
      throw new GroveError(why, { file: place.file, code: 'E_DATA', row: place.rowOf(i), column: place.name });
    }
    const present = values.length - missing;
    // An all-missing column is categorical with no categories, as an all-empty CSV column is.
    if (present === 0 && forced !== 'numeric')
      return finishCategorical(place.name, new Int32Array(values.length).fill(-1), []);
    return { kind: 'numeric', name: place.name, values: float32 ? Float32Array.from(values) : values };
  }

  finishTarget(place: Place): { labels: Int32Array; classes: ClassLabel[] } {
    const { codes, distinct } = this.dictionary(place, true);
    return { labels: codes, classes: sortClasses(codes, distinct) };
  }

  /** First-appearance codes of the values and their texts (`String(v)`, which parses back to `v`). */
  private dictionary(place: Place, target: boolean): { codes: Int32Array; distinct: string[] } {
    const { values } = this;
    const codes = new Int32Array(values.length);
    const dict = new Map<number, number>();
    const distinct: string[] = [];
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (Number.isNaN(v)) {
        if (target) throw missingLabel(place, i);
        codes[i] = -1;
        continue;
      }
      let code = dict.get(v);
      if (code === undefined) {
        if (target && !Number.isFinite(v))
          throw new GroveError(`class value ${v} is not a finite number`, {
            file: place.file,
            code: 'E_DATA',
            row: place.rowOf(i),
            column: place.name,
          });
        code = distinct.length;
        dict.set(v, code);
        distinct.push(String(v));
      }
      codes[i] = code;
    }
    return { codes, distinct };
  }
}

class TextColumnSink implements TextSink {
  readonly kind = 'text';
  codes: Int32Array;
  private readonly dict = new Map<string, number>();
  private readonly distinct: string[] = [];
  /** The last dictionary given to setIndexed and each entry's code (-2: not looked up yet). */
  private dictionary: readonly string[] | undefined;
  private dictionaryCodes = new Int32Array(0);
  /**
   * `boolean`: the texts are a boolean column's `true`/`false`, and as the target its classes are
   * booleans. `isMissing`: which (untrimmed) texts are missing.
   */
  constructor(
    nRows: number,
    private boolean = false,
    private readonly isMissing: (text: string) => boolean = isMissingToken,
  ) {
    this.codes = new Int32Array(nRows);
  }
  resize(capacity: number): void {
    const next = new Int32Array(capacity);
    next.set(capacity < this.codes.length ? this.codes.subarray(0, capacity) : this.codes);
    this.codes = next;
  }
  /** Whether the target's classes are booleans (a JSON column of booleans only). */
  setBoolean(boolean: boolean): void {
    this.boolean = boolean;
  }
  set(i: number, value: string | null): void {
    this.codes[i] = value === null ? -1 : this.codeOf(value);
  }
  setIndexed(start: number, indexes: ArrayLike<number>, dictionary: readonly string[]): void {
    if (dictionary !== this.dictionary) {
      this.dictionary = dictionary;
      this.dictionaryCodes = new Int32Array(dictionary.length).fill(-2);
    }
    const { codes, dictionaryCodes } = this;
    for (let k = 0; k < indexes.length; k++) {
      const x = indexes[k];
      if (x < 0) {
        codes[start + k] = -1;
        continue;
      }
      let code = dictionaryCodes[x];
      if (code === -2) code = dictionaryCodes[x] = this.codeOf(dictionary[x]);
      codes[start + k] = code;
    }
  }
  /** The code of a (raw) text in first-appearance order, -1 for a missing token. */
  private codeOf(value: string): number {
    if (this.isMissing(value)) return -1;
    const t = value.trim();
    let code = this.dict.get(t);
    if (code === undefined) {
      code = this.distinct.length;
      this.dict.set(t, code);
      this.distinct.push(t);
    }
    return code;
  }

  finishFeature(place: Place, forced: 'numeric' | 'categorical' | undefined, float32: boolean): Column {
    const { codes, distinct } = this;
    if (forced !== 'categorical') {
      // Numeric when every category is a number (as encodeTable decides for CSV cells).
      const numbers = new Float64Array(distinct.length);
      let bad = -1;
      for (let k = 0; k < distinct.length && bad < 0; k++) {
        const v = Number(distinct[k]);
        numbers[k] = v;
        if (!isNumericToken(distinct[k])) bad = k;
        else if (float32 && !Number.isFinite(Math.fround(v)))
          throw new GroveError(float32TooLarge(distinct[k]), {
            file: place.file,
            code: 'E_DATA',
            row: place.rowOf(codes.indexOf(k)),
            column: place.name,
          });
      }
      if (forced === 'numeric' && bad >= 0) {
        const i = codes.indexOf(bad);
        throw new GroveError(`expected a number, found '${distinct[bad]}'`, {
          file: place.file,
          code: 'E_DATA',
          row: place.rowOf(i),
          column: place.name,
        });
      }
      if (bad < 0 && (distinct.length > 0 || forced === 'numeric')) {
        const values = float32 ? new Float32Array(codes.length) : new Float64Array(codes.length);
        for (let i = 0; i < codes.length; i++) values[i] = codes[i] < 0 ? NaN : numbers[codes[i]];
        return { kind: 'numeric', name: place.name, values };
      }
    }
    return finishCategorical(place.name, codes, distinct);
  }

  finishTarget(place: Place): { labels: Int32Array; classes: ClassLabel[] } {
    const i = this.codes.indexOf(-1);
    if (i >= 0) throw missingLabel(place, i);
    const classes = sortClasses(this.codes, this.distinct);
    return { labels: this.codes, classes: this.boolean ? booleanClasses(classes) : classes };
  }
}

/**
 * A column of JS values: numbers while only numbers (and missing) arrive, then text — the numbers so
 * far re-fed as their texts — from the first string or boolean on.
 */
class ValueColumnSink implements ValueSink {
  readonly kind = 'value';
  private numbers: NumberColumnSink | undefined;
  private text: TextColumnSink | undefined;
  /** Every value so far is a boolean. */
  private booleans = true;
  constructor(
    capacity: number,
    private readonly isMissing: (text: string) => boolean,
  ) {
    this.numbers = new NumberColumnSink(capacity);
  }
  set(i: number, value: number | string | boolean | null): void {
    if (typeof value !== 'boolean') this.booleans = false;
    if (this.numbers && (typeof value === 'number' || value === null)) {
      this.numbers.set(i, value);
      return;
    }
    const text = this.toText(i);
    text.set(
      i,
      typeof value === 'number' ? (Number.isNaN(value) ? null : String(value)) : value === null ? null : String(value),
    );
  }
  /** The text sink, made from the first `filled` numbers on the first non-number. */
  private toText(filled: number): TextColumnSink {
    if (this.text) return this.text;
    const numbers = this.numbers!;
    const text = new TextColumnSink(numbers.values.length, false, this.isMissing);
    for (let r = 0; r < filled; r++) {
      const v = numbers.values[r];
      text.set(r, Number.isNaN(v) ? null : String(v));
    }
    this.numbers = undefined;
    this.text = text;
    return text;
  }
  resize(capacity: number): void {
    (this.numbers ?? this.text)!.resize(capacity);
  }
  private get column(): NumberColumnSink | TextColumnSink {
    if (this.text) this.text.setBoolean(this.booleans);
    return (this.numbers ?? this.text)!;
  }
  finishFeature(place: Place, forced: 'numeric' | 'categorical' | undefined, float32: boolean): Column {
    return this.column.finishFeature(place, forced, float32);
  }
  finishTarget(place: Place): { labels: Int32Array; classes: ClassLabel[] } {
    return this.column.finishTarget(place);
  }
}

function missingLabel(place: Place, i: number): GroveError {
  return new GroveError('the target (class) value is missing; every row needs a class label', {
    file: place.file,
    code: 'E_DATA',
    row: place.rowOf(i),
    column: place.name,
  });
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

/** A categorical column from first-appearance codes and values, ordered as encode.ts orders them. */
function finishCategorical(name: string, codes: Int32Array, values: string[]): CategoricalColumn {
  return { kind: 'categorical', name, codes, categories: orderCategories(values, codes, codes.length) };
}

/** The class list of first-appearance label codes (rewritten in place to index it). */
function sortClasses(labels: Int32Array, distinct: readonly string[]): ClassLabel[] {
  const { classes, remap } = orderClasses(distinct);
  for (let i = 0; i < labels.length; i++) labels[i] = remap[labels[i]];
  return classes;
}
