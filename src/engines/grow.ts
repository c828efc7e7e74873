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
import { Params, type SqlValue, stopIfAborted } from './engine.js';
import { codedRowsSelect, type EngineRows } from './rows.js';

/** A node of the frontier: its class histograms (HistGrower's layout) while its level is expanded. */
interface EngineEntry extends GrowEntry {
  hist: Float64Array | null;
}

/** How a split node sends rows on: the code column it reads, each code's branch, each branch's child. */
interface Route {
  feature: number;
  branchOfCode: Int32Array;
  children: Int32Array;
}

/** The coded rows the levels read: a FROM item, its parameters, and how to remove it. */
interface CodedRows {
  from: string;
  params: readonly SqlValue[];
  drop(): Promise<void>;
}

/**
 * SQL that is true when `column` holds a code of branch `b` (`branchOfCode`): runs of
 * consecutive codes as ranges, so a numeric split reads as `c <= s` (and its missing code).
 */
function codesTest(column: string, branchOfCode: Int32Array, b: number): string | null {
  const last = branchOfCode.length - 1;
  const parts: string[] = [];
  for (let lo = 0; lo <= last; lo++) {
    if (branchOfCode[lo] !== b) continue;
    let hi = lo;
    while (hi < last && branchOfCode[hi + 1] === b) hi++;
    if (lo === hi) parts.push(`${column} = ${lo}`);
    else if (lo === 0) parts.push(`${column} <= ${hi}`);
    else if (hi === last) parts.push(`${column} >= ${lo}`);
    else parts.push(`${column} BETWEEN ${lo} AND ${hi}`);
    lo = hi;
  }
  return parts.length === 0 ? null : parts.length === 1 ? parts[0] : `(${parts.join(' OR ')})`;
}

/** What the grower reports after each level (progress lines). */
export interface LevelReport {
  level: number;
  openNodes: number;
  rows: number;
  seconds: number;
}

/** Histogram cells fetched in one query at most: the frontier is split into batches of nodes. */
const BATCH_CELLS = 1 << 23;

