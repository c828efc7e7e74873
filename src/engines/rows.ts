import type { BinnedFeature } from '../split/histogram.js';
import type { Dialect } from '../sql/index.js';
import { type CodeGrid, searchSteps } from './code-grid.js';
import type { Engine } from './engine.js';
import { Params } from './engine.js';
import { classCode, type EngineSchema } from './schema.js';

/**
 * A source's training rows as the engine sees them: the schema, per-class weights (null: 1), and
 * whether they may live on other servers (`spread`: every query one SELECT over the source, flat.ts).
 */
export interface EngineRows {
  engine: Engine;
  schema: EngineSchema;
  classWeights: Float64Array | null;
  spread?: boolean;
  /**
   * C4.5's fractional missing values on rows with a missing value: such a row goes down every
   * branch of a split on that feature with a share of its weight (fan-out.ts).
   */
  fractional?: boolean;
}

/**
 * A row's weight: the sample weight × the class weight of class code `y` (as `fit` multiplies
 * them); `y` is written once, so the text grows linearly with the classes.
 */
export function rowWeight(rows: EngineRows, y: string, p: Params): string {
  const { schema, engine, classWeights } = rows;
  const sw = schema.weight ?? engine.dialect.toDouble('1');
  if (!classWeights) return sw;
  return `${sw} * ${engine.dialect.element(
    y,
    Array.from(classWeights, (cw) => p.add(cw)),
  )}`;
}

/**
 * The rows a tree grows on, as a subquery: columns `y` (class code), `w` ({@link rowWeight}) and
 * the columns `select` makes from the feature values (the names it is given); rows of weight 0
 * are left out, as `fit` leaves them out. The SELECT that reads the source's columns names its
 * results with the schema's aliases, which no column has: on ClickHouse an alias `y` there would
 * replace a feature column `y` in the other expressions of that SELECT.
 */
export function weightedRows(
  rows: EngineRows,
  p: Params,
  select: (values: readonly string[]) => readonly [alias: string, expr: string][],
): string {
  const { schema, engine } = rows;
  const alias = schema.alias;
  const from = schema.source.from(p);
  const y = classCode(schema, engine, p);
  const values = schema.features.map((_, f) => alias(`v${f}`));
  const inner = [
    `${y} AS ${alias('y')}`,
    `${rowWeight(rows, y, p)} AS ${alias('w')}`,
    ...schema.features.map((col, f) => `${col.value} AS ${values[f]}`),
  ];
  const outer = select(values).map(([name, expr]) => `${expr} AS ${name}`);
  return (
    `(SELECT * FROM (SELECT ${alias('y')} AS y, ${alias('w')} AS w${outer.length ? ', ' : ''}${outer.join(', ')} ` +
    `FROM (SELECT ${inner.join(', ')} FROM ${from} AS src) AS typed) AS weighted WHERE w > 0)`
  );
}

/**
 * SQL for the bin code of `value` (a double or NULL): the first bin whose largest training value
 * is ≥ it (values between two bins' fall in the upper one, but training rows have none), `bins` for
 * NULL. A binary search in nested CASEs: log₂(bins) comparisons a row, the edges bound as parameters.
 */
export function binCode(value: string, bf: BinnedFeature, p: Params): string {
  if (bf.bins === 0) return '0';
  const search = (lo: number, hi: number): string => {
    if (lo === hi) return String(lo);
    const mid = (lo + hi) >> 1;
    return `CASE WHEN ${value} <= ${p.add(bf.hi[mid])} THEN ${search(lo, mid)} ELSE ${search(mid + 1, hi)} END`;
  };
  return `CASE WHEN ${value} IS NULL THEN ${bf.bins} ELSE ${search(0, bf.bins - 1)} END`;
}

/** True when every training row weighs 1: no weight column and no class weights. */
export function unitWeights(rows: EngineRows): boolean {
  return rows.schema.weight === null && rows.classWeights === null;
}

/**
 * The SELECT of the rows a tree grows on with every feature as its code: columns y, w and
 * c0 … c(d−1), code f cast to the narrowest integer type that holds 0 … `nBins[f]`. Without
 * `weighted`, no w (every row weighs 1): a table of the rows is then a byte a row per feature and
 * the class.
 */
export function codedRowsSelect(
  rows: EngineRows,
  binned: readonly (BinnedFeature | null)[],
  grids: readonly (CodeGrid | null)[],
  nBins: readonly number[],
  p: Params,
  weighted = true,
): string {
  const { schema, engine } = rows;
  const d = engine.dialect;
  const yw = weighted ? 'y, w' : 'y';
  const cast = (code: string, f: number) => `CAST(${code} AS ${d.intType(nBins[f])})`;
  if (d.doubleList) {
    const from = weightedRows(rows, p, (v) =>
      schema.features.map((col, f) =>
        col.kind === 'numeric' ? [`v${f}`, v[f]] : [`c${f}`, categoryCode(v[f], col.categories, p, d)],
      ),
    );
    const numeric = schema.features.map((col, f) => (col.kind === 'numeric' ? binned[f] : null));
    const searched = listSearch(numeric, grids, from, d, p);
    const coded = searched.codes.map((code, f) => `${cast(code, f)} AS c${f}`);
    return `SELECT ${yw}, ${coded.join(', ')} FROM ${searched.from} AS coded`;
  }
  const from = weightedRows(rows, p, (v) =>
    schema.features.map((col, f) => {
      const code = col.kind === 'numeric' ? binCode(v[f], binned[f]!, p) : categoryCode(v[f], col.categories, p, d);
      return [`c${f}`, cast(code, f)];
    }),
  );
  return `SELECT ${yw}, ${schema.features.map((_, f) => `c${f}`).join(', ')} FROM ${from} AS coded`;
}

