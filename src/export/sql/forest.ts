import { GroveError } from '../../core/errors.js';
import { describeType } from '../../data/check.js';
import { Forest } from '../../ensemble/forest.js';
import { bindOnceOf, type Dialect, type DialectName, dialectOf, subscript, tableReference } from '../../sql/index.js';
import { type PortableTree, portableTree } from '../portable.js';
import { nestedLeaf, nestedValues } from './forest-nested.js';
import { type LevelTables, levelTables } from './levels.js';
import {
  arrayStep,
  checkSqlOptions,
  labelArray,
  type Named,
  rowArrays,
  type SqlExport,
  type SqlExportOptions,
  selectList,
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
 * Per class, `previous(c)` (when given) plus the scores of trees `from` … `to` − 1 at their leaves,
 * added left to right in tree order: `term(c, t)` is tree t's score of class c at its leaf; a tree
 * that never scores the class adds nothing.
 */
function partialSums(
  w: ForestWalk,
  term: (c: number, t: number) => string,
  from: number,
  to: number,
  previous?: (c: number) => string,
): string[] {
  return w.forest.classes.map((_, c) => {
    const terms = previous ? [previous(c)] : [];
    for (let j = from; j < to; j++) if (w.trees[j].scores[c].some((x) => x !== 0)) terms.push(term(c, j));
    return terms.length > 0 ? terms.join(' + ') : w.r.double(0);
  });
}

/**
 * The forest's probability of each class, as grove computes it: the trees' leaf scores added in
 * tree order, then divided by the number of trees (the same double operations, so the same bits).
 */
function sumColumns(w: ForestWalk, term: (c: number, t: number) => string): string[] {
  return partialSums(w, term, 0, w.trees.length).map((sum) => `(${sum}) / ${w.r.double(w.trees.length)}`);
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
  const sums = sumColumns(w, (c, j) => subscript(r.doubles(trees[j].scores[c]), `-q.${state(j)}`));
  return [
    `SELECT ${expand('q.grove_row')},\n  ${outputs(
      w,
      (c) => `q.grove_p${c + 1}`,
      (literal) => literal,
    )}\nFROM (`,
    `SELECT q.grove_row, ${sums.map((sum, c) => `${sum} AS grove_p${c + 1}`).join(',\n  ')}\nFROM (`,
    ...heads.reverse(),
    innermost,
    ') AS q OFFSET 0'.repeat(depth + 1),
    ') AS q\n',
  ].join('');
}

/**
 * Trees per lambda in the ClickHouse query. ClickHouse 18.16's analysis of one scope (the query,
 * or a lambda's body) grows with the square of the expressions in it, and each lambda copies the
 * columns of the scope around it: blocks of about 2.5 √T trees balance the two (measured on iris
 * forests of 100 and 400 trees, docs/export.md).
 */
function treesPerLambda(trees: number): number {
  return Math.max(25, Math.round(2.5 * Math.sqrt(trees)));
}

/** A name for each constant array, bound once in `WITH` (`bound`). */
function constantNames(): { named: Named; bound: string[] } {
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
  return { named, bound };
}

/**
 * ClickHouse: each tree's leaf as one nested expression (`nestedLeaf`). Per block of trees, one
 * lambda over the row's values gives the block's leaves, and one over those and the sums so far
 * adds the block's leaf scores (tree order kept; the last block divides by the trees): `grove_p`,
 * the probabilities; one lambda over those picks the label. ClickHouse 18.16 expands a `WITH` name
 * at each use and walks the expansion again, so each big expression is used once, as a lambda's
 * argument, and read inside through the parameter's short name.
 */
function forestClickHouse(w: ForestWalk): string {
  const { r, trees } = w;
  const size = treesPerLambda(trees.length);
  const { named, bound } = constantNames();
  const bindOnce = bindOnceOf(r, 'E_MODEL');
  const p = trees[0].p;
  const values = nestedValues(p, [...new Set(trees.flatMap((t) => walkedFeatures(t.tables)))], r, named);
  // Per class, one array of every tree's leaf scores, tree j's from offset[j] + 1: a constant per
  // tree and class would be a column that every lambda's analysis copies.
  const offset: number[] = [];
  let leaves = 0;
  for (const t of trees) {
    offset.push(leaves);
    leaves += t.tables.leafNode.length;
  }
  const scores = w.forest.classes.map((_, c) => named(r.doubles(trees.flatMap((t) => t.scores[c]))));
  const term = (c: number, j: number): string =>
    subscript(scores[c], `${offset[j]} - (${subscript('grove_l', String((j % size) + 1))})`);
  let sums: string | undefined;
  for (let b = 0; b < trees.length; b += size) {
    const end = Math.min(b + size, trees.length);
    const block = r.array(trees.slice(b, end).map((t) => nestedLeaf(t.p, t.tables, { r, value: values.value })));
    // A forest of single leaves tests nothing: its blocks are constant arrays.
    const blockLeaves = values.params.length > 0 ? bindOnce(values.params, values.args, block) : block;
    const previous = sums === undefined ? undefined : (c: number) => subscript('grove_r', String(c + 1));
    let added = partialSums(w, term, b, end, previous);
    if (end === trees.length) added = added.map((sum) => `(${sum}) / ${r.double(trees.length)}`);
    sums =
      sums === undefined
        ? bindOnce(['grove_l'], [blockLeaves], r.array(added))
        : bindOnce(['grove_l', 'grove_r'], [blockLeaves, sums], r.array(added));
  }
  const label = labelColumn(w, (c) => subscript('grove_q', String(c + 1)), named);
  const columns = [{ name: label.name, sql: bindOnce(['grove_q'], ['grove_p'], label.sql) }];
  if (w.proba)
    w.forest.classes.forEach((name, c) => {
      columns.push({ name: String(name), sql: subscript('grove_p', String(c + 1)) });
    });
  const definitions = [...values.definitions, ...bound, `${sums} AS grove_p`].join(',\n  ');
  return `WITH\n  ${definitions}\nSELECT t.*,\n  ${selectList(columns, r)}\nFROM ${w.from} AS t\n`;
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
