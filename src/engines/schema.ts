import { GroveError } from '../core/errors.js';
import { orderClasses } from '../data/class-order.js';
import { indexColumns, listColumns, planColumns } from '../data/column-plan.js';
import type { ClassLabel, TimeUnit } from '../data/dataset.js';
import { isNumericToken } from '../data/tokens.js';
import type { Engine, SqlValue } from './engine.js';
import { columnDouble, Params, timeUnitOf } from './engine.js';

/** Where the rows are: a FROM item (a table, a subquery, a file-reading function) and its name for messages. */
export interface EngineSource {
  /** The FROM item, its parameters bound with `p`. */
  from(p: Params): string;
  /** The source as messages and the model file name it (never a password). */
  readonly label: string;
  /** Cell texts (after trimming) that are missing values; default the empty text and `?`. */
  readonly missingTexts?: readonly string[];
}

/** Which columns play which part (as `grove fit`'s flags give them). */
export interface EngineColumns {
  target?: string;
  categorical?: readonly string[];
  numeric?: readonly string[];
  /** A column of sample weights (finite, ≥ 0). */
  weight?: string;
}

/** A feature as the engine computes it: `value` is an SQL expression over `src` (NULL = missing). */
export interface EngineFeature {
  name: string;
  kind: 'numeric' | 'categorical';
  /** A double for a numeric feature (NaN turned into NULL), trimmed text for a categorical one. */
  value: string;
  /**
   * A column the engine stores as numbers: its double, NaN kept, whose MIN and MAX the engine may
   * read from its statistics (a Parquet file's row groups) without a scan; null otherwise.
   */
  stored: string | null;
  /** Categories in grove's dictionary order (first appearance, or by value when all look numeric). */
  categories: string[];
  /** A numeric feature of dates or times: what its seconds count. */
  unit?: TimeUnit;
}

/** The training columns of a source, typed by grove's rules, with the class list. */
export interface EngineSchema {
  source: EngineSource;
  features: EngineFeature[];
  targetName: string;
  /** The class label as trimmed text (never NULL: a missing label is refused). */
  label: string;
  classes: ClassLabel[];
  /** The sample weight (a double), or null for weight 1. */
  weight: string | null;
  nRows: number;
  /** Every column of the source (names grove's own aliases must not take). */
  columnNames: readonly string[];
  /** A name for grove's aliases and lambda parameters that no column of the source has ({@link aliasNamer}). */
  alias(base: string): string;
}

/**
 * Names for grove's aliases next to the source's columns: `grove_<base>`, lengthened with `_`
 * until no column has it (compared without case: DuckDB's identifiers ignore it). On ClickHouse an
 * alias of a SELECT is seen by the whole query and wins over a column of the same name, so an
 * alias `y` would replace a feature column `y` wherever that SELECT reads it.
 */
export function aliasNamer(columnNames: readonly string[]): (base: string) => string {
  const taken = new Set(columnNames.map((n) => n.toLowerCase()));
  return (base) => {
    let n = `grove_${base}`;
    while (taken.has(n.toLowerCase())) n += '_';
    return n;
  };
}

/** grove's number syntax (src/data/tokens.ts), for the engine's regular-expression match. */
const NUMBER_PATTERN = '^[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?$';

/** The texts the engine reads as missing when the source names none: the database's own. */
const MISSING_TEXTS: readonly string[] = ['', '?'];

/** Make a text cell as the file readers see it: trimmed; NULL and the source's missing texts are missing (NULL). */
function cellOf(engine: Engine, source: EngineSource, column: string): string {
  const d = engine.dialect;
  const t = d.trim(d.toText(d.quote(column)));
  const missing = (source.missingTexts ?? MISSING_TEXTS).map((text) => d.string(text)).join(', ');
  return missing === '' ? t : `CASE WHEN ${t} IN (${missing}) THEN NULL ELSE ${t} END`;
}

/**
 * Read a source's columns and type them as the CSV reader types a file's (src/data/encode.ts):
 * a column the engine types as a number is numeric; a text column is numeric when every
 * non-missing cell is a number, else categorical; `categorical`/`numeric` force the kind. Classes
 * are sorted (numerically when all are numbers), categories in order of first appearance in the
 * engine's scan order (by value when all look numeric) — the same dictionaries as in memory.
 */
