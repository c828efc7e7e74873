import { badArgument } from '../../core/args.js';
import type { ClassLabel } from '../../data/dataset.js';
import type { DecisionTree } from '../../model/decision-tree.js';
import {
  bindOnceOf,
  DIALECT_NAMES,
  type Dialect,
  type DialectName,
  dialectOf,
  subscript,
  tableReference,
} from '../../sql/index.js';
import { checkTree } from '../check-tree.js';
import { type PortableTree, portableTree, UNCLASSIFIED_LABEL } from '../portable.js';
import { codeNames, isCoded, type Level, type LevelTables, levelTables } from './levels.js';

/** What `treeToSql` needs besides the model. */
export interface SqlExportOptions {
  dialect: DialectName;
  /** The table (or view) holding the rows, one column per feature named after it. */
  table: string;
  /** Add one probability column per class, named after the class as `grove predict --proba` does. */
  proba?: boolean;
}

/** The query, and what the user should know about it. */
export interface SqlExport {
  sql: string;
  warnings: string[];
}

/**
 * How the query refers to a constant array: the literal itself, or (ClickHouse) a name bound to it
 * once in a `WITH` clause.
 */
export type Named = (literal: string) => string;
export const asIs: Named = (literal) => literal;

/** `xs[n]` for a per-node array of a level, or the constant itself when every node has the same. */
function lookupOf(n: string, r: Dialect, named: Named) {
  return (xs: number[], doubles = false): string => {
    if (xs.every((x) => x === xs[0])) return doubles ? r.double(xs[0]) : String(xs[0]);
    return subscript(named(doubles ? r.doubles(xs) : r.integers(xs)), n);
  };
}

/** A numeric node's branch: 1 when `x` is above the node's threshold, 0 when not, its missing branch for NULL. */
function numericBranchSql(level: Level, x: string, lookup: ReturnType<typeof lookupOf>, r: Dialect): string {
  return `coalesce(${r.boolToInt(`${x} > ${lookup(level.threshold, true)}`)}, ${lookup(level.missing)})`;
}

/** The step from state `n` once the branch (or value code) `chosen` is known: the next state. */
function nextState(
  level: Level,
  n: string,
  chosen: string,
  lookup: ReturnType<typeof lookupOf>,
  r: Dialect,
  named: Named,
) {
  const next = subscript(named(r.integers(level.next)), `${lookup(level.first)} + ${chosen}`);
  return `CASE WHEN ${n} < 0 THEN ${n} ELSE ${next} END`;
}

/**
 * A level's step from state `n`, each tested feature a value of its own: `value(f)` is feature
 * f's value (numeric) or value code (coded); a CASE picks the node's feature.
 */
export function stepExpression(
  level: Level,
  p: PortableTree,
  n: string,
  value: (f: number) => string,
  r: Dialect,
  named: Named,
): string {
  const lookup = lookupOf(n, r, named);
  const branch = (f: number): string => (isCoded(p, f) ? value(f) : numericBranchSql(level, value(f), lookup, r));
  const feature = lookup(level.feature);
  const chosen =
    level.features.length === 1
      ? branch(level.features[0])
      : `CASE ${level.features.map((f, j) => `WHEN ${feature} = ${j + 1} THEN ${branch(f)}`).join(' ')} END`;
  return nextState(level, n, chosen, lookup, r, named);
}

/**
 * A level's step from state `n` when the row's values are two arrays, `numbers` (numeric
 * features) and `codes` (coded ones): the node's slot in them is one lookup, not a CASE over the
 * level's features. `slot` maps a feature to its 1-based place in its array.
 */
export function arrayStep(level: Level, p: PortableTree, n: string, slot: Map<number, number>, r: Dialect): string {
  const lookup = lookupOf(n, r, asIs);
  const featureOf = level.feature.map((j) => level.features[j - 1]);
  const at = lookup(featureOf.map((f) => slot.get(f)!));
  const coded = featureOf.map((f) => (isCoded(p, f) ? 1 : 0));
  const numeric = numericBranchSql(level, subscript('q.grove_numbers', at), lookup, r);
  const code = subscript('q.grove_codes', at);
  const chosen = coded.every((c) => c === 1)
    ? code
    : coded.every((c) => c === 0)
      ? numeric
      : `CASE WHEN ${lookup(coded)} = 1 THEN ${code} ELSE ${numeric} END`;
  return nextState(level, n, chosen, lookup, r, asIs);
}

/**
 * The array literal of the labels of class indexes `codes` (-1: `unclassified`): numbers when every
 * class is a finite number and no region is unclassified, else text.
 */
