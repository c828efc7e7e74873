import { badArgument } from '../../core/args.js';
import type { DecisionTree } from '../../model/decision-tree.js';
import { branchDomain } from '../../model/route.js';
import type { FeatureSchema } from '../../model/schema.js';
import type { Split } from '../../model/split.js';
import { checkTree } from '../check-tree.js';
import { type PortableTree, portableTree, UNCLASSIFIED_LABEL } from '../portable.js';
import { type DialectRules, dialectRules, SQL_DIALECTS, type SqlDialect, tableReference } from './dialect.js';

/** What `treeToSql` needs besides the model. */
export interface SqlExportOptions {
  dialect: SqlDialect;
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
 * The values a categorical (or ordered) column takes to reach branch `b` of `split`, as SQL text
 * per value; `other` lists the values of every other branch (the missing branch takes whatever
 * they do not: NULL, unknown strings, categories unseen at the node).
 */
function categoryValues(split: Split, b: number, f: FeatureSchema): number[] {
  const domain = branchDomain(split, b);
  if (domain.kind === 'categories') return [...domain.codes];
  // An ordered feature: the ranks in (low, high] are the level indexes low..high-1 (ranks are 1-based).
  const levels = f.levels ?? [];
  const out: number[] = [];
  for (let r = 1; r <= levels.length; r++) {
    if ((domain.low === undefined || r > domain.low) && (domain.high === undefined || r <= domain.high))
      out.push(r - 1);
  }
  return out;
}

/** The SQL test for taking branch `b` of node `i` (grove's routing, NULL as the model routes missing values). */
function branchTest(p: PortableTree, i: number, b: number, rules: DialectRules): string {
  const node = p.tree.nodes[i];
  const split = node.split!;
  const f = p.tree.features[split.feature];
  const column = `t.${rules.identifier(f.name)}`;
  const isMissingBranch = p.missingBranch[i] === b;
  if (f.kind === 'numeric' && !f.levels) {
    const d = branchDomain(split, b);
    if (d.kind !== 'interval') throw new Error('numeric split with a categorical domain');
    const parts: string[] = [];
    if (d.low !== undefined) parts.push(`${column} > ${rules.double(d.low)}`);
    if (d.high !== undefined) parts.push(`${column} <= ${rules.double(d.high)}`);
    const test = parts.join(' AND ');
    return isMissingBranch ? `(${column} IS NULL OR ${test})` : `(${test})`;
  }
  const names = f.levels ?? f.categories ?? [];
  const list = (codes: number[]): string => codes.map((c) => rules.string(names[c])).join(', ');
  if (!isMissingBranch) {
    const codes = categoryValues(split, b, f);
    return codes.length > 0 ? `${column} IN (${list(codes)})` : '1 = 0';
  }
  const others: number[] = [];
  for (let o = 0; o < node.children!.length; o++) if (o !== b) others.push(...categoryValues(split, o, f));
  return others.length > 0 ? `(${column} IS NULL OR ${column} NOT IN (${list(others)}))` : '1 = 1';
}

/** Tree levels written as nested CASE expressions; deeper subtrees are flat (see `treeToSql`). */
export const NESTED_LEVELS = 64;

/**
 * The value of every leaf of the subtree under `root` as one flat CASE: a WHEN per leaf with its
 * path's conjunction from `root`. Iterative (children have higher ids than their parent).
 */
function flatCase(p: PortableTree, root: number, value: (node: number) => string, rules: DialectRules): string {
  const nodes = p.tree.nodes;
  const whens: string[] = [];
  const stack: Array<[node: number, path: string[]]> = [[root, []]];
  while (stack.length > 0) {
    const [i, path] = stack.pop()!;
    const node = nodes[i];
    if (!node.children) {
      whens.push(`WHEN ${path.length > 0 ? path.join(' AND ') : '1 = 1'} THEN ${value(i)}`);
      continue;
    }
    for (let b = node.children.length - 1; b >= 0; b--)
      stack.push([node.children[b], [...path, branchTest(p, i, b, rules)]]);
  }
  return `CASE ${whens.join(' ')} END`;
}

/** One level of the nested form: the CASE choosing among node i's children's expressions `sub`. */
function nodeCase(p: PortableTree, i: number, sub: (b: number) => string, rules: DialectRules): string {
  const node = p.tree.nodes[i];
  const split = node.split!;
  const f = p.tree.features[split.feature];
  const column = `t.${rules.identifier(f.name)}`;
  const m = p.missingBranch[i];
  if (f.kind === 'numeric' && !f.levels && split.kind === 'numeric') {
    // grove: the first branch j with x <= t_j, else the last. NULL fails every test before m's
    // (NULL <= t is not true), so adding `IS NULL` to m's test (or the ELSE, for the last) routes it.
    const whens = split.thresholds.map((t, j) => {
      const test = `${column} <= ${rules.double(t)}`;
      return `WHEN ${j === m ? `(${column} IS NULL OR ${test})` : test} THEN ${sub(j)}`;
    });
    return `CASE ${whens.join(' ')} ELSE ${sub(split.thresholds.length)} END`;
  }
  // Categorical or ordered: each branch but m by its values; NULL and every other string take m.
  const names = f.levels ?? f.categories ?? [];
  const whens: string[] = [];
  for (let b = 0; b < node.children!.length; b++) {
    if (b === m) continue;
    const codes = categoryValues(split, b, f);
    if (codes.length > 0)
      whens.push(`WHEN ${column} IN (${codes.map((c) => rules.string(names[c])).join(', ')}) THEN ${sub(b)}`);
  }
  return whens.length > 0 ? `CASE ${whens.join(' ')} ELSE ${sub(m)} END` : sub(m);
}

/**
 * One output column as an expression over the row: nested CASE expressions following the tree
 * (each split's test written once), a subtree whose leaves all give the same value folded into that
 * value, and subtrees below `NESTED_LEVELS` written flat so that the expression's depth stays
 * within every database's limit whatever the tree's depth. Built bottom-up, without recursion.
 */
function columnExpression(p: PortableTree, leafValue: (leaf: number) => string, rules: DialectRules): string {
  const nodes = p.tree.nodes;
  const n = nodes.length;
  // The value every leaf under a node gives, when they all agree (then no test is needed there).
  const same: (string | undefined)[] = new Array(n);
  for (let i = n - 1; i >= 0; i--) {
    const children = nodes[i].children;
    if (!children) {
      same[i] = leafValue(i);
      continue;
    }
    const first = same[children[0]];
    same[i] = first !== undefined && children.every((c) => same[c] === first) ? first : undefined;
  }
  const expr: string[] = new Array(n);
  const value = (i: number): string => same[i] ?? expr[i];
  for (let i = n - 1; i >= 0; i--) {
    const node = nodes[i];
    if (!node.children || same[i] !== undefined) continue;
    expr[i] =
      node.depth === NESTED_LEVELS
        ? flatCase(p, i, leafValue, rules)
        : node.depth < NESTED_LEVELS
          ? nodeCase(p, i, (b) => value(node.children![b]), rules)
          : '';
    // Below NESTED_LEVELS only the flat CASE at that level is used; free the children's texts.
    for (const c of node.children) if (node.depth < NESTED_LEVELS) expr[c] = '';
  }
  return value(0);
}

/**
 * A `SELECT t.*, <label> AS predicted[, <p> AS "<class>" …] FROM <table> AS t` query that scores
 * every row as `grove predict` does (`columnExpression`), NULL routed as the model routes a missing
 * value, a C-MBSV unclassified region labelled `unclassified` with NULL probabilities.
 */
export function treeToSql(tree: DecisionTree, options: SqlExportOptions): SqlExport {
  checkTree(tree, 'treeToSql');
  if (typeof options !== 'object' || options === null)
    badArgument('treeToSql', 'options', 'an object { dialect, table, proba? }', options);
  if (!(SQL_DIALECTS as readonly unknown[]).includes(options.dialect))
    badArgument('treeToSql', 'options.dialect', `one of ${SQL_DIALECTS.join(', ')}`, options.dialect);
  if (typeof options.table !== 'string')
    badArgument('treeToSql', 'options.table', 'a table name (a string)', options.table);
  const p = portableTree(tree, 'SQL');
  const rules = dialectRules(options.dialect);
  const from = tableReference(options.table, rules);
  const k = tree.classes.length;
  const numericLabels = !p.hasUnclassified && tree.classes.every((c) => typeof c === 'number' && Number.isFinite(c));
  const labelOf = (leaf: number): string => {
    if (tree.nodes[leaf].unclassified) return rules.string(UNCLASSIFIED_LABEL);
    const c = tree.classes[p.classOf[leaf]];
    return numericLabels ? String(c) : rules.string(String(c));
  };
  const caseOf = (value: (leaf: number) => string): string => columnExpression(p, value, rules);
  const columns = [`${caseOf(labelOf)} AS ${rules.identifier('predicted')}`];
  if (options.proba) {
    for (let c = 0; c < k; c++) {
      const value = (leaf: number): string =>
        tree.nodes[leaf].unclassified ? 'NULL' : rules.double(p.proba[leaf * k + c]);
      columns.push(`${caseOf(value)} AS ${rules.identifier(String(tree.classes[c]))}`);
    }
  }
  const sql = `SELECT t.*,\n  ${columns.join(',\n  ')}\nFROM ${from} AS t\n`;
  return { sql, warnings: p.warnings };
}