export async function readSchema(engine: Engine, source: EngineSource, columns: EngineColumns): Promise<EngineSchema> {
  const d = engine.dialect;
  const file = source.label;
  const probe = new Params(d);
  const cols = await engine.columns(source.from(probe), probe.values);
  const names = cols.map((c) => c.name);
  const typeOf = new Map(cols.map((c) => [c.name, c.type]));
  const timeOf = new Map(cols.flatMap((c) => (c.time !== undefined ? [[c.name, c.time] as const] : [])));
  // The same header checks and option rules as every file reader (src/data/encode.ts).
  const colIndex = indexColumns(names, file);
  const { targetIdx, forced } = planColumns(names, colIndex, {
    source: file,
    ...(columns.target !== undefined ? { target: columns.target } : {}),
    ...(columns.categorical ? { categorical: columns.categorical.slice() } : {}),
    ...(columns.numeric ? { numeric: columns.numeric.slice() } : {}),
  });
  const targetName = names[targetIdx];
  const targetTime = timeOf.get(targetName);
  if (targetTime !== undefined)
    throw new GroveError(
      `the target column has type ${targetTime.toUpperCase()}, which grove cannot read as class labels`,
      { file, code: 'E_DATA', column: targetName },
    );
  if (columns.weight !== undefined && !colIndex.has(columns.weight))
    throw new GroveError(`unknown weight column '${columns.weight}' (columns: ${listColumns(names)})`, {
      file,
      code: 'E_OPTION',
      column: columns.weight,
    });
  const featureNames = names.filter((n) => n !== targetName && n !== columns.weight);
  if (featureNames.length === 0)
    throw new GroveError(`no feature columns: the only column is the target '${targetName}'`, { file, code: 'E_DATA' });

  const label = cellOf(engine, source, targetName);
  const double = (name: string) =>
    typeOf.get(name) === 'number' ? columnDouble(d, d.quote(name), timeOf.get(name)) : d.toDouble(d.quote(name));
  const weight = columns.weight === undefined ? null : d.nanToNull(double(columns.weight));
  const checks = featureNames.filter((n) => typeOf.get(n) === 'text' && forced.get(n) !== 'categorical');
  const { nRows, numericText } = await scanRows(engine, source, { label, targetName, weight, checks, forced }, columns);
  const alias = aliasNamer(names);
  const features: EngineFeature[] = [];
  for (const name of featureNames) {
    const numeric = forced.get(name) !== 'categorical' && (typeOf.get(name) === 'number' || numericText.has(name));
    if (numeric) {
      const value =
        typeOf.get(name) === 'number' ? d.nanToNull(double(name)) : d.toDouble(cellOf(engine, source, name));
      const stored = typeOf.get(name) === 'number' ? double(name) : null;
      const time = timeOf.get(name);
      features.push({
        name,
        kind: 'numeric',
        value,
        stored,
        categories: [],
        ...(time ? { unit: timeUnitOf(time) } : {}),
      });
    } else {
      const value = cellOf(engine, source, name);
      const categories = await firstAppearance(engine, source, value, alias);
      features.push({ name, kind: 'categorical', value, stored: null, categories });
    }
  }
  const classes = classList(await distinct(engine, source, label), typeOf.get(targetName) === 'number');
  return { source, features, targetName, label, classes, weight, nRows, columnNames: names, alias };
}

/** What `scanRows` checks: the label and weight expressions, and the text columns to test for numbers. */
interface RowChecks {
  label: string;
  targetName: string;
  weight: string | null;
  checks: string[];
  forced: Map<string, string>;
}

/**
 * One scan: the row count, rows without a label or with a bad weight (refused), and which text
 * columns hold only numbers (a column forced numeric that holds another text is refused).
 */
