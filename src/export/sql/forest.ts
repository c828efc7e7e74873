import { GroveError } from '../../core/errors.js';
import { describeType } from '../../data/check.js';
import { Forest } from '../../ensemble/forest.js';
import { bindOnceOf, type Dialect, type DialectName, dialectOf, subscript, tableReference } from '../../sql/index.js';
import { type PortableTree, portableTree } from '../portable.js';
import { type LevelTables, levelTables } from './levels.js';
import {
  arrayStep,
  checkSqlOptions,
  featureValue,
  labelArray,
  type Named,
  rowArrays,
  type SqlExport,
  type SqlExportOptions,
  selectList,
  stepExpression,
  walkedFeatures,
} from './query.js';

/** One tree of the forest as the walk needs it, and what each of its leaves adds to each class. */
interface WalkedTree {
  p: PortableTree;
  tables: LevelTables;
  /** scores[c][l - 1]: leaf l's probability of class c, or its vote (1 on its first largest class). */
  scores: number[][];
}

interface ForestWalk {
  trees: WalkedTree[];
  forest: Forest;
  from: string;
  proba: boolean;
  r: Dialect;
  hasUnclassified: boolean;
}

/** A tree's leaf scores (see `WalkedTree.scores`); an unclassified region's are all 0. */
function leafScores(p: PortableTree, tables: LevelTables, vote: Forest['settings']['vote']): number[][] {
  const k = p.tree.classes.length;
  const scores = Array.from({ length: k }, () => new Array<number>(tables.leafNode.length).fill(0));
  tables.leafNode.forEach((i, l) => {
    let best = -1;
    for (let c = 0; c < k; c++) {
      const x = p.proba[i * k + c];
      if (vote === 'proba') scores[c][l] = x;
      else if (x > 0 && (best < 0 || x > p.proba[i * k + best])) best = c;
    }
    if (vote === 'majority' && best >= 0) scores[best][l] = 1;
  });
  return scores;
}

/**
 * The forest's probability of each class, as grove computes it: the trees' leaf scores added in
 * tree order, then divided by the number of trees (the same double operations, so the same bits).
 * `leaf(t)` is tree t's leaf state (`-leaf`); a tree that never scores the class adds nothing.
 */
function sumColumns(w: ForestWalk, leaf: (t: number) => string, named: Named): string[] {
  const { r } = w;
  return w.forest.classes.map((_, c) => {
    const terms: string[] = [];
    w.trees.forEach((t, j) => {
      if (t.scores[c].some((x) => x !== 0)) terms.push(subscript(named(r.doubles(t.scores[c])), `-${leaf(j)}`));
    });
    const sum = terms.length > 0 ? `(${terms.join(' + ')}) / ${r.double(w.trees.length)}` : r.double(0);
    return `${sum} AS grove_p${c + 1}`;
  });
}

/**
 * The predicted label from the probabilities `p(c)`: the first largest (a row every tree leaves
 * unclassified has all 0: `unclassified`), as grove breaks ties. Class c is the first largest when
 * it is at least every later one and none before reached that (the CASE's earlier branches).
 */
function labelColumn(w: ForestWalk, p: (c: number) => string, named: Named): { name: string; sql: string } {
  const k = w.forest.classes.length;
  const whens: string[] = [];
  for (let c = 0; c < (w.hasUnclassified ? k : k - 1); c++) {
    const conditions = [...(w.hasUnclassified ? [`${p(c)} > 0`] : [])];
    for (let j = c + 1; j < k; j++) conditions.push(`${p(c)} >= ${p(j)}`);
    whens.push(`WHEN ${conditions.join(' AND ')} THEN ${c + 1}`);
  }
  const otherwise = w.hasUnclassified ? k + 1 : k;
  const index = whens.length > 0 ? `CASE ${whens.join(' ')} ELSE ${otherwise} END` : String(otherwise);
  const codes = w.forest.classes.map((_, c) => c).concat(w.hasUnclassified ? [-1] : []);
  return {
    name: 'predicted',
    sql: subscript(named(labelArray(w.forest.classes, w.hasUnclassified, codes, w.r)), index),
  };
}

/** The output columns from the probabilities `p(c)`: the label, and each class's probability when asked. */
function outputs(w: ForestWalk, p: (c: number) => string, named: Named): string {
  const columns = [labelColumn(w, p, named)];
  if (w.proba) w.forest.classes.forEach((name, c) => columns.push({ name: String(name), sql: p(c) }));
  return selectList(columns, w.r);
}

/**
 * DuckDB and PostgreSQL: the tree export's chain of subqueries (`query.ts`), each level stepping
 * every tree that is that deep (tree t's state `grove_s<t>`), then one subquery adding the trees'
 * leaf scores (`grove_p<c>`), then the label.
 */
