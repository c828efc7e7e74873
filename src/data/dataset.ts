/**
 * Columnar, typed-array storage for a classification data set. Pure data: no Node imports,
 * so the core runs in a browser or a worker.
 */

/**
 * A class label as the user gave it: any string or number, or a boolean from a typed source
 * (an Arrow/Parquet BOOLEAN target, API rows or JSON Lines with `true`/`false` labels).
 */
export type ClassLabel = string | number | boolean;

/**
 * Numeric values: float64, or float32 to halve the memory of a large data set (readers'
 * `float32` option). Trees grown from float32 columns are exact for those values.
 */
export type NumericValues = Float64Array | Float32Array;

/**
 * What the numbers of a column read from dates or times count: seconds since 1970-01-01 00:00
 * (`epoch-seconds`: dates, timestamps; UTC for a time-zone-aware one, the wall clock's own
 * reading otherwise) or seconds since midnight (`day-seconds`: times of day).
 */
export type TimeUnit = 'epoch-seconds' | 'day-seconds';

/** The time units, for schemas and messages. */
export const TIME_UNITS: readonly TimeUnit[] = ['epoch-seconds', 'day-seconds'];

/** A numeric feature: one float per row, `NaN` = missing. */
export interface NumericColumn {
  readonly kind: 'numeric';
  readonly name: string;
  readonly values: NumericValues;
  /** The column holds dates or times, as seconds in this unit. */
  readonly unit?: TimeUnit;
}

/** A categorical feature: dictionary codes into `categories`, `-1` = missing. */
export interface CategoricalColumn {
  readonly kind: 'categorical';
  readonly name: string;
  readonly codes: Int32Array;
  readonly categories: string[];
}

export type Column = NumericColumn | CategoricalColumn;

/** Feature kind, as in a model file's schema. */
export type FeatureKind = Column['kind'];

/**
 * A labelled data set in columnar form.
 * `labels[i]` is an index into `classes`; `weights` (optional) holds one non-negative weight per row.
 */
export interface Dataset {
  readonly features: Column[];
  readonly labels: Int32Array;
  readonly classes: ClassLabel[];
  readonly targetName: string;
  readonly nRows: number;
  readonly weights?: Float64Array;
  /** Where the rows came from (a file path), for error messages. */
  readonly source?: string;
}

/** True when some feature of `data` has a missing value. */
export function hasMissing(data: Dataset): boolean {
  return data.features.some((col) =>
    col.kind === 'numeric' ? col.values.some((v) => Number.isNaN(v)) : col.codes.some((c) => c < 0),
  );
}

/** Missing-value test shared by readers and encoders: an empty field or `?` (a non-string is not a token). */
export function isMissingToken(raw: string): boolean {
  if (typeof raw !== 'string') return false;
  const t = raw.trim();
  return t === '' || t === '?';
}

/**
 * The Dataset's own fields, for posting to a worker: a reader's extra fields (such as a lazy
 * cache) are left behind.
 */
export function plainData(data: Dataset): Dataset {
  const { features, labels, classes, targetName, nRows, weights, source } = data;
  return {
    features,
    labels,
    classes,
    targetName,
    nRows,
    ...(weights ? { weights } : {}),
    ...(source !== undefined ? { source } : {}),
  };
}
