import { GroveError } from '../core/errors.js';
import { argMax } from '../core/extent.js';
import type { Column } from '../data/dataset.js';
import { type Branches, expandNode, type GrowEntry, type NodeExpansion, rootGrowEntry } from '../learn/expand.js';
import { type ChosenSplit, chooseSplit } from '../learn/split-policy.js';
import { categoryBranches } from '../model/route.js';
import { TreeStore } from '../model/store.js';
import type { ResolvedOptions } from '../options/options.js';
import type { Candidate } from '../split/candidate.js';
import { EntryPool } from '../split/entries.js';
import { FeatureEvaluator } from '../split/evaluate.js';
import type { BinnedFeature } from '../split/histogram.js';
import { exactZeros, HistogramPool, subtractSiblings } from '../split/histogram-pool.js';
import type { Dialect } from '../sql/index.js';
import type { CodeGrid } from './code-grid.js';
import { Params, type SqlValue, stopIfAborted, streamNumbers, type TempTable } from './engine.js';
import { type FlatRow, flatClassTotals, flatCodes, flatLevelCounts, flatRow } from './flat.js';
import { codedRowsSelect, type EngineRows, unitWeights } from './rows.js';
import { caseStep, lookupCase, type Route, stepTables } from './step-sql.js';
import { walkNode } from './walk.js';

/** A node of the frontier: its class histograms (HistGrower's layout) while its level is expanded. */
interface EngineEntry extends GrowEntry {
  hist: Float64Array | null;
  /** With weighted rows, the rows of each class in the histogram's class slots (exactZeros). */
  classRows: Float64Array | null;
  /** The node's slot in its level's rows (the `node` column of the level table). */
  slot: number;
}

/**
 * The rows one level reads: a FROM item, the SQL of a row's slot in the level (−1 or absent: in no
 * counted or open node), its parameters, and how to remove it. Without temporary tables (`flat`),
 * the source's row and codes as expressions, each query one SELECT over the source (flat.ts).
 */
interface LevelRows {
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
function weightOf(rows: LevelRows, d: Dialect): string {
  return rows.weighted ? 'w' : d.numberToDouble('1');
}

/**
 * The nodes of a level that share a parent: those whose histograms are counted (`counted`, with
 * their entries, null for a leaf sibling counted only to subtract), and the open child whose
 * histogram is the parent's minus its siblings' (`derived`), as the in-memory grower makes them.
 */
interface Family {
  parent: EngineEntry | null;
  counted: { id: number; entry: EngineEntry | null }[];
  derived: EngineEntry | null;
  /** The slot of `counted[0]`; the others follow. */
  first: number;
}

/** A counted node's histograms as fetched: the class weights, and the class rows with weighted rows. */
interface NodeHists {
  hist: Float64Array;
  classRows: Float64Array | null;
}

/** What the grower reports after each level (progress lines). */
export interface LevelReport {
  level: number;
  openNodes: number;
  rows: number;
  seconds: number;
}

/** Histogram cells fetched in one batch at most by default: the frontier is split into batches of nodes. */
export const ENGINE_BATCH_CELLS = 1 << 21;
/**
 * Histogram cells of parents kept for their largest child's histogram (by subtraction) at most;
 * beyond, a parent's children are all counted.
 */
const KEPT_CELLS = 1 << 22;

/**
 * Grows a tree level by level with the counts computed by a database engine: per level and batch
 * of nodes, the weight and rows per node, class, feature and code (`groupByEveryCode`, or flat.ts's
 * query over rows that live on other servers), each row's node a column of the level's temporary
 * table (or, without temporary tables, a walk down the tree so far, walk.ts); the largest child's
 * counts are its parent's minus its siblings'. Each node's counts form a class histogram in `HistGrower`'s layout, and `expandNode` with the histogram scanners does
 * the rest, so the tree is the one histogram mode grows in memory from the same bins.
 */
export class EngineGrower implements NodeExpansion<EngineEntry, ChosenSplit> {
  readonly k: number;
  readonly d: number;
  private readonly stride: number;
  private readonly nBins: number[];
  private readonly offset: Int32Array;
  private readonly histSize: number;
  private readonly evaluator: FeatureEvaluator;
  private readonly cands: Candidate[];
  private readonly routes = new Map<number, Route>();
  /** The nodes split in the level being expanded, and their routes (the next level's step). */
  private readonly routedChildren = new Map<number, Route>();
  /** The slots of the nodes split in the level being expanded. */
  private readonly slotOf = new Map<number, number>();
  /** The parent of each node made in the level being expanded. */
  private readonly parents = new Map<EngineEntry, EngineEntry>();
  /** Histograms no node holds, for reuse. */
  private readonly pool: HistogramPool;
  /** A node's histograms: 2 with weighted rows (the class weights and the class rows), else 1. */
  private histsPerNode = 1;
  /** Parents' histograms kept for subtraction. */
  private kept = 0;
  private readonly codeBranch: Int32Array;

