/** The typed columns' sinks: numbers, text and JS values by row, each turned into a Dataset column. */
import { GroveError } from '../core/errors.js';
import { booleanClasses, orderCategories, orderClasses } from './class-order.js';
import type { CategoricalColumn, ClassLabel, Column } from './dataset.js';
import { isMissingToken } from './dataset.js';
import { float32TooLarge, isNumericToken } from './tokens.js';
import type { NumberSink, Place, TextSink, ValueSink } from './typed-fields.js';

export type Sink = NumberColumnSink | TextColumnSink | ValueColumnSink;

export class NumberColumnSink implements NumberSink {
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

export class TextColumnSink implements TextSink {
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
export class ValueColumnSink implements ValueSink {
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

export function missingLabel(place: Place, i: number): GroveError {
  return new GroveError('the target (class) value is missing; every row needs a class label', {
    file: place.file,
    code: 'E_DATA',
    row: place.rowOf(i),
    column: place.name,
  });
}

/** A categorical column from first-appearance codes and values, ordered as encode.ts orders them. */
export function finishCategorical(name: string, codes: Int32Array, values: string[]): CategoricalColumn {
  return { kind: 'categorical', name, codes, categories: orderCategories(values, codes, codes.length) };
}

/** The class list of first-appearance label codes (rewritten in place to index it). */
export function sortClasses(labels: Int32Array, distinct: readonly string[]): ClassLabel[] {
  const { classes, remap } = orderClasses(distinct);
  for (let i = 0; i < labels.length; i++) labels[i] = remap[labels[i]];
  return classes;
}
