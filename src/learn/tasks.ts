/**
 * Growing one tree in pieces on several threads or workers (Node's worker threads,
 * src/learn/threads/parallel-grow.ts; the explore page's two Web Workers, src/explore-page/): one
 * grows the top of the tree, the subtrees below it become tasks grown anywhere, and the pieces are
 * put together numbered as one thread numbers them, so the tree is the one `growTree` grows.
 */
import { BUILTIN_CRITERIA } from '../criteria/registry.js';
import { type Column, type Dataset, hasMissing } from '../data/dataset.js';
import { TreeStore } from '../model/store.js';
import type { ResolvedOptions } from '../options/options.js';
import type { FitOptions } from '../options/types.js';
import { EntryPool } from '../split/entries.js';
import type { SortedSlice } from '../split/sorted-slice.js';
import type { DepthFirstGrower } from './depth-first.js';
import { expandNode, type GrowEntry } from './expand.js';
import { NodeGrower, type StackEntry } from './grow.js';
import type { NodeSplit } from './split-policy.js';

/**
 * Subtrees of at most n / (8 · threads) rows become tasks (enough of them to balance the threads),
 * and at least a quarter of that (smaller ones, left by lopsided splits at the top, are grown where
 * they arise: a message would cost more than it saves).
 */
export function taskRows(n: number, threads: number): { min: number; max: number } {
  const max = Math.max(512, Math.floor(n / (8 * threads)));
  return { min: max >> 2, max };
}

const builtin = (name: string | undefined): boolean =>
  name === undefined || BUILTIN_CRITERIA.some((c) => c.name === name);

/**
 * Whether `data`'s tree under `opts` can grow in tasks elsewhere: not C-MBSV (its own grower), only
 * built-in measures (the others rebuild them from their names: a measure registered at run time is
 * not there), and no entries cloned (C4.5's fractional policy with missing values: a layout shared
 * or copied cannot follow them).
 */
export function growsInTasks(data: Dataset, opts: ResolvedOptions): boolean {
  if (opts.algorithm === 'cmbsv') return false;
  if (!BUILTIN_CRITERIA.includes(opts.criterionImpl) || !builtin(opts.thresholdCriterion)) return false;
  return !(opts.missing === 'fractional' && hasMissing(data));
}

/** A node as a message: its entry without the parts that live in the layout. */
export type NodeJob = Omit<GrowEntry, 'id'>;

export function nodeJob(e: GrowEntry): NodeJob {
  return {
    start: e.start,
    end: e.end,
    depth: e.depth,
    totals: e.totals,
    leaf: e.leaf,
    excluded: e.excluded,
    seed: e.seed,
  };
}

/**
 * The node a job names, as the root of what is grown from it (id 0): only a node's fields, whatever else the
 * message carries.
 */
export function nodeOf(job: NodeJob): GrowEntry {
  const { start, end, depth, totals, leaf, excluded, seed } = job;
  return { id: 0, start, end, depth, totals, leaf, excluded, seed };
}

/**
 * The options as a message: resolved options without the measure's implementation (a function,
 * which cannot be posted; the receiver resolves it again from its name).
 */
export function sentOptions(opts: ResolvedOptions): FitOptions {
  const { criterionImpl: _criterion, ...options } = opts;
  return options as FitOptions;
}

/** The top of a tree, its task nodes left ungrown (largest first), and the tree with them in place. */
export interface TreeTop<E extends GrowEntry> {
  nodes: TreeStore;
  tasks: E[];
}

/**
 * Grow the top of the tree with `grower` from `root`; the subtrees of `min` to `max` rows are left
 * as tasks, largest first (smaller ones are grown where they arise). `onTask` hears of each task
 * as it is found: its rows are then where they stay, and it can be grown elsewhere at once.
 *
 * A task is found when its parent is split, not when the depth-first walk would reach it: a
 * small first branch beside a large one would otherwise wait for the whole large one's top. The
 * other nodes are expanded in the walk's order all the same, so the top is the same.
 */
export function growTop<E extends GrowEntry>(
  grower: DepthFirstGrower<E, NodeSplit>,
  root: E,
  { min, max }: { min: number; max: number },
  onTask?: (task: E) => void,
): TreeTop<E> {
  const nodes = TreeStore.root(grower.k);
  const tasks: E[] = [];
  const isTask = (entry: E) => {
    const size = entry.end - entry.start;
    return !entry.leaf && size <= max && size >= min;
  };
  const found = (entry: E) => {
    tasks.push(entry);
    onTask?.(entry);
  };
  const stack = [root];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (isTask(entry)) {
      found(entry);
      continue;
    }
    const pushed = stack.length;
    expandNode(entry, grower, nodes, stack);
    let kept = pushed;
    for (let i = pushed; i < stack.length; i++) {
      if (isTask(stack[i])) found(stack[i]);
      else stack[kept++] = stack[i];
    }
    stack.length = kept;
  }
  tasks.sort((a, b) => b.end - b.start - (a.end - a.start));
  return { nodes, tasks };
}

/** The whole tree: each task's subtree (`grown[i]`, from `growSubtree`) in its place, renumbered. */
export function joinTasks<E extends GrowEntry>(top: TreeTop<E>, grown: readonly TreeStore[]): TreeStore {
  top.tasks.forEach((task, i) => top.nodes.place(task.id, grown[i]));
  return top.nodes.renumberDepthFirst();
}

/** What a grower away from the top needs of an exact-mode layout: the entries and their sorted slices. */
export interface ExactLayout {
  pool: { row: Int32Array; label: Int32Array; weight: Float64Array };
  ids: Int32Array;
  sorted: readonly (SortedSlice | null)[];
  /** Per-entry scratch of the partitions (the top's own, when threads share memory). */
  branchOf: Int32Array;
}

/** A grower of tasks over `layout`, a copy or a view of the top's (`features`: the top's columns). */
export function taskGrower(
  features: Column[],
  classes: number,
  opts: ResolvedOptions,
  layout: ExactLayout,
): NodeGrower {
  const pool = EntryPool.over(layout.pool.row, layout.pool.label, layout.pool.weight);
  // Threads partition different features of one node at the same positions: scratch is per thread.
  const n = layout.ids.length;
  return new NodeGrower(features, pool, classes, opts, { branchOf: layout.branchOf, scratchI: new Int32Array(n) });
}

/** Task `job`'s subtree, grown by a `taskGrower` over `layout`. */
export function growTask(grower: NodeGrower, layout: ExactLayout, job: NodeJob): TreeStore {
  const entry: StackEntry = { ...nodeOf(job), buf: { ids: layout.ids, sorted: layout.sorted } };
  return grower.growSubtree(entry);
}