  constructor(
    private readonly rows: EngineRows,
    private readonly binned: (BinnedFeature | null)[],
    /** Bin codes by lookup where the engine can (code-grid.ts); else a binary search. */
    private readonly grids: (CodeGrid | null)[],
    readonly opts: ResolvedOptions,
    private readonly batchCells = ENGINE_BATCH_CELLS,
  ) {
    const { schema } = rows;
    this.k = schema.classes.length;
    this.d = schema.features.length;
    this.stride = this.k + 1;
    const columns: Column[] = schema.features.map((col) =>
      col.kind === 'numeric'
        ? { kind: 'numeric', name: col.name, values: new Float64Array(0) }
        : { kind: 'categorical', name: col.name, codes: new Int32Array(0), categories: col.categories },
    );
    this.nBins = schema.features.map((col, f) => (col.kind === 'numeric' ? binned[f]!.bins : col.categories.length));
    this.offset = new Int32Array(this.d);
    let size = 0;
    this.nBins.forEach((b, f) => {
      this.offset[f] = size;
      size += (b + 1) * this.stride;
    });
    this.histSize = size;
    this.pool = new HistogramPool(size);
    const none = new Int32Array(0);
    this.evaluator = new FeatureEvaluator(columns, EntryPool.over(none, none, new Float64Array(0)), this.k, opts);
    this.cands = columns.map(() => this.evaluator.newCandidate());
    let widest = this.evaluator.maxBranches;
    for (const b of this.nBins) if (b > widest) widest = b;
    this.codeBranch = new Int32Array(widest + 1);
  }

  /** Best-first growth is refused in an engine (engines/fit.ts): the split is used as found. */
  hold(_entry: EngineEntry, chosen: ChosenSplit): ChosenSplit {
    return chosen;
  }

  resume(): void {}