function forestChain(w: ForestWalk, expand: (row: string) => string): string {
  const { r, trees } = w;
  const features = [...new Set(trees.flatMap((t) => walkedFeatures(t.tables)))];
  const { slot, carried, selected } = rowArrays(trees[0].p, features, r);
  const state = (j: number): string => `grove_s${j + 1}`;
  const roots = trees.map((t, j) => `${t.tables.rootState} AS ${state(j)}`).join(', ');
  const innermost = `SELECT grove_t AS grove_row, ${roots}${selected} FROM ${w.from} AS grove_t OFFSET 0`;
  const depth = trees.reduce((d, t) => Math.max(d, t.tables.levels.length), 0);
  const heads: string[] = [];
  for (let d = 0; d < depth; d++) {
    const steps = trees.map((t, j) => {
      const level = t.tables.levels[d];
      return level ? `${arrayStep(level, t.p, `q.${state(j)}`, slot, r)} AS ${state(j)}` : `q.${state(j)}`;
    });
    heads.push(`SELECT q.grove_row, ${steps.join(',\n  ')}${carried}\nFROM (`);
  }
  const sums = sumColumns(
    w,
    (j) => `q.${state(j)}`,
    (literal) => literal,
  );
  return [
    `SELECT ${expand('q.grove_row')},\n  ${outputs(
      w,
      (c) => `q.grove_p${c + 1}`,
      (literal) => literal,
    )}\nFROM (`,
    `SELECT q.grove_row, ${sums.join(',\n  ')}\nFROM (`,
    ...heads.reverse(),
    innermost,
    ') AS q OFFSET 0'.repeat(depth + 1),
    ') AS q\n',
  ].join('');
}

/**
 * ClickHouse: every tree's walk as the tree export writes it (lambdas binding the state once per
 * step), bound in `WITH` as `grove_leaf<t>`, the sums as `grove_p<c>`; every constant array is
 * bound once by its text.
 */
function forestClickHouse(w: ForestWalk): string {
  const { r } = w;
  const bound: string[] = [];
  const names = new Map<string, string>();
  const named: Named = (literal) => {
    let name = names.get(literal);
    if (name === undefined) {
      name = `grove_a${names.size + 1}`;
      names.set(literal, name);
      bound.push(`${literal} AS ${name}`);
    }
    return name;
  };
  const leaves = w.trees.map((t, j) => {
    let state = String(t.tables.rootState);
    for (const level of t.tables.levels) {
      const column = (f: number) => `t.${r.quote(t.p.tree.features[f].name)}`;
      const args = level.features.map((f) => featureValue(t.p, f, column(f), r, named));
      const argument = new Map(level.features.map((f, i) => [f, `grove_v${i + 1}`]));
      const step = stepExpression(level, t.p, 'grove_s', (f) => argument.get(f)!, r, named);
      state = bindOnceOf(r, 'E_MODEL')(['grove_s', ...argument.values()], [state, ...args], step);
    }
    return `${state} AS grove_leaf${j + 1}`;
  });
  const sums = sumColumns(w, (j) => `grove_leaf${j + 1}`, named);
  const columns = outputs(w, (c) => `grove_p${c + 1}`, named);
  const definitions = [...bound, ...leaves, ...sums].join(',\n  ');
  return `WITH\n  ${definitions}\nSELECT t.*,\n  ${columns}\nFROM ${w.from} AS t\n`;
}

const WALKS: Record<DialectName, (w: ForestWalk) => string> = {
  duckdb: (w) => forestChain(w, (row) => `unnest(${row})`),
  clickhouse: forestClickHouse,
  postgres: (w) => forestChain(w, (row) => `(${row}).*`),
};

/**
 * A query scoring every row of `options.table` as `grove predict` scores it with the forest: each
 * tree walked as `treeToSql` walks it, the trees' leaf probabilities (or votes, for a majority-vote
 * forest) added and divided by the number of trees, the label the first largest (`unclassified`
 * when every tree leaves the row in a C-MBSV unclassified region, its probabilities then 0).
 * Columns: the row's, `predicted`, and with `proba` one per class.
 */
export function forestToSql(forest: Forest, options: SqlExportOptions): SqlExport {
  if (!(forest instanceof Forest))
    throw new GroveError(`forestToSql: expected a Forest (from fitForest or loadModel), got ${describeType(forest)}`);
  checkSqlOptions('forestToSql', options);
  const warnings = new Set<string>();
  const trees = forest.trees.map((tree): WalkedTree => {
    const p = portableTree(tree, 'SQL');
    for (const w of p.warnings) warnings.add(w);
    const tables = levelTables(p);
    return { p, tables, scores: leafScores(p, tables, forest.settings.vote) };
  });
  const r = dialectOf(options.dialect);
  const walk: ForestWalk = {
    trees,
    forest,
    from: tableReference(options.table, r),
    proba: options.proba === true,
    r,
    hasUnclassified: trees.some((t) => t.p.hasUnclassified),
  };
  return { sql: WALKS[options.dialect](walk), warnings: [...warnings] };
}