/**
 * The bin codes of numeric columns v0 … of `from` (categorical features already code c…) as
 * lookups in list parameters, each feature's bin edges in one list. With a {@link CodeGrid}, two
 * subquery layers: the row's cell gives the lowest code there, then a comparison with each next
 * edge the cell spans adds one. Without, a branchless binary search: the edges padded with +∞ to a
 * power of two, and one layer per halving of the step, each adding the step where the list's entry
 * there is below the value. A vectorized engine runs a layer as a few flat operations; nested
 * CASEs cut every vector into as many pieces as bins, slow and memory-hungry with many features.
 * Codes are those of {@link binCode}.
 */
export function listSearch(
  numeric: readonly (BinnedFeature | null)[],
  grids: readonly (CodeGrid | null)[],
  weighted: string,
  dialect: Dialect,
  p: Params,
): { codes: string[]; from: string } {
  // With `listColumns`, each list is a column of one row joined to the rows, carried by every layer.
  const joined: string[] = [];
  const named = (list: string) => {
    if (!dialect.listColumns) return list;
    joined.push(`${list} AS lst${joined.length}`);
    return `lst${joined.length - 1}`;
  };
  const listOf = (values: readonly number[]) => named(dialect.doubleList!(values, (v) => p.add(v)));
  const grid = numeric.map((bf, f) => (bf && bf.bins > 1 && dialect.intList ? grids[f] : null));
  const size = numeric.map((bf, f) =>
    !bf || bf.bins <= 1 ? 1 : grid[f] ? bf.bins + grid[f]!.compares : 2 ** searchSteps(bf.bins),
  );
  const lists = numeric.map((bf, f) => {
    if (!bf || bf.bins <= 1 || grid[f]?.compares === 0) return ''; // a list no comparison reads
    const edges = Array.from(bf.hi);
    while (edges.length < size[f]) edges.push(Infinity);
    return listOf(edges);
  });
  const cells = grid.map((g) => (g ? named(dialect.intList!(g.first, (v) => p.add(v))) : null));
  const carry = joined.map((_, i) => `, lst${i}`).join('');
  const at = numeric.map(() => '0');
  let from = joined.length ? `(SELECT * FROM ${weighted} AS r, (SELECT ${joined.join(', ')}) AS lists)` : weighted;
  let layer = 0;
  const addLayer = (column: (bf: BinnedFeature, f: number) => string) => {
    const columns = numeric.map((bf, f) => (bf ? column(bf, f) : `c${f}`));
    from = `(SELECT y, w${carry}, ${columns.join(', ')} FROM ${from} AS l${layer++})`;
  };
  const carried = (f: number) => (at[f] === '0' ? `v${f}` : `v${f}, ${at[f]}`);
  if (grid.some((g) => g)) {
    addLayer((_, f) => {
      const first = cells[f];
      if (!first) return carried(f);
      // No clamp: every row here is a training row, whose cell the grid has (code-grid.ts).
      const { origin, scale } = grid[f]!;
      const cell = `CAST(floor((v${f} - ${p.add(origin)}) * ${p.add(scale)}) AS INTEGER)`;
      at[f] = `t${f}`;
      return `v${f}, ${first}[${cell} + 1] AS t${f}`;
    });
    addLayer((_, f) => {
      const g = grid[f];
      if (!g) return carried(f);
      const steps = Array.from(
        { length: g.compares },
        (_, j) => ` + ${dialect.boolToInt(`v${f} > ${lists[f]}[t${f} + ${j + 1}]`)}`,
      );
      at[f] = `p${f}`;
      return `v${f}, t${f}${steps.join('')} AS p${f}`;
    });
  }
  const widest = size.reduce((a, b, f) => (grid[f] ? a : Math.max(a, b)), 1);
  for (let step = widest / 2; step >= 1; step /= 2) {
    addLayer((_, f) => {
      // A feature with a grid, or whose search starts at a smaller step, is carried as it is.
      if (grid[f] || size[f] <= step) return carried(f);
      const next = `${at[f]} + ${step} * ${dialect.boolToInt(`v${f} > ${lists[f]}[${at[f]} + ${step}]`)} AS p${f}`;
      at[f] = `p${f}`;
      return `v${f}, ${next}`;
    });
  }
  const codes = numeric.map((bf, f) => {
    if (!bf) return `c${f}`;
    if (bf.bins === 0) return '0';
    const last = bf.bins - 1;
    // A search's position is NULL where the value is: the missing code then (`least` skips a
    // NULL, `0 * p` keeps it). No CASE: each of its branches splits every vector of rows.
    if (at[f] !== '0') return `coalesce(least(${at[f]}, ${last}) + 0 * ${at[f]}, ${bf.bins})`;
    return `CASE WHEN v${f} IS NULL THEN ${bf.bins} ELSE 0 END`;
  });
  return { codes, from };
}

/** SQL for the category code of `value` (text or NULL) in `categories`; NULL → the missing code. */
export function categoryCode(value: string, categories: readonly string[], p: Params, dialect: Dialect): string {
  if (categories.length === 0) return '0';
  return dialect.codeOf(
    value,
    categories.map((c) => p.add(c)),
    categories.length,
  );
}

export { Params };