  /** Grow the tree (nodes numbered depth-first, as the in-memory growers number them). */
  async grow(onLevel?: (report: LevelReport) => void, signal?: AbortSignal): Promise<TreeStore> {
    const started = Date.now();
    const nodes = TreeStore.root(this.k);
    stopIfAborted(signal);
    let rows = await this.codedRows();
    try {
      const { totals, rows: n } = await this.rootCounts(rows);
      if (rows.tableRows !== null) rows.tableRows = n;
      if (rows.weighted) this.histsPerNode = 2;
      const root: EngineEntry = { ...rootGrowEntry(n, totals, this.opts), hist: null, classRows: null, slot: 0 };
      let frontier: EngineEntry[] = [root];
      for (let level = 0; frontier.length > 0; level++) {
        const next: EngineEntry[] = [];
        for (const e of frontier) if (e.leaf) expandNode(e, this, nodes, next);
        const families =
          level > 0
            ? this.families(frontier)
            : root.leaf
              ? []
              : [{ parent: null, counted: [{ id: 0, entry: root }], derived: null, first: 0 }];
        const slots = this.assignSlots(families);
        if (level > 0 && families.length > 0) {
          stopIfAborted(signal);
          const previous = rows;
          rows = await this.levelRows(previous, families, this.rowSlots(level, families, slots));
          if (rows.from !== previous.from) await previous.drop();
        }
        this.routedChildren.clear();
        this.slotOf.clear();
        this.parents.clear();
        let reached = 0;
        let open = 0;
        const batches = this.batches(families);
        stopIfAborted(signal);
        const saved = batches.length > 1 ? await this.saveCounts(rows, families, signal) : null;
        try {
          for (const batch of batches) {
            const first = batch[0].first;
            const last = batch[batch.length - 1];
            stopIfAborted(signal);
            const count = last.first + last.counted.length - first;
            const hists = await this.fetchHistograms(rows, first, count, saved, signal);
            for (const family of batch) {
              const expand = this.give(family, hists, first);
              for (const e of expand) {
                reached += e.end - e.start;
                open++;
                expandNode(e, this, nodes, next);
                // A parent keeps its histogram while its largest child needs it (made by subtraction).
                if (this.keepsHist(e)) this.kept++;
                else this.release(e);
              }
            }
          }
        } finally {
          if (saved) for (const table of saved) await table.drop();
        }
        onLevel?.({ level, openNodes: open, rows: reached, seconds: (Date.now() - started) / 1000 });
        frontier = next;
      }
    } finally {
      await rows.drop();
    }
    return nodes.renumberDepthFirst();
  }

  /** The families of a level in batches of at most `batchCells` histogram cells (a family is never split). */
  private batches(families: Family[]): Family[][] {
    const batches: Family[][] = [];
    const size = this.histSize * this.histsPerNode;
    for (let lo = 0; lo < families.length; ) {
      let hi = lo + 1;
      let cells = families[lo].counted.length * size;
      while (hi < families.length && cells + families[hi].counted.length * size <= this.batchCells)
        cells += families[hi++].counted.length * size;
      batches.push(families.slice(lo, hi));
      lo = hi;
    }
    return batches;
  }

  /**
   * A level read in several batches: its counts for every counted slot, saved in temporary tables
   * by the one pass over its rows that `groupByEveryCode` makes, so that each batch reads those
   * small tables instead of all the level's rows again. Null without temporary tables (flat.ts).
   */
  private async saveCounts(rows: LevelRows, families: Family[], signal?: AbortSignal): Promise<TempTable[] | null> {
    if (rows.flat) return null;
    const { engine } = this.rows;
    const last = families[families.length - 1];
    const counted = last.first + last.counted.length;
    // Node, class, feature and code in the narrowest integer types: the tables may hold millions of rows.
    const narrow = (column: string, max: number) =>
      `CAST(counts.${column} AS ${engine.dialect.intType(max)}) AS ${column}`;
    const keys = [
      narrow('node', counted),
      narrow('y', this.k),
      narrow('f', this.d),
      narrow('code', this.codeBranch.length),
    ];
    const tables: TempTable[] = [];
    try {
      for (const sql of this.countStatements(rows, 0, counted)) {
        stopIfAborted(signal);
        const select = `SELECT ${keys.join(', ')}, counts.weight AS weight, counts.n AS n FROM (${sql}) AS counts`;
        const table = await engine.tempTable(select, rows.params);
        if (!table) throw new GroveError(`${engine.dialect.name} made no temporary table of counts`, { code: 'E_IO' });
        tables.push(table);
      }
    } catch (e) {
      for (const table of tables) await table.drop();
      throw e;
    }
    return tables;
  }

