/**
 * The in-database grower's level loop: per level, the rows routed to their nodes (routing.ts),
 * the counts of the open nodes read in batches (level-counts.ts), and each node expanded by
 * `expandNode` (grow.ts). The temporary tables it makes are all dropped when it ends, failed or not.
 */
import { expandNode } from '../learn/expand.js';
import type { TreeStore } from '../model/store.js';
import type { ResolvedOptions } from '../options/options.js';
import type { BinnedFeature } from '../split/histogram.js';
import type { CodeGrid } from './code-grid.js';
import { stopIfAborted } from './engine.js';
import { type EngineEntry, EngineGrower, type Family } from './grow.js';
import { LevelCounts } from './level-counts.js';
import { type LevelRows, Router } from './routing.js';
import type { EngineRows } from './rows.js';
import { TempTables } from './temp-tables.js';

/** What the grower reports after each level (progress lines). */
export interface LevelReport {
  level: number;
  openNodes: number;
  rows: number;
  seconds: number;
}

/** Histogram cells fetched in one batch at most by default: the frontier is split into batches of nodes. */
export const ENGINE_BATCH_CELLS = 1 << 21;

/** One growth's parts: the node expansion, the routing, the counts and the tables they make. */
interface Parts {
  grower: EngineGrower;
  router: Router;
  counts: LevelCounts;
  nodes: TreeStore;
  batchCells: number;
  signal?: AbortSignal;
}

/**
 * Grows a tree level by level with the counts computed by a database engine (nodes numbered
 * depth-first, as the in-memory growers number them): the tree histogram mode grows in memory
 * from the same bins.
 */
export async function growInEngine(
  rows: EngineRows,
  binned: (BinnedFeature | null)[],
  /** Bin codes by lookup where the engine can (code-grid.ts); else a binary search. */
  grids: (CodeGrid | null)[],
  opts: ResolvedOptions,
  batchCells = ENGINE_BATCH_CELLS,
  onLevel?: (report: LevelReport) => void,
  signal?: AbortSignal,
): Promise<TreeStore> {
  const started = Date.now();
  const fractional = rows.fractional ?? false;
  const grower = new EngineGrower(rows.schema, binned, opts, fractional);
  const tables = new TempTables(rows.engine);
  const router = new Router(rows, tables, grower, grower.codeCount, fractional);
  const counts = new LevelCounts(rows.engine, grower.layout, grower.pool, tables);
  const nodes = grower.nodes;
  stopIfAborted(signal);
  try {
    let level = await router.coded(binned, grids, grower.nBins);
    const { totals, rows: n } = await counts.root(level);
    if (level.tableRows !== null) level.tableRows = n;
    let frontier = [grower.root(n, totals, level.weighted)];
    const parts: Parts = { grower, router, counts, nodes, batchCells, signal };
    for (let depth = 0; frontier.length > 0; depth++) {
      const next: EngineEntry[] = [];
      for (const e of frontier) if (e.leaf) expandNode(e, grower, nodes, next);
      const families = grower.levelFamilies(depth, frontier);
      const slots = grower.assignSlots(families);
      if (depth > 0 && families.length > 0) {
        stopIfAborted(signal);
        const previous = level;
        const kept = grower.rowSlots(depth, families, slots);
        level = await router.next(previous, kept, grower.slotRows(families, kept));
        if (level.from !== previous.from) await previous.drop();
      }
      grower.endLevel();
      const { open, reached } = await expandLevel(parts, level, families, next);
      onLevel?.({ level: depth, openNodes: open, rows: reached, seconds: (Date.now() - started) / 1000 });
      frontier = next;
    }
  } catch (e) {
    // The growth's own error is the one reported, not a failed drop after it.
    await tables.dropAll().catch(() => {});
    throw e;
  }
  await tables.dropAll();
  return nodes.renumberDepthFirst();
}

/** Count a level's families in batches and expand their open nodes into `next`. */
async function expandLevel(
  parts: Parts,
  rows: LevelRows,
  families: Family[],
  next: EngineEntry[],
): Promise<{ open: number; reached: number }> {
  const { grower, counts, nodes, signal } = parts;
  let reached = 0;
  let open = 0;
  const batches = grower.batches(families, parts.batchCells);
  stopIfAborted(signal);
  const last = families[families.length - 1];
  const saved = batches.length > 1 ? await counts.save(rows, last.first + last.counted.length, signal) : null;
  try {
    for (const batch of batches) {
      const first = batch[0].first;
      const end = batch[batch.length - 1];
      stopIfAborted(signal);
      const count = end.first + end.counted.length - first;
      const hists = await counts.fetch(rows, first, count, saved, grower.weighted, signal);
      for (const family of batch) {
        for (const e of grower.give(family, hists, first)) {
          reached += e.end - e.start;
          open++;
          expandNode(e, grower, nodes, next);
          grower.expanded(e);
        }
      }
    }
  } finally {
    if (saved) for (const table of saved) await table.drop();
  }
  return { open, reached };
}