/**
 * Grows a tree level by level with the counts computed by a database engine: per level, one
 * `GROUP BY node, class, feature, code` over the rows of the open nodes (a batch of nodes at a
 * time), each row's node given by a CASE expression over the tree so far. Each node's counts form
 * a class histogram in `HistGrower`'s layout, and `expandNode` with the histogram scanners does
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
  private readonly codeBranch: Int32Array;

  constructor(
    private readonly rows: EngineRows,
    private readonly binned: (BinnedFeature | null)[],
    readonly opts: ResolvedOptions,
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
    const coded = await this.codedRows();
    try {
      const { totals, rows } = await this.rootCounts(coded);
      let frontier: EngineEntry[] = [{ ...rootGrowEntry(rows, totals, this.opts), hist: null }];
      for (let level = 0; frontier.length > 0; level++) {
        const open = frontier.filter((e) => !e.leaf);
        const next: EngineEntry[] = [];
        for (const e of frontier) if (e.leaf) expandNode(e, this, nodes, next);
        const perBatch = Math.max(1, Math.floor(BATCH_CELLS / this.histSize));
        const routing = this.routing(open);
        let reached = 0;
        for (let lo = 0; lo < open.length; lo += perBatch) {
          const batch = open.slice(lo, lo + perBatch);
          stopIfAborted(signal);
          await this.fetchHistograms(coded, routing, lo, batch);
          for (const e of batch) {
            reached += e.end - e.start;
            expandNode(e, this, nodes, next);
            e.hist = null;
          }
        }
        onLevel?.({ level, openNodes: open.length, rows: reached, seconds: (Date.now() - started) / 1000 });
        frontier = next;
      }
    } finally {
      await coded.drop();
    }
    return nodes.renumberDepthFirst();
  }

  /**
   * The rows as the levels read them — y, w and every feature's code c0 … c(d−1) — in a temporary
   * table when the engine makes one (codes computed once), else as a subquery over the source.
   */
  private async codedRows(): Promise<CodedRows> {
    const { engine } = this.rows;
    const p = new Params(engine.dialect);
    const select = codedRowsSelect(this.rows, this.binned, this.nBins, p);
    const table = await engine.tempTable(select, p.values);
    if (table) return { from: table.name, params: [], drop: () => table.drop() };
    return { from: `(${select})`, params: p.values, drop: async () => {} };
  }

  private async rootCounts(coded: CodedRows): Promise<{ totals: Float64Array; rows: number }> {
    const { engine } = this.rows;
    const d = engine.dialect;
    const result = await engine.query(
      `SELECT y, ${d.toDouble('SUM(w)')}, ${d.toDouble('COUNT(*)')} FROM ${coded.from} AS r GROUP BY y`,
      coded.params,
    );
    const totals = new Float64Array(this.k);
    let rows = 0;
    for (const [y, w, n] of result) {
      totals[y as number] = w as number;
      rows += n as number;
    }
    return { totals, rows };
  }

  /**
   * The SQL that gives each row its slot in `open` (−1 for a row in a leaf): a CASE per split node
   * on the path, built from the deepest split up (children have larger ids than their parent).
   */
  private routing(open: readonly EngineEntry[]): string {
    const slot = new Map<number, number>();
    open.forEach((e, i) => slot.set(e.id, i));
    if (slot.has(0)) return '0';
    const expr = new Map<number, string>();
    const ids = [...this.routes.keys()].sort((a, b) => b - a);
    for (const id of ids) {
      const route = this.routes.get(id)!;
      const sub = Array.from(route.children, (c) => (slot.has(c) ? String(slot.get(c)) : (expr.get(c) ?? null)));
      if (sub.every((s) => s === null)) continue;
      const code = `c${route.feature}`;
      const whens: string[] = [];
      sub.forEach((s, b) => {
        if (s === null) return;
        const test = codesTest(code, route.branchOfCode, b);
        if (test) whens.push(`WHEN ${test} THEN ${s}`);
      });
      expr.set(id, `CASE ${whens.join(' ')} ELSE -1 END`);
    }
    return expr.get(0) ?? '-1';
  }

  /** The class histograms of `batch` (slots `first` …) from one query. */
  private async fetchHistograms(coded: CodedRows, routing: string, first: number, batch: EngineEntry[]): Promise<void> {
    const { engine, schema } = this.rows;
    const d = engine.dialect;
    const codes = schema.features.map((_, f) => `c${f}`);
    const routed =
      `(SELECT * FROM (SELECT ${routing} AS node, y, w, ${codes.join(', ')} FROM ${coded.from} AS coded) AS n ` +
      `WHERE node >= ${first} AND node < ${first + batch.length}) AS routed`;
    const hists = batch.map(() => new Float64Array(this.histSize));
    const { k, stride, offset } = this;
    const sql = d.groupByEveryCode(routed, codes);
    if (engine.streamNumbers) {
      // Chunks of doubles straight into the histograms: no JS value per result cell.
      await engine.streamNumbers(sql, coded.params, ([node, y, f, code, w, n], rows) => {
        for (let i = 0; i < rows; i++) {
          const h = hists[node[i] - first];
          const o = offset[f[i]] + code[i] * stride;
          h[o + y[i]] += w[i];
          h[o + k] += n[i];
        }
      });
      return this.give(batch, hists);
    }
    await engine.stream(sql, coded.params, (rows) => {
      for (const [node, y, f, code, w, n] of rows) {
        const h = hists[(node as number) - first];
        const o = offset[f as number] + (code as number) * stride;
        h[o + (y as number)] += w as number;
        h[o + k] += n as number;
      }
    });
    this.give(batch, hists);
  }

  private give(batch: EngineEntry[], hists: Float64Array[]): void {
    batch.forEach((e, i) => (e.hist = hists[i]));
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

  keepLeaf(entry: EngineEntry): void {
    entry.hist = null;
  }

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
  partition(entry: EngineEntry, chosen: ChosenSplit, branches: Branches): number {
    const missingCode = this.nBins[chosen.split.feature];
    const table = this.branchTable(chosen).slice(0, missingCode + 1);
    for (let c = 0; c < table.length; c++) if (table[c] < 0) table[c] = chosen.missingBranch;
    this.routes.set(entry.id, {
      feature: chosen.split.feature,
      branchOfCode: table,
      children: new Int32Array(branches.count),
    });
    return 0;
  }

  child(parent: EngineEntry, b: number, base: GrowEntry): EngineEntry {
    this.routes.get(parent.id)!.children[b] = base.id;
    const entry = base as EngineEntry;
    entry.hist = null;
    return entry;
  }
}