  /**
   * The open nodes of `frontier` grouped by parent. Of a parent's children, the largest's
   * histogram is the parent's minus its siblings' when it is open (its siblings, leaves
   * included, are then counted), as the in-memory grower does; else the open children are counted.
   */
  private families(frontier: readonly EngineEntry[]): Family[] {
    const byParent = new Map<EngineEntry, Map<number, EngineEntry>>();
    for (const e of frontier) {
      if (e.leaf) continue;
      const parent = this.parents.get(e)!;
      let open = byParent.get(parent);
      if (!open) byParent.set(parent, (open = new Map()));
      open.set(e.id, e);
    }
    const families: Family[] = [];
    for (const [parent, open] of byParent) {
      const route = this.routes.get(parent.id)!;
      const { sizes, children, leaf } = route;
      const largest = argMax(sizes);
      const subtract = !leaf[largest] && parent.hist !== null;
      const counted: Family['counted'] = [];
      children.forEach((id, b) => {
        if (subtract ? b !== largest && sizes[b] > 0 : !leaf[b]) counted.push({ id, entry: open.get(id) ?? null });
      });
      if (!subtract && parent.hist) {
        this.kept--;
        this.release(parent);
      }
      families.push({ parent, counted, derived: subtract ? open.get(children[largest])! : null, first: 0 });
    }
    return families;
  }

  /** Slots of a level: the counted nodes 0 …, family by family, then the derived ones. */
  private assignSlots(families: Family[]): Map<number, number> {
    const slots = new Map<number, number>();
    for (const family of families) {
      family.first = slots.size;
      for (const { id, entry } of family.counted) {
        if (entry) entry.slot = slots.size;
        slots.set(id, slots.size);
      }
    }
    for (const family of families)
      if (family.derived) {
        family.derived.slot = slots.size;
        slots.set(family.derived.id, slots.size);
      }
    return slots;
  }

  /**
   * The slots whose rows a level's table holds. A derived node's rows serve only to count its
   * children at the next level; when those are at the depth limit (leaves by `stopsHere`'s depth
   * rule: every node of a level has its depth), no query reads them, and only the counted nodes'
   * rows are kept.
   */
  private rowSlots(level: number, families: Family[], slots: Map<number, number>): Map<number, number> {
    if (level + 1 < this.opts.maxDepth) return slots;
    const counted = new Map(slots);
    for (const { derived } of families) if (derived) counted.delete(derived.id);
    return counted;
  }

  /** True when the split of `e` (just expanded) makes its largest child's histogram by subtraction. */
  private keepsHist(e: EngineEntry): boolean {
    const route = this.routedChildren.get(e.id);
    if (!route || !e.hist || (this.kept + 1) * this.histSize * this.histsPerNode > KEPT_CELLS) return false;
    const { sizes, leaf } = route;
    return !leaf[argMax(sizes)];
  }

  /**
   * The rows as the levels read them — y, w and every feature's code c0 … c(d−1) — in a temporary
   * table when the engine makes one (codes computed once), else as expressions of the source's
   * columns, which every level query computes again (flat.ts).
   */
  private async codedRows(): Promise<LevelRows> {
    const { engine, spread } = this.rows;
    if (!spread) {
      const unit = unitWeights(this.rows);
      const p = new Params(engine.dialect);
      const coded = codedRowsSelect(this.rows, this.binned, this.grids, this.nBins, p, !unit);
      // Every row starts in the root: the column is read only once a level has updated it.
      const column = engine.dialect.nodeColumn;
      const select = column ? `SELECT CAST(0 AS ${column.type}) AS node, * FROM (${coded}) AS rows` : coded;
      // The engine may still refuse a table (no DDL rights): the flat form below then.
      const table = await engine.tempTable(select, p.values, this.rows.schema.source.from(new Params(engine.dialect)));
      if (table) {
        // `tableRows` holds the rows once the root's counts tell them.
        const tableRows = column ? 0 : null;
        return {
          from: table.name,
          node: '0',
          weighted: !unit,
          params: [],
          flat: null,
          tableRows,
          drop: () => table.drop(),
        };
      }
    }
    if (!engine.dialect.flatLevels)
      throw new GroveError(`${engine.dialect.name} made no temporary table of the coded rows`, { code: 'E_IO' });
    const p = new Params(engine.dialect);
    const row = flatRow(this.rows, p);
    const codes = flatCodes(this.rows, row, this.binned, this.nBins, p);
    return {
      from: row.from,
      node: '0',
      weighted: true,
      params: p.values,
      flat: { row, codes },
      tableRows: null,
      drop: async () => {},
    };
  }