async function scanRows(
  engine: Engine,
  source: EngineSource,
  { label, targetName, weight, checks, forced }: RowChecks,
  columns: EngineColumns,
): Promise<{ nRows: number; numericText: Set<string> }> {
  const d = engine.dialect;
  const file = source.label;
  const p = new Params(d);
  const from = source.from(p);
  // A parameter is bound only when a query uses it (DuckDB refuses unused ones).
  const pattern = checks.length > 0 ? p.add(NUMBER_PATTERN) : '';
  const select = [
    `${d.toDouble('COUNT(*)')}`,
    `${d.toDouble(`SUM(CASE WHEN ${label} IS NULL THEN 1 ELSE 0 END)`)}`,
    weight ? `${d.toDouble(`SUM(CASE WHEN ${weight} IS NULL OR ${weight} < 0 THEN 1 ELSE 0 END)`)}` : '0',
  ];
  for (const name of checks) {
    const cell = cellOf(engine, source, name);
    const bad = `${cell} IS NOT NULL AND NOT ${d.fullMatch(cell, pattern)}`;
    select.push(
      d.toDouble(`SUM(CASE WHEN ${cell} IS NULL THEN 0 ELSE 1 END)`),
      d.toDouble(`SUM(CASE WHEN ${bad} THEN 1 ELSE 0 END)`),
      `MIN(CASE WHEN ${bad} THEN ${cell} END)`,
    );
  }
  const [stats] = await engine.query(`SELECT ${select.join(', ')} FROM ${from} AS src`, p.values);
  const nRows = Number(stats[0]);
  if (nRows === 0) throw new GroveError('no data rows', { file, code: 'E_DATA' });
  if (Number(stats[1]) > 0)
    throw new GroveError(`the target (class) value is missing in ${stats[1]} rows; every row needs a class label`, {
      file,
      code: 'E_DATA',
      column: targetName,
    });
  if (Number(stats[2]) > 0)
    throw new GroveError(`${stats[2]} rows have a missing or negative weight`, {
      file,
      code: 'E_DATA',
      column: columns.weight,
    });
  const numericText = new Set<string>();
  checks.forEach((name, i) => {
    const present = Number(stats[3 + 3 * i]);
    const bad = Number(stats[4 + 3 * i]);
    if (bad > 0 && forced.get(name) === 'numeric')
      throw new GroveError(`expected a number, found '${stats[5 + 3 * i]}'`, { file, code: 'E_DATA', column: name });
    if (bad === 0 && (present > 0 || forced.get(name) === 'numeric')) numericText.add(name);
  });
  return { nRows, numericText };
}

/** Distinct non-null values of `expr`, in order of first appearance. */
async function firstAppearance(
  engine: Engine,
  source: EngineSource,
  expr: string,
  alias: (base: string) => string,
): Promise<string[]> {
  const d = engine.dialect;
  const p = new Params(d);
  const [v, rn] = [alias('v'), alias('rn')];
  const rows = await engine.query(
    `SELECT ${v}, MIN(${rn}) AS ${alias('first')} ` +
      `FROM (SELECT ${expr} AS ${v}, ${d.rowNumber} AS ${rn} FROM ${source.from(p)} AS src) AS t ` +
      `WHERE ${v} IS NOT NULL GROUP BY ${v} ORDER BY ${alias('first')}`,
    p.values,
  );
  const values = rows.map((r) => String(r[0]));
  if (values.length > 1 && values.every(isNumericToken)) {
    // As the CSV reader: numeric codes forced categorical are ordered by value.
    const order = values.map((_, k) => k).sort((a, b) => Number(values[a]) - Number(values[b]) || a - b);
    return order.map((k) => values[k]);
  }
  return values;
}

async function distinct(engine: Engine, source: EngineSource, expr: string): Promise<string[]> {
  const p = new Params(engine.dialect);
  const rows = await engine.query(`SELECT DISTINCT ${expr} FROM ${source.from(p)} AS src`, p.values);
  return rows.map((r) => String(r[0]));
}

/**
 * The class list by the readers' rule (data/class-order.ts): a column of a number type gives
 * numbers sorted by value; text labels are numbers only when every one is a number's canonical
 * text, else strings sorted, so `01` and `1` stay two classes as in a file read into memory.
 */
function classList(labels: string[], numberType: boolean): ClassLabel[] {
  if (numberType) return [...new Set(labels.map(Number))].sort((a, b) => a - b);
  return orderClasses(labels).classes;
}

/** SQL for the class code of a row (0 … k−1), the labels bound as parameters. */
export function classCode(schema: EngineSchema, engine: Engine, p: Params): string {
  const d = engine.dialect;
  const numeric = schema.classes.every((c) => typeof c === 'number');
  const subject = numeric ? d.toDouble(schema.label) : schema.label;
  const whens = schema.classes.map((c, i) => `WHEN ${subject} = ${p.add(c as SqlValue)} THEN ${i}`);
  return `CASE ${whens.join(' ')} END`;
}
