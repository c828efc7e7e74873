/**
 * The counts a level of the in-database grower reads: per slot (node), class, feature and code,
 * the weight and rows (`groupByEveryCode`, or flat.ts's query over rows that live on other
 * servers), streamed as columns of doubles into class histograms in `HistGrower`'s layout.
 */
import type { HistogramPool } from '../split/histogram-pool.js';
import { type Engine, stopIfAborted, streamNumbers, type TempTable } from './engine.js';
import { flatClassTotals, flatLevelCounts } from './flat.js';
import { type LevelRows, weightOf } from './routing.js';
import type { TempTables } from './temp-tables.js';

/** A counted node's histograms as fetched: the class weights, and the class rows with weighted rows. */
export interface NodeHists {
  hist: Float64Array;
  classRows: Float64Array | null;
}

/** Where a feature's codes sit in a histogram: `offset[f]` + code × `stride` (k classes, then rows). */
export interface HistLayout {
  /** Classes. */
  k: number;
  /** Features. */
  d: number;
  stride: number;
  offset: Int32Array;
  /** The number of codes of the widest feature. */
  codeCount: number;
}

/** The count queries of one growth and the histograms they fill. */
export class LevelCounts {
  private readonly codes: string[];

  constructor(
    private readonly engine: Engine,
    private readonly layout: HistLayout,
    private readonly pool: HistogramPool,
    private readonly tables: TempTables,
  ) {
    this.codes = Array.from({ length: layout.d }, (_, f) => `c${f}`);
  }

  /** The root's class weights and its rows. */
  async root(coded: LevelRows): Promise<{ totals: Float64Array; rows: number }> {
    const d = this.engine.dialect;
    const sql = coded.flat
      ? flatClassTotals(coded.flat.row)
      : `SELECT y, ${d.numberToDouble(`SUM(${weightOf(coded, d)})`)}, ${d.numberToDouble('COUNT(*)')} ` +
        `FROM ${coded.from} AS r GROUP BY y`;
    const result = await this.engine.query(sql, coded.params);
    const totals = new Float64Array(this.layout.k);
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
  statements(rows: LevelRows, first: number, count: number): readonly string[] {
    const { flat } = rows;
    if (flat) return [flatLevelCounts(flat.row, flat.codes, rows.node, first, count)];
    const { codes } = this;
    const routed =
      `(SELECT * FROM (SELECT ${rows.node} AS node, y, ${weightOf(rows, this.engine.dialect)} AS w, ` +
      `${codes.join(', ')} FROM ${rows.from} AS coded) AS n ` +
      `WHERE node >= ${first} AND node < ${first + count}) AS routed`;
    return this.engine.dialect.groupByEveryCode(routed, codes);
  }

  /**
   * A level read in several batches: its counts for slots 0 … `counted` − 1, saved in temporary
   * tables by the one pass over its rows that `groupByEveryCode` makes, so that each batch reads
   * those small tables instead of all the level's rows again. Null without temporary tables
   * (flat.ts). The caller drops the tables.
   */
  async save(rows: LevelRows, counted: number, signal?: AbortSignal): Promise<TempTable[] | null> {
    if (rows.flat) return null;
    const { k, d, codeCount } = this.layout;
    // Node, class, feature and code in the narrowest integer types: the tables may hold millions of rows.
    const narrow = (column: string, max: number) =>
      `CAST(counts.${column} AS ${this.engine.dialect.intType(max)}) AS ${column}`;
    const keys = [narrow('node', counted), narrow('y', k), narrow('f', d), narrow('code', codeCount)];
    const tables: TempTable[] = [];
    try {
      for (const sql of this.statements(rows, 0, counted)) {
        stopIfAborted(signal);
        const select = `SELECT ${keys.join(', ')}, counts.weight AS weight, counts.n AS n FROM (${sql}) AS counts`;
        tables.push(await this.tables.make(select, rows.params, 'of counts'));
      }
    } catch (e) {
      for (const table of tables) await table.drop();
      throw e;
    }
    return tables;
  }

  /**
   * The class histograms of slots `first` … `first + count − 1` (with the class rows when
   * `weighted`): from the level's rows, or from the level's `saved` counts (save).
   */
  async fetch(
    rows: LevelRows,
    first: number,
    count: number,
    saved: readonly TempTable[] | null,
    weighted: boolean,
    signal?: AbortSignal,
  ): Promise<NodeHists[]> {
    const columns = ['node', 'y', 'f', 'code', 'weight', 'n'].map(this.engine.dialect.numberToDouble).join(', ');
    const statements = saved
      ? saved.map(
          (t) => `SELECT ${columns} FROM ${t.name} AS counts WHERE node >= ${first} AND node < ${first + count}`,
        )
      : this.statements(rows, first, count);
    const params = saved ? [] : rows.params;
    const hists = Array.from({ length: count }, () => ({
      hist: this.pool.take(),
      classRows: weighted ? this.pool.take() : null,
    }));
    const { k, stride, offset } = this.layout;
    // Chunks of doubles straight into the histograms.
    for (const sql of statements) {
      // Ctrl-C between two statements finds no query running to stop.
      stopIfAborted(signal);
      await streamNumbers(this.engine, sql, params, ([node, y, f, code, w, n], count) => {
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
}