  /**
   * The rows of the next level. With temporary tables, each row's node one step of routing from
   * its parent's split: after a level of one split, the previous rows with that split's step as
   * their node (`stepped`); where the engine updates a node column in place and at least half the
   * table's rows are in `slots`, the previous table with its node column updated (`updateNodes`);
   * else a new table made from the previous one holding only the rows of nodes in `slots` (rows in
   * leaves are left out), as the in-memory grower partitions rows. Without (a distributed table),
   * each row's node a walk down the tree so far (walk.ts).
   */
  private async levelRows(previous: LevelRows, families: Family[], slots: Map<number, number>): Promise<LevelRows> {
    const { engine, schema } = this.rows;
    const codes = schema.features.map((_, f) => `c${f}`).join(', ');
    if (previous.flat) {
      const codeType = engine.dialect.intType(this.codeBranch.length);
      const { row, codes: coded } = previous.flat;
      return { ...previous, node: walkNode(coded, this.routes, slots, codeType, row.name) };
    }
    // One parent split (the root, or a chain): its CASE is a comparison or two per row, cheaper in
    // each count query than writing every row to a new table. Two steps nested are not.
    if (this.routedChildren.size === 1 && !previous.stepped)
      return { ...previous, node: caseStep(previous.node, this.routedChildren, this.slotOf, slots), stepped: true };
    // The node column updated in place, where the engine has one that holds the level's slots.
    const column =
      engine.dialect.nodeColumn && slots.size <= engine.dialect.nodeColumn.max ? engine.dialect.nodeColumn : null;
    const open = this.slotRows(families, slots);
    // In place while at least half the table's rows are still open; else a new table, without the rest.
    if (previous.tableRows !== null && column && 2 * open >= previous.tableRows)
      return this.updateNodes(previous, slots);
    const yw = previous.weighted ? 'y, w' : 'y';
    // A stepped level's rows in no node (−1) are left out before the next step reads their node.
    const source = previous.stepped
      ? {
          ...previous,
          from: `(SELECT * FROM (SELECT ${previous.node} AS node, ${yw}, ${codes} FROM ${previous.from} AS s) AS t WHERE node >= 0)`,
          node: 'node',
        }
      : previous;
    const p = new Params(engine.dialect);
    const { slot, from } = this.lookupStep(source, slots, p) ??
      this.literalStep(source, slots) ?? {
        slot: caseStep(source.node, this.routedChildren, this.slotOf, slots),
        from: `${source.from} AS p`,
      };
    // The narrowest node column (the one updated in place where the engine does), and w only
    // when rows differ in weight. The filter reads `slot`, not `node`: ClickHouse's WHERE sees the
    // SELECT's aliases, and the cast to an unsigned type would make −1 pass.
    const tableRows = column ? open : null;
    const narrow = `CAST(slot AS ${column ? column.type : engine.dialect.intType(slots.size)})`;
    const table = await engine.tempTable(
      `SELECT ${narrow} AS node, ${yw}, ${codes} FROM (SELECT ${slot} AS slot, ${yw}, ${codes} FROM ${from}) AS s WHERE slot >= 0`,
      p.values,
    );
    if (!table)
      throw new GroveError(`${engine.dialect.name} made no temporary table from its own temporary table`, {
        code: 'E_IO',
      });
    return {
      from: table.name,
      node: 'node',
      weighted: previous.weighted,
      params: [],
      flat: null,
      tableRows,
      drop: () => table.drop(),
    };
  }