export function labelArray(classes: readonly ClassLabel[], hasUnclassified: boolean, codes: number[], r: Dialect) {
  const numericLabels = !hasUnclassified && classes.every((c) => typeof c === 'number' && Number.isFinite(c));
  return numericLabels
    ? classes.every((c) => Number.isInteger(c))
      ? r.integers(codes.map((c) => classes[c] as number))
      : r.doubles(codes.map((c) => classes[c] as number))
    : r.strings(codes.map((c) => (c < 0 ? UNCLASSIFIED_LABEL : String(classes[c]))));
}

/** The output columns as expressions of the leaf state `s` (negative: `-leaf`). */
function outputColumns(p: PortableTree, tables: LevelTables, s: string, proba: boolean, r: Dialect, named: Named) {
  const { tree } = p;
  const leaf = `-${s}`;
  const labels = tables.leafNode.map((i) => (tree.nodes[i].unclassified ? -1 : p.classOf[i]));
  const label = labelArray(tree.classes, p.hasUnclassified, labels, r);
  const columns = [{ name: 'predicted', sql: subscript(named(label), leaf) }];
  if (!proba) return columns;
  const k = tree.classes.length;
  const classified = tables.leafNode.slice(0, tables.classifiedLeaves);
  for (let c = 0; c < k; c++) {
    const value = subscript(named(r.doubles(classified.map((i) => p.proba[i * k + c]))), leaf);
    // Unclassified leaves are numbered last: their probabilities are NULL.
    const sql = p.hasUnclassified ? `CASE WHEN ${s} < -${tables.classifiedLeaves} THEN NULL ELSE ${value} END` : value;
    columns.push({ name: String(tree.classes[c]), sql });
  }
  return columns;
}

interface WalkInput {
  from: string;
  proba: boolean;
  rules: Dialect;
}

/** The features the walk reads, each once, in the order first tested. */
export function walkedFeatures(tables: LevelTables): number[] {
  return [...new Set(tables.levels.flatMap((l) => l.features))];
}

/** A feature's value as the walk reads it: the column (numeric) or its value code (coded). */
export function featureValue(p: PortableTree, f: number, column: string, r: Dialect, named: Named = asIs): string {
  return isCoded(p, f) ? r.position(named(r.strings(codeNames(p, f))), column) : numberValue(column, r);
}

/** A numeric column as the walk tests it: a double, NaN as NULL (grove reads NaN as missing; SQL engines order it). */
export const numberValue = (column: string, r: Dialect): string => r.nanToNull(r.numberToDouble(column));

export const selectList = (columns: { name: string; sql: string }[], r: Dialect): string =>
  columns.map((c) => `${c.sql} AS ${r.quote(c.name)}`).join(',\n  ');

/**
 * The row's values the walk tests, computed once in the innermost subquery of `chain`: the numeric
 * features' values (`grove_numbers`) and the coded features' value codes (`grove_codes`), each an
 * array; `slot` maps a feature to its 1-based place in its array, `selected` is the innermost
 * select list's part and `carried` the part each level's select list passes on.
 */
export function rowArrays(p: PortableTree, features: readonly number[], r: Dialect) {
  const numeric = features.filter((f) => !isCoded(p, f));
  const coded = features.filter((f) => isCoded(p, f));
  const slot = new Map([...numeric.map((f, j) => [f, j + 1] as const), ...coded.map((f, j) => [f, j + 1] as const)]);
  const column = (f: number): string => `grove_t.${r.quote(p.tree.features[f].name)}`;
  const arrays = [
    ...(numeric.length > 0 ? [`${r.array(numeric.map((f) => numberValue(column(f), r)))} AS grove_numbers`] : []),
    ...(coded.length > 0 ? [`${r.array(coded.map((f) => featureValue(p, f, column(f), r)))} AS grove_codes`] : []),
  ];
  const carried = arrays.map((a) => `, q.${a.slice(a.lastIndexOf(' ') + 1)}`).join('');
  const selected = arrays.map((a) => `, ${a}`).join('');
  return { slot, carried, selected };
}

/**
 * The walk as a chain of subqueries, one per level, each fenced with `OFFSET 0` so the planner
 * does not paste a level's expression into every use of its state in the next level (which would
 * grow exponentially). The values the walk tests (numeric columns, value codes) are computed once,
 * and the row rides along as one whole-row value that `expand` turns back into its columns.
 */
