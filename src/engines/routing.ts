/**
 * Routing rows to their next node as SQL, for the in-database grower: the rows a level reads (a
 * temporary table, or the source's rows where the engine keeps them in place), and each level's
 * step from the nodes split to their children. The way a new table computes a row's next node is
 * chosen once, from the dialect's declared capabilities (src/sql/dialect.ts), never its name.
 */
import { GroveError } from '../core/errors.js';
import type { BinnedFeature } from '../split/histogram.js';
import { type Dialect, walkNode } from '../sql/index.js';
import type { CodeGrid } from './code-grid.js';
import { type Engine, Params, type SqlValue } from './engine.js';
import { fanOutSelect, refuseFlatFractional } from './fan-out.js';
import { type FlatRow, flatCodes, flatRow } from './flat.js';
import { codedRowsSelect, type EngineRows, unitWeights } from './rows.js';
import { caseStep, lookupCase, type Route, stepTables } from './step-sql.js';
import type { TempTables } from './temp-tables.js';

/**
 * The rows one level reads: a FROM item, the SQL of a row's slot in the level (−1 or absent: in no
 * counted or open node), its parameters, and how to remove it. Without temporary tables (`flat`),
 * the source's row and codes as expressions, each query one SELECT over the source (flat.ts).
 */
export interface LevelRows {
  from: string;
  node: string;
  /** True when the rows store a weight column `w`; else every row weighs 1. */
  weighted: boolean;
  params: readonly SqlValue[];
  flat: { row: FlatRow; codes: string[] } | null;
  /**
   * True when `node` is one routing step over the rows of `from` (a table kept from the level
   * before), computed by every query of the level instead of written to a table of its own.
   */
  stepped?: boolean;
  /**
   * The rows of `from` when it is grove's table with a node column the engine updates in place
   * (`Dialect.nodeColumn`), rows in no node included; null when each level writes a new table.
   */
  tableRows: number | null;
  drop(): Promise<void>;
}

/** The SQL of a row's weight in `rows`: its `w` column, or 1. */
export function weightOf(rows: LevelRows, d: Dialect): string {
  return rows.weighted ? 'w' : d.numberToDouble('1');
}

/**
 * How a new level table computes a row's next slot: `lookup`, two integer lists as columns of a
 * joined row (`intList` and `listColumns`); `literal`, lists written into the query
 * (`literalLists`); else `case`, a CASE over the parents. A lookup that would be too long falls
 * back to the CASE.
 */
export type TableStep = 'lookup' | 'literal' | 'case';

/** The table step of a dialect, from its capabilities. */
export function tableStepOf(d: Dialect): TableStep {
  if (d.intList && d.listColumns) return 'lookup';
  if (d.literalLists) return 'literal';
  return 'case';
}

/** The splits routing reads, kept by the grower: every split's route, and those of the level being expanded. */
export interface RouteState {
  /** Every split node's route, by node id. */
  readonly routes: ReadonlyMap<number, Route>;
  /** The nodes split in the level being expanded, and their routes. */
  readonly routedChildren: ReadonlyMap<number, Route>;
  /** The slots of the nodes split in the level being expanded. */
  readonly slotOf: ReadonlyMap<number, number>;
}

/** A row's next slot and the FROM item that computes it. */
interface SlotSql {
  slot: string;
  from: string;
}

/** The rows of each level of one growth, routed by one strategy chosen from the engine's dialect. */
export class Router {
  readonly step: TableStep;
  private readonly codes: string[];

  constructor(
    private readonly rows: EngineRows,
    private readonly tables: TempTables,
    private readonly state: RouteState,
    /** The number of codes of the widest feature (the walk's code type). */
    private readonly codeCount: number,
    /** C4.5's fractional missing values on rows with missing values: each level's table by `fanOut`. */
    private readonly fractional = false,
  ) {
    this.step = tableStepOf(rows.engine.dialect);
    this.codes = rows.schema.features.map((_, f) => `c${f}`);
  }

  private get engine(): Engine {
    return this.rows.engine;
  }