  /**
   * The next level's rows as the previous table with its node column set to each row's slot in
   * place: an UPDATE writes that one narrow column where a new table writes every code again.
   * Rows in no node stay in the table at −1, which no count query reads.
   */
  private async updateNodes(previous: LevelRows, slots: Map<number, number>): Promise<LevelRows> {
    const { engine } = this.rows;
    const p = new Params(engine.dialect);
    const lists = this.stepLists(slots, p);
    // No subquery in an UPDATE to compute the parent's feature once: it is looked up per WHEN.
    const node = `CAST(${previous.node} AS INTEGER)`;
    const slot = lists
      ? lookupCase(`lf[${node} + 1]`, `${node} * ${lists.width} + 1`, lists.split)
      : caseStep(previous.node, this.routedChildren, this.slotOf, slots);
    const from = lists ? ` FROM ${lists.relation}` : '';
    await engine.query(`UPDATE ${previous.from} SET node = ${slot}${from} WHERE node >= 0`, p.values);
    return { ...previous, node: 'node', stepped: false };
  }

  /** The rows of the nodes in `slots` (the children of the families' parents): a new table's rows. */
  private slotRows(families: Family[], slots: Map<number, number>): number {
    let rows = 0;
    for (const { parent } of families) {
      const route = this.routes.get(parent!.id)!;
      route.children.forEach((id, b) => {
        if (slots.has(id)) rows += route.sizes[b];
      });
    }
    return rows;
  }

  /**
   * A row's slot in the next level by lookups in two integer lists, columns of one joined row
   * (`listColumns`): its parent's split feature, then its child's slot at (parent, code), under a
   * CASE over the features split on in this level. A CASE over the parents costs a row a
   * comparison per parent before its own; this one, per feature split on. Null where the engine
   * has no such lists, or the lists would be longer than {@link LOOKUP_STEP_CELLS}.
   */
  private lookupStep(
    previous: LevelRows,
    slots: Map<number, number>,
    p: Params,
  ): { slot: string; from: string } | null {
    const lists = this.stepLists(slots, p);
    if (!lists) return null;
    const node = `CAST(${previous.node} AS INTEGER)`;
    const from = `(SELECT lf[${node} + 1] AS sf, ${node} * ${lists.width} + 1 AS base, lists.lc, p.* FROM ${previous.from} AS p, ${lists.relation}) AS q`;
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
    const d = this.rows.engine.dialect;
    if (!d.intList || !d.listColumns) return null;
    const tables = stepTables(this.routedChildren, this.slotOf, slots);
    if (!tables) return null;
    const bind = (v: SqlValue) => p.add(v);
    const relation = `(SELECT ${d.intList(tables.feature, bind)} AS lf, ${d.intList(tables.child, bind)} AS lc) AS lists`;
    return { relation, width: tables.width, split: tables.split };
  }

  /**
   * A row's slot in the next level by lookups in lists written into the query (ClickHouse,
   * `literalLists`): its parent's split feature, that feature's code among the row's codes, then
   * its child's slot at (parent, code). A CASE over the parents is evaluated in full for every row
   * there: every parent's test and result, a column each. Null where the engine has no such lists
   * or they would be too long.
   */
  private literalStep(previous: LevelRows, slots: Map<number, number>): { slot: string; from: string } | null {
    const d = this.rows.engine.dialect;
    if (!d.literalLists) return null;
    const tables = stepTables(this.routedChildren, this.slotOf, slots);
    if (!tables) return null;
    const codes = this.rows.schema.features.map((_, f) => `c${f}`);
    // A parent split on no feature (−1) reads no code (the list's default, 0) and its children −1.
    const code = d.element(d.element(previous.node, Array.from(tables.feature, String)), codes);
    const slot = d.element(`${previous.node} * ${tables.width} + ${code}`, Array.from(tables.child, String));
    return { slot, from: `${previous.from} AS p` };
  }