function chain(
  p: PortableTree,
  tables: LevelTables,
  { from, proba, rules: r }: WalkInput,
  expand: (row: string) => string,
) {
  const { slot, carried, selected } = rowArrays(p, walkedFeatures(tables), r);
  const innermost =
    `SELECT grove_t AS grove_row, ${tables.rootState} AS grove_s${selected} ` + `FROM ${from} AS grove_t OFFSET 0`;
  // Level d's subquery wraps level d - 1's: its head goes before, its end after (joined once, linear).
  const heads = tables.levels.map(
    (level) => `SELECT q.grove_row, ${arrayStep(level, p, 'q.grove_s', slot, r)} AS grove_s${carried}\nFROM (`,
  );
  const columns = outputColumns(p, tables, 'q.grove_s', proba, r, asIs);
  return [
    `SELECT ${expand('q.grove_row')},\n  ${selectList(columns, r)}\nFROM (`,
    ...heads.reverse(),
    innermost,
    ') AS q OFFSET 0'.repeat(tables.levels.length),
    ') AS q\n',
  ].join('');
}

/**
 * The query per dialect (docs/export.md, "Shape"). DuckDB and PostgreSQL: a chain of subqueries
 * (`chain`). ClickHouse 18.16 has no whole-row value to carry, but it has lambdas: the state
 * passes from level to level through `arrayMap((s, v…) -> step, [state], [value]…)[1]`, which binds
 * it once per step (its lambdas cannot capture Nullable columns, so each step takes the values it
 * tests as arguments). The constant arrays and the walk are bound once in `WITH`: ClickHouse names
 * an expression by its text, and array literals nested in every step made its analysis quadratic.
 */
const WALKS: Record<DialectName, (p: PortableTree, tables: LevelTables, input: WalkInput) => string> = {
  duckdb: (p, tables, input) => chain(p, tables, input, (row) => `unnest(${row})`),
  clickhouse: (p, tables, { from, proba, rules: r }) => {
    const bound: string[] = [];
    const named: Named = (literal) => {
      bound.push(`${literal} AS grove_a${bound.length + 1}`);
      return `grove_a${bound.length}`;
    };
    // Level d's lambda takes level d - 1's state and the values it tests, each bound once.
    let state = String(tables.rootState);
    for (const level of tables.levels) {
      const args = level.features.map((f) => featureValue(p, f, `t.${r.quote(p.tree.features[f].name)}`, r, named));
      const argument = new Map(level.features.map((f, j) => [f, `grove_v${j + 1}`]));
      const step = stepExpression(level, p, 'grove_s', (f) => argument.get(f)!, r, named);
      state = bindOnceOf(r, 'E_MODEL')(['grove_s', ...argument.values()], [state, ...args], step);
    }
    const columns = selectList(outputColumns(p, tables, 'grove_leaf', proba, r, named), r);
    const definitions = [...bound, `${state} AS grove_leaf`].join(',\n  ');
    return `WITH\n  ${definitions}\nSELECT t.*,\n  ${columns}\nFROM ${from} AS t\n`;
  },
  postgres: (p, tables, input) => chain(p, tables, input, (row) => `(${row}).*`),
};

/** Throw GroveError unless `options` are SQL export options (a dialect grove knows, a table name). */
export function checkSqlOptions(caller: string, options: SqlExportOptions): void {
  if (typeof options !== 'object' || options === null)
    badArgument(caller, 'options', 'an object { dialect, table, proba? }', options);
  if (!(DIALECT_NAMES as readonly unknown[]).includes(options.dialect))
    badArgument(caller, 'options.dialect', `one of ${DIALECT_NAMES.join(', ')}`, options.dialect);
  if (typeof options.table !== 'string') badArgument(caller, 'options.table', 'a table name (a string)', options.table);
}

/**
 * A `SELECT t, <label> AS predicted[, <p> AS "<class>" …] FROM <table> AS t` query that scores
 * every row as `grove predict` does (a walk over the tree's levels, `WALKS`), NULL routed as the model routes a missing
 * value, a C-MBSV unclassified region labelled `unclassified` with NULL probabilities.
 */
export function treeToSql(tree: DecisionTree, options: SqlExportOptions): SqlExport {
  checkTree(tree, 'treeToSql');
  checkSqlOptions('treeToSql', options);
  const p = portableTree(tree, 'SQL');
  const rules = dialectOf(options.dialect);
  const from = tableReference(options.table, rules);
  const tables = levelTables(p);
  const sql = WALKS[options.dialect](p, tables, { from, proba: options.proba === true, rules });
  return { sql, warnings: p.warnings };
}