  /**
   * The rows as the levels read them — y, w and every feature's code c0 … c(d−1) — in a temporary
   * table when the engine makes one (codes computed once), else as expressions of the source's
   * columns, which every level query computes again (flat.ts).
   */
  async coded(binned: (BinnedFeature | null)[], grids: (CodeGrid | null)[], nBins: number[]): Promise<LevelRows> {
    const { engine, spread } = this.rows;
    const d = engine.dialect;
    if (!spread) {
      // A row's weight in a node is a share of its own under the fractional policy: always a w.
      const unit = !this.fractional && unitWeights(this.rows);
      const p = new Params(d);
      const coded = codedRowsSelect(this.rows, binned, grids, nBins, p, !unit);
      // Every row starts in the root: the column is read only once a level has updated it.
      const column = d.nodeColumn;
      const select = column ? `SELECT CAST(0 AS ${column.type}) AS node, * FROM (${coded}) AS rows` : coded;
      // The engine may still refuse a table (no DDL rights): the flat form below then.
      const table = await this.tables.tryMake(select, p.values, this.rows.schema.source.from(new Params(d)));
      if (table) {
        // `tableRows` holds the rows once the root's counts tell them.
        const tableRows = column ? 0 : null;
        const drop = () => table.drop();
        return { from: table.name, node: '0', weighted: !unit, params: [], flat: null, tableRows, drop };
      }
    }
    if (!d.flatLevels) throw new GroveError(`${d.name} made no temporary table of the coded rows`, { code: 'E_IO' });
    if (this.fractional) throw refuseFlatFractional(d.name);
    const p = new Params(d);
    const row = flatRow(this.rows, p);
    const codes = flatCodes(this.rows, row, binned, nBins, p);
    const drop = async () => {};
    return { from: row.from, node: '0', weighted: true, params: p.values, flat: { row, codes }, tableRows: null, drop };
  }

  /**
   * The rows of the next level, whose nodes hold `open` rows. With temporary tables, each row's
   * node one step of routing from its parent's split: after a level of one split, the previous
   * rows with that split's step as their node (`stepped`); where the engine updates a node column
   * in place and at least half the table's rows are in `slots`, the previous table with its node
   * column updated (`updateNodes`); else a new table made from the previous one holding only the
   * rows of nodes in `slots` (rows in leaves are left out), as the in-memory grower partitions
   * rows. Without (a distributed table), each row's node a walk down the tree so far (src/sql/walk.ts).
   */
  async next(previous: LevelRows, slots: Map<number, number>, open: number): Promise<LevelRows> {
    const d = this.engine.dialect;
    const { routedChildren, slotOf } = this.state;
    if (previous.flat) {
      const { row, codes } = previous.flat;
      return { ...previous, node: walkNode(d, codes, this.state.routes, slots, d.intType(this.codeCount), row.name) };
    }
    if (this.fractional) return this.fanOut(previous, slots);
    // One parent split (the root, or a chain): its CASE is a comparison or two per row, cheaper in
    // each count query than writing every row to a new table. Two steps nested are not.
    if (routedChildren.size === 1 && !previous.stepped)
      return { ...previous, node: caseStep(previous.node, routedChildren, slotOf, slots), stepped: true };
    // The node column updated in place, where the engine has one that holds the level's slots.
    const column = d.nodeColumn && slots.size <= d.nodeColumn.max ? d.nodeColumn : null;
    // In place while at least half the table's rows are still open; else a new table, without the rest.
    if (previous.tableRows !== null && column && 2 * open >= previous.tableRows)
      return this.updateNodes(previous, slots);
    const yw = previous.weighted ? 'y, w' : 'y';
    const codes = this.codes.join(', ');
    // A stepped level's rows in no node (−1) are left out before the next step reads their node.
    const source = previous.stepped
      ? {
          ...previous,
          from:
            `(SELECT * FROM (SELECT ${previous.node} AS node, ${yw}, ${codes} FROM ${previous.from} AS s) AS t ` +
            'WHERE node >= 0)',
          node: 'node',
        }
      : previous;
    const p = new Params(d);
    const { slot, from } = this.stepSql(source, slots, p);
    // The narrowest node column (the one updated in place where the engine does), and w only
    // when rows differ in weight. The filter reads `slot`, not `node`: ClickHouse's WHERE sees the
    // SELECT's aliases, and the cast to an unsigned type would make −1 pass.
    const narrow = `CAST(slot AS ${column ? column.type : d.intType(slots.size)})`;
    const table = await this.tables.make(
      `SELECT ${narrow} AS node, ${yw}, ${codes} ` +
        `FROM (SELECT ${slot} AS slot, ${yw}, ${codes} FROM ${from}) AS s WHERE slot >= 0`,
      p.values,
      'from its own temporary table',
    );
    const tableRows = column ? open : null;
    const drop = () => table.drop();
    return { from: table.name, node: 'node', weighted: previous.weighted, params: [], flat: null, tableRows, drop };
  }

  /**
   * The next level's rows under C4.5's fractional policy: always a new table, where a row whose
   * split value is missing is in every child with its share of the weight (fan-out.ts).
   */
  private async fanOut(previous: LevelRows, slots: Map<number, number>): Promise<LevelRows> {
    const d = this.engine.dialect;
    const p = new Params(d);
    const step = this.stepSql(previous, slots, p);
    const { routedChildren, slotOf } = this.state;
    const select = fanOutSelect(
      d,
      previous.node,
      step,
      routedChildren,
      slotOf,
      slots,
      this.codes,
      d.intType(slots.size),
    );
    const table = await this.tables.make(select, p.values, 'from its own temporary table');
    const drop = () => table.drop();
    return { from: table.name, node: 'node', weighted: true, params: [], flat: null, tableRows: null, drop };
  }