  private async rootCounts(coded: LevelRows): Promise<{ totals: Float64Array; rows: number }> {
    const { engine } = this.rows;
    const d = engine.dialect;
    const sql = coded.flat
      ? flatClassTotals(coded.flat.row)
      : `SELECT y, ${d.numberToDouble(`SUM(${weightOf(coded, d)})`)}, ${d.numberToDouble('COUNT(*)')} FROM ${coded.from} AS r GROUP BY y`;
    const result = await engine.query(sql, coded.params);
    const totals = new Float64Array(this.k);
    let rows = 0;
    for (const [y, w, n] of result) {
      totals[y as number] = w as number;
      rows += n as number;
    }
    return { totals, rows };
  }

  /**
   * The statements that count slots `first` … `first + count − 1` of a level read from its rows,
   * with `groupByEveryCode`'s columns (node, y, f, code, weight, n). Each reads the level's rows
   * once, so each takes the level's parameters.
   */
  private countStatements(rows: LevelRows, first: number, count: number): readonly string[] {
    const { flat } = rows;
    if (flat) return [flatLevelCounts(flat.row, flat.codes, rows.node, first, count)];
    const codes = this.rows.schema.features.map((_, f) => `c${f}`);
    const routed =
      `(SELECT * FROM (SELECT ${rows.node} AS node, y, ${weightOf(rows, this.rows.engine.dialect)} AS w, ${codes.join(', ')} FROM ${rows.from} AS coded) AS n ` +
      `WHERE node >= ${first} AND node < ${first + count}) AS routed`;
    return this.rows.engine.dialect.groupByEveryCode(routed, codes);
  }

  /**
   * The class histograms of slots `first` … `first + count − 1`: from the level's rows, or from
   * the level's `saved` counts (saveCounts).
   */
  private async fetchHistograms(
    rows: LevelRows,
    first: number,
    count: number,
    saved: readonly TempTable[] | null,
    signal?: AbortSignal,
  ): Promise<NodeHists[]> {
    const { engine } = this.rows;
    const columns = ['node', 'y', 'f', 'code', 'weight', 'n'].map(engine.dialect.numberToDouble).join(', ');
    const statements = saved
      ? saved.map(
          (t) => `SELECT ${columns} FROM ${t.name} AS counts WHERE node >= ${first} AND node < ${first + count}`,
        )
      : this.countStatements(rows, first, count);
    const params = saved ? [] : rows.params;
    const weighted = this.histsPerNode === 2;
    const hists = Array.from({ length: count }, () => ({
      hist: this.pool.take(),
      classRows: weighted ? this.pool.take() : null,
    }));
    const { k, stride, offset } = this;
    // Chunks of doubles straight into the histograms.
    for (const sql of statements) {
      // Ctrl-C between two statements finds no query running to stop.
      stopIfAborted(signal);
      await streamNumbers(engine, sql, params, ([node, y, f, code, w, n], count) => {
        for (let i = 0; i < count; i++) {
          const { hist: h, classRows } = hists[node[i] - first];
          const o = offset[f[i]] + code[i] * stride;
          h[o + y[i]] += w[i];
          h[o + k] += n[i];
          if (classRows) classRows[o + y[i]] += n[i];
        }
      });
    }
    return hists;
  }

  /**
   * Hand the counted histograms to a family's entries, make the derived child's (the parent's
   * minus its siblings'), and return the family's open nodes.
   */
  private give(family: Family, hists: NodeHists[], first: number): EngineEntry[] {
    const open: EngineEntry[] = [];
    const mine = hists.slice(family.first - first, family.first - first + family.counted.length);
    family.counted.forEach(({ entry }, i) => {
      if (entry) {
        entry.hist = mine[i].hist;
        entry.classRows = mine[i].classRows;
        open.push(entry);
      }
    });
    const { parent, derived } = family;
    if (derived && parent?.hist) {
      derived.hist = parent.hist;
      derived.classRows = parent.classRows;
      parent.hist = null;
      parent.classRows = null;
      this.kept--;
      subtractSiblings(
        derived.hist,
        mine.map((m) => m.hist),
      );
      if (derived.classRows) {
        subtractSiblings(
          derived.classRows,
          mine.map((m) => m.classRows),
        );
        exactZeros(derived.hist, derived.classRows, this.k);
      }
      family.counted.forEach(({ entry }, i) => {
        if (!entry) {
          this.pool.give(mine[i].hist);
          this.pool.give(mine[i].classRows);
        }
      });
      open.push(derived);
    }
    return open;
  }

