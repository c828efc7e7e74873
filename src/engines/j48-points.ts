/**
 * Weka J48's thresholds inside a database: every numeric split's threshold moved from its bin
 * edge down to the largest training value of the whole column at or below it, as
 * src/learn/j48-thresholds.ts moves them in memory. One scan finds every split's largest value
 * (a MAX per threshold), a second one the value below it; only when two training values lie within
 * Weka's 1e-6 of each other there does J48's answer depend on the row order, and the rows of that
 * cluster are read in the engine's scan order and scanned as J48 scans them.
 */
import { j48Scan, SMALL } from '../learn/j48-thresholds.js';
import type { TreeNode } from '../model/node.js';
import { Params } from './engine.js';
import { type EngineRows, weightedRows } from './rows.js';

/** MAX expressions in one query at most (the query text grows with them). */
const PER_QUERY = 200;

/** A numeric split's threshold to move: the feature and the threshold. */
interface Point {
  f: number;
  t: number;
}

/** The nodes with every numeric threshold at J48's training value (new node objects where one moved). */
export async function j48PointsInEngine(nodes: readonly TreeNode[], rows: EngineRows): Promise<TreeNode[]> {
  const points = new Map<string, Point>();
  for (const node of nodes) {
    if (node.split?.kind !== 'numeric') continue;
    for (const t of node.split.thresholds) points.set(key(node.split.feature, t), { f: node.split.feature, t });
  }
  const list = [...points.values()];
  // m: the largest training value with m − t < 1e-6; then the largest value below m.
  const largest = await maxima(rows, list, (p, { f, t }) => `x${f} - ${p.add(t)} < ${p.add(SMALL)}`);
  const below = await maxima(rows, list, (p, { f }, i) =>
    largest[i] === null ? '1 = 0' : `x${f} < ${p.add(largest[i])}`,
  );
  const moved = new Map<string, number>();
  for (let i = 0; i < list.length; i++) {
    const { f, t } = list[i];
    const m = largest[i];
    const next = below[i];
    if (m === null) moved.set(key(f, t), t);
    else if (next === null || m - next > SMALL) moved.set(key(f, t), m);
    else moved.set(key(f, t), await clusterScan(rows, f, t, m, next));
  }
  return nodes.map((node) => {
    const split = node.split;
    if (split?.kind !== 'numeric') return node;
    const thresholds = split.thresholds.map((t) => moved.get(key(split.feature, t))!);
    return { ...node, split: { ...split, thresholds } };
  });
}

function key(f: number, t: number): string {
  return `${f} ${t}`;
}

/** The training rows (weight > 0) with the value of each feature in `features` as column `x<f>`. */
function valuesOf(rows: EngineRows, p: Params, features: Iterable<number>, more: [string, string][] = []): string {
  return weightedRows(rows, p, (v) => [
    ...[...new Set(features)].map((f): [string, string] => [`x${f}`, v[f]]),
    ...more,
  ]);
}

/** Per point, the largest training value of its feature where `when` holds (null: none), PER_QUERY a scan. */
async function maxima(
  rows: EngineRows,
  points: readonly Point[],
  when: (p: Params, point: Point, i: number) => string,
): Promise<(number | null)[]> {
  const out: (number | null)[] = [];
  const d = rows.engine.dialect;
  for (let lo = 0; lo < points.length; lo += PER_QUERY) {
    const p = new Params(d);
    const batch = points.slice(lo, lo + PER_QUERY);
    const from = valuesOf(
      rows,
      p,
      batch.map((pt) => pt.f),
    );
    const cols = batch.map((pt, j) => `MAX(CASE WHEN ${when(p, pt, lo + j)} THEN x${pt.f} ELSE NULL END)`);
    const [result] = await rows.engine.query(`SELECT ${cols.join(', ')} FROM ${from} AS r`, p.values);
    for (const v of result) out.push(v === null || v === undefined ? null : Number(v));
  }
  return out;
}

/**
 * J48's value where training values crowd within 1e-6 below `m`: the cluster of values reaching
 * down from `m` in steps of at most 1e-6 (values under a wider gap never change J48's answer), read
 * in the engine's scan order and scanned as J48 scans the column.
 */
async function clusterScan(rows: EngineRows, f: number, t: number, m: number, next: number): Promise<number> {
  const { engine } = rows;
  const d = engine.dialect;
  let bottom = next;
  for (;;) {
    const p = new Params(d);
    const from = valuesOf(rows, p, [f]);
    const [[lower]] = await engine.query(
      `SELECT MAX(x${f}) FROM ${from} AS r WHERE x${f} < ${p.add(bottom)}`,
      p.values,
    );
    if (lower === null || lower === undefined || bottom - Number(lower) > SMALL) break;
    bottom = Number(lower);
  }
  const p = new Params(d);
  // Numbered in the engine's scan order before the rows of weight 0 are left out, as `fit` keeps their order.
  const from = valuesOf(rows, p, [f], [['rn', d.rowNumber]]);
  const values: number[] = [];
  await engine.stream(
    `SELECT x${f} FROM ${from} AS r WHERE x${f} >= ${p.add(bottom)} AND x${f} <= ${p.add(m)} ORDER BY rn`,
    p.values,
    (batch) => {
      for (const [x] of batch) values.push(Number(x));
    },
  );
  return j48Scan(values, t);
}