  /** A row's next slot over the rows of `source` by this router's table step. */
  stepSql(source: LevelRows, slots: Map<number, number>, p: Params): SlotSql {
    const step =
      this.step === 'lookup'
        ? this.lookupStep(source, slots, p)
        : this.step === 'literal'
          ? this.literalStep(source, slots)
          : null;
    const { routedChildren, slotOf } = this.state;
    return step ?? { slot: caseStep(source.node, routedChildren, slotOf, slots), from: `${source.from} AS p` };
  }

  /**
   * The next level's rows as the previous table with its node column set to each row's slot in
   * place: an UPDATE writes that one narrow column where a new table writes every code again.
   * Rows in no node stay in the table at −1, which no count query reads.
   */
  private async updateNodes(previous: LevelRows, slots: Map<number, number>): Promise<LevelRows> {
    const p = new Params(this.engine.dialect);
    const lists = this.step === 'lookup' ? this.stepLists(slots, p) : null;
    // No subquery in an UPDATE to compute the parent's feature once: it is looked up per WHEN.
    const node = `CAST(${previous.node} AS INTEGER)`;
    const slot = lists
      ? lookupCase(`lf[${node} + 1]`, `${node} * ${lists.width} + 1`, lists.split)
      : caseStep(previous.node, this.state.routedChildren, this.state.slotOf, slots);
    const from = lists ? ` FROM ${lists.relation}` : '';
    await this.engine.query(`UPDATE ${previous.from} SET node = ${slot}${from} WHERE node >= 0`, p.values);
    return { ...previous, node: 'node', stepped: false };
  }

  /**
   * A row's slot in the next level by lookups in two integer lists, columns of one joined row
   * (`listColumns`): its parent's split feature, then its child's slot at (parent, code), under a
   * CASE over the features split on in this level. A CASE over the parents costs a row a
   * comparison per parent before its own; this one, per feature split on. Null when the lists
   * would be longer than {@link LOOKUP_STEP_CELLS}.
   */
  private lookupStep(previous: LevelRows, slots: Map<number, number>, p: Params): SlotSql | null {
    const lists = this.stepLists(slots, p);
    if (!lists) return null;
    const node = `CAST(${previous.node} AS INTEGER)`;
    const from =
      `(SELECT lf[${node} + 1] AS sf, ${node} * ${lists.width} + 1 AS base, lists.lc, p.* ` +
      `FROM ${previous.from} AS p, ${lists.relation}) AS q`;
    return { slot: lookupCase('sf', 'base', lists.split), from };
  }

  /**
   * The lists of a lookup step, as a one-row relation `lists` (bound through `p`): `lf`, each
   * parent slot's split feature, and `lc`, the child's slot at (parent slot, code) at index
   * parent × `width` + code + 1; with the features split on. Null where the engine has no such
   * lists, or they would be longer than {@link LOOKUP_STEP_CELLS}.
   */
  private stepLists(
    slots: Map<number, number>,
    p: Params,
  ): { relation: string; width: number; split: ReadonlySet<number> } | null {
    const d = this.engine.dialect;
    if (!d.intList) return null;
    const tables = stepTables(this.state.routedChildren, this.state.slotOf, slots);
    if (!tables) return null;
    const bind = (v: SqlValue) => p.add(v);
    const [lf, lc] = [d.intList(tables.feature, bind), d.intList(tables.child, bind)];
    const relation = `(SELECT ${lf} AS lf, ${lc} AS lc) AS lists`;
    return { relation, width: tables.width, split: tables.split };
  }

  /**
   * A row's slot in the next level by lookups in lists written into the query (ClickHouse,
   * `literalLists`): its parent's split feature, that feature's code among the row's codes, then
   * its child's slot at (parent, code). A CASE over the parents is evaluated in full for every row
   * there: every parent's test and result, a column each. Null when the lists would be too long.
   */
  private literalStep(previous: LevelRows, slots: Map<number, number>): SlotSql | null {
    const d = this.engine.dialect;
    const tables = stepTables(this.state.routedChildren, this.state.slotOf, slots);
    if (!tables) return null;
    // A parent split on no feature (−1) reads no code (the list's default, 0) and its children −1.
    const code = d.element(d.element(previous.node, Array.from(tables.feature, String)), this.codes);
    const slot = d.element(`${previous.node} * ${tables.width} + ${code}`, Array.from(tables.child, String));
    return { slot, from: `${previous.from} AS p` };
  }
}
