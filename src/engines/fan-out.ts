/**
 * C4.5's fractional missing values in a database. A row whose split value is missing goes down
 * every branch with its weight times the branch's share, so a level's rows are (node, weight)
 * entries: a row may be in several nodes with a weight in each. Each level's table is made from
 * the previous one in one scan: a row's next node by the level's step (routing.ts), and a row
 * whose code at its parent's split is the missing code repeated once per branch
 * (`Dialect.repeatIndex`), with the branch's child and `w` × the branch's share — the double
 * product memory's grower takes (src/learn/grow-hist-fractional.ts).
 */
import { GroveError } from '../core/errors.js';
import type { Dialect } from '../sql/index.js';
import type { Route } from './step-sql.js';

/** A row's next slot by the level's step, and the FROM item it reads. */
export interface StepSql {
  slot: string;
  from: string;
}

/** The routes of a level's parents that send rows down every branch (`Route.shares`). */
function fanning(routed: ReadonlyMap<number, Route>): [number, Route & { shares: Float64Array }][] {
  const out: [number, Route & { shares: Float64Array }][] = [];
  for (const [parent, route] of routed) if (route.shares) out.push([parent, route as Route & { shares: Float64Array }]);
  return out;
}

/**
 * The SELECT of the next level's rows (node, y, w, c0 … c(d−1)) from the rows `step` reads, where
 * `node` is the SQL of a row's slot in the previous level; `nodeType` the new node column's type.
 */
export function fanOutSelect(
  d: Dialect,
  node: string,
  step: StepSql,
  routed: ReadonlyMap<number, Route>,
  slotOf: ReadonlyMap<number, number>,
  slots: ReadonlyMap<number, number>,
  codes: readonly string[],
  nodeType: string,
): string {
  if (!d.repeatIndex)
    throw new GroveError(`C4.5's fractional missing values cannot be computed inside ${d.name}`, { code: 'E_OPTION' });
  const copies: string[] = [];
  const child: string[] = [];
  const share: string[] = [];
  for (const [parent, route] of fanning(routed)) {
    const at = slotOf.get(parent)!;
    const missingCode = route.branchOfCode.length - 1;
    copies.push(`WHEN ${node} = ${at} AND c${route.feature} = ${missingCode} THEN ${route.children.length}`);
    route.children.forEach((id, b) => {
      const slot = slots.get(id);
      if (slot === undefined) return;
      child.push(`WHEN parent = ${at} AND b = ${b} THEN ${slot}`);
      share.push(`WHEN parent = ${at} AND b = ${b} THEN ${d.double(route.shares[b])}`);
    });
  }
  const cs = codes.join(', ');
  const many = copies.length === 0 ? '1' : `CASE ${copies.join(' ')} ELSE 1 END`;
  const childOf = child.length === 0 ? '-1' : `CASE ${child.join(' ')} ELSE -1 END`;
  const shareOf = share.length === 0 ? d.double(1) : `CASE ${share.join(' ')} ELSE ${d.double(1)} END`;
  // Named apart from w and node: ClickHouse's aliases are seen by every expression of the SELECT.
  const selected = `${step.slot} AS slot0, ${node} AS parent, ${many} AS copies, y, w, ${cs}`;
  const routedRows = `SELECT ${selected} FROM ${step.from}`;
  const repeated = `SELECT ${d.repeatIndex('copies')} AS b, * FROM (${routedRows}) AS s`;
  const next =
    `SELECT CASE WHEN copies = 1 THEN slot0 ELSE ${childOf} END AS slot, ` +
    `CASE WHEN copies = 1 THEN w ELSE w * ${shareOf} END AS fw, y, ${cs} FROM (${repeated}) AS r`;
  return `SELECT CAST(slot AS ${nodeType}) AS node, y, fw AS w, ${cs} FROM (${next}) AS t WHERE slot >= 0`;
}

/**
 * Fractional missing values need a table per level (a row in several nodes): where the database
 * makes none (rows on other servers, no DDL rights) the fit is refused.
 */
export function refuseFlatFractional(engine: string, flag = 'missing'): GroveError {
  return new GroveError(
    `${flag} fractional (rows with a missing value split across branches) needs temporary tables, which ` +
      `${engine} makes none of here; use ${flag} majority or learned, or --engine memory`,
    { code: 'E_OPTION' },
  );
}