  /** Give back the histograms `e` holds. */
  private release(e: EngineEntry): void {
    this.pool.give(e.hist);
    this.pool.give(e.classRows);
    e.hist = null;
    e.classRows = null;
  }

  findSplit(entry: EngineEntry): ChosenSplit | null {
    const { hist, excluded } = entry;
    const { evaluator, cands, offset, binned } = this;
    for (let f = 0; f < this.d; f++) {
      if (excluded.includes(f)) cands[f].reset(f, 'numeric');
      else evaluator.fromHistogram(f, binned[f], hist!, offset[f], cands[f]);
    }
    return chooseSplit(cands, this.opts, evaluator.view);
  }

  /** The histogram of a node that stays a leaf is given back after its expansion (grow). */
  keepLeaf(): void {}

  /** The children's sizes and class weights from the node's histogram of the split feature. */
  assign(entry: EngineEntry, chosen: ChosenSplit, into: Branches): void {
    const { split, missingBranch } = chosen;
    const f = split.feature;
    const table = this.branchTable(chosen);
    const h = entry.hist!;
    const { k, stride } = this;
    const o = this.offset[f];
    for (let code = 0; code <= this.nBins[f]; code++) {
      const at = o + code * stride;
      if (h[at + k] === 0) continue;
      const b = table[code] < 0 ? missingBranch : table[code];
      into.sizes[b] += h[at + k];
      const t = into.totals[b];
      for (let c = 0; c < k; c++) t[c] += h[at + c];
    }
  }

  /** Each code's branch at the chosen split, as the in-memory histogram grower routes codes. */
  private branchTable(chosen: ChosenSplit): Int32Array {
    const { split, missingBranch } = chosen;
    const missingCode = this.nBins[split.feature];
    const table = this.codeBranch;
    if (split.kind === 'numeric') {
      // Bins are in value order: a bin up to the split's last left bin goes left.
      for (let b = 0; b < missingCode; b++) table[b] = b <= chosen.best.splitBin ? 0 : 1;
    } else categoryBranches(split, missingCode, table);
    table[missingCode] = missingBranch;
    return table;
  }

  /** Record the split for the next level's routing (no rows to move). */
  partition(entry: EngineEntry, chosen: ChosenSplit, branches: Branches, leaf: readonly boolean[]): number {
    const missingCode = this.nBins[chosen.split.feature];
    const table = this.branchTable(chosen).slice(0, missingCode + 1);
    for (let c = 0; c < table.length; c++) if (table[c] < 0) table[c] = chosen.missingBranch;
    const route: Route = {
      feature: chosen.split.feature,
      branchOfCode: table,
      children: new Int32Array(branches.count),
      sizes: branches.sizes.slice(),
      leaf: leaf.slice(),
    };
    this.routes.set(entry.id, route);
    this.slotOf.set(entry.id, entry.slot);
    return 0;
  }

  child(parent: EngineEntry, b: number, base: GrowEntry): EngineEntry {
    const route = this.routes.get(parent.id)!;
    route.children[b] = base.id;
    this.routedChildren.set(parent.id, route);
    const entry = base as EngineEntry;
    entry.hist = null;
    entry.classRows = null;
    entry.slot = -1;
    this.parents.set(entry, parent);
    return entry;
  }
}
