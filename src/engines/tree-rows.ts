/**
 * The training rows as subtree raising recounts them, from a database. Raising re-routes the rows
 * of a node's other branches down its largest one, through tests they never met while the tree
 * grew; all it reads of a row is its class, its weight and its branch at each test of the tree.
 * Rows that every test sends alike are one to it: the engine groups the rows by class and by the
 * interval of each feature's thresholds (or category) they fall in — one GROUP BY — and hands over
 * per group its summed weight and its rows. The pruner (src/prune/subtree-raising.ts, the same code
 * as in memory) routes those groups, each a row of a small data set whose value stands for its
 * interval, and counts `n` by the rows each stands for. Under C4.5's fractional missing values
 * the rows are not grouped (see `treeRows`).
 */
import type { Column, Dataset } from '../data/dataset.js';
import type { TreeNode } from '../model/node.js';
import { Params, streamNumbers } from './engine.js';
import { categoryCode, type EngineRows, weightedRows } from './rows.js';

/** The grouped rows: a data set of one row per group, its summed weights, and the rows of each. */
export interface TreeRows {
  data: Dataset;
  weights: Float64Array;
  rowCounts: Float64Array;
}

/** A growing list of doubles per column. */
class Columns {
  data: Float64Array[];
  length = 0;
  constructor(width: number) {
    this.data = Array.from({ length: width }, () => new Float64Array(1024));
  }
  push(columns: Float64Array[], i: number): void {
    if (this.length === this.data[0].length)
      this.data = this.data.map((old) => {
        const grown = new Float64Array(old.length * 2);
        grown.set(old);
        return grown;
      });
    for (let j = 0; j < columns.length; j++) this.data[j][this.length] = columns[j][i];
    this.length++;
  }
}

/** Each feature's sorted thresholds in `nodes` (numeric), true for a categorical feature split on, null when unused. */
function testsOf(nodes: readonly TreeNode[], d: number): (number[] | true | null)[] {
  const tests: (Set<number> | true | null)[] = Array.from({ length: d }, () => null);
  for (const { split } of nodes) {
    if (!split) continue;
    if (split.kind !== 'numeric') tests[split.feature] = true;
    else {
      const set = (tests[split.feature] as Set<number> | null) ?? new Set<number>();
      for (const t of split.thresholds) set.add(t);
      tests[split.feature] = set;
    }
  }
  return tests.map((t) => (t === null || t === true ? t : [...t].sort((a, b) => a - b)));
}

/**
 * The training rows of `rows` grouped as the tests of `nodes` see them (one query), as a data set
 * for the pruner: a numeric feature's value is its interval's upper threshold (above the last: the
 * largest double; missing: NaN), a categorical one's its category code (missing: −1).
 */
export async function treeRows(nodes: readonly TreeNode[], rows: EngineRows): Promise<TreeRows> {
  const { engine, schema } = rows;
  const d = engine.dialect;
  const tests = testsOf(nodes, schema.features.length);
  const used = tests.flatMap((t, f) => (t === null ? [] : [f]));
  const p = new Params(d);
  // Fractional missing values multiply a row's weight by shares: a group's sum times a share is
  // not its rows' products summed, so each row comes alone, in the engine's scan order (fit's order).
  const alone = rows.fractional === true;
  const from = weightedRows(rows, p, (v) => [
    ...(alone ? [['rn', d.rowNumber] as [string, string]] : []),
    ...used.map((f): [string, string] => {
      const col = schema.features[f];
      const t = tests[f];
      if (col.kind === 'categorical' || t === true || t === null)
        return [`i${f}`, categoryCode(v[f], col.categories, p, d)];
      const whens = t.map((x, i) => `WHEN ${v[f]} <= ${p.add(x)} THEN ${i}`).join(' ');
      return [`i${f}`, `CASE WHEN ${v[f]} IS NULL THEN -1 ${whens} ELSE ${t.length} END`];
    }),
  ]);
  const keys = ['y', ...used.map((f) => `i${f}`)];
  const sql = alone
    ? `SELECT ${keys.join(', ')}, ${d.numberToDouble('w')}, ${d.numberToDouble('1')} FROM ${from} AS r ORDER BY rn`
    : `SELECT ${keys.join(', ')}, ${d.numberToDouble('SUM(w)')}, ${d.numberToDouble('COUNT(*)')} FROM ${from} AS r ` +
      // Ordered, so the pruner's sums (of weights that are not whole numbers) are the same every time.
      `GROUP BY ${keys.join(', ')} ORDER BY ${keys.join(', ')}`;
  const groups = new Columns(keys.length + 2);
  await streamNumbers(engine, sql, p.values, (columns, count) => {
    for (let i = 0; i < count; i++) groups.push(columns, i);
  });
  const g = groups.length;
  const zeros = new Float64Array(g);
  const features = schema.features.map((col, f): Column => {
    const at = used.indexOf(f) + 1;
    const codes = at > 0 ? groups.data[at].subarray(0, g) : zeros;
    if (col.kind === 'categorical') {
      const missing = col.categories.length;
      const own = Int32Array.from(codes, (c) => (c === missing ? -1 : c));
      return { kind: 'categorical', name: col.name, codes: own, categories: col.categories };
    }
    const t = tests[f];
    if (!Array.isArray(t)) return { kind: 'numeric', name: col.name, values: zeros };
    const values = Float64Array.from(codes, (i) => (i < 0 ? Number.NaN : i < t.length ? t[i] : Number.MAX_VALUE));
    return { kind: 'numeric', name: col.name, values };
  });
  const data: Dataset = {
    features,
    labels: Int32Array.from(groups.data[0].subarray(0, g)),
    classes: schema.classes,
    targetName: schema.targetName,
    nRows: g,
  };
  const weights = groups.data[keys.length].slice(0, g);
  return { data, weights, rowCounts: groups.data[keys.length + 1].slice(0, g) };
}
