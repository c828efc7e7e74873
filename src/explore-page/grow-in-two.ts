/**
 * The page's tree grown on two workers at once: the grower grows the top of the tree, the
 * subtrees below it become tasks (src/learn/tasks.ts, as for Node's worker threads) that the grower
 * and the helper worker take in turn, largest first, and the grower puts them together: the same
 * tree as one worker grows. Without shared memory (a page from file:// is not cross-origin
 * isolated) the helper gets a copy of the grower's layout as the top left it and grows its tasks
 * over it: in exact mode the entries sorted per numeric feature (5–6 bytes a row per feature), in
 * histogram mode the bin codes (1–4 bytes a row per feature) and each task's class histograms.
 */
import type { FitPlan } from '../algorithms/fit.js';
import type { Dataset } from '../data/dataset.js';
import type { DepthFirstGrower } from '../learn/depth-first.js';
import type { GrowEntry } from '../learn/expand.js';
import { NodeGrower, presort, rootEntry, rowScratch } from '../learn/grow.js';
import { binAll, checkHistogramOptions, HistGrower, type HistLayout } from '../learn/grow-hist.js';
import type { NodeSplit } from '../learn/split-policy.js';
import {
  type ExactLayout,
  growsInTasks,
  growTask,
  growTop,
  joinTasks,
  type NodeJob,
  nodeJob,
  type TreeTop,
  taskGrower,
} from '../learn/tasks.js';
import { type StoreData, TreeStore } from '../model/store.js';
import { resolveOptions } from '../options/options.js';
import type { FitOptions } from '../options/types.js';
import { getPruner } from '../prune/registry.js';
import { EntryPool } from '../split/entries.js';

/** Fits smaller than this (rows × features) grow on one worker: a copy and messages would cost more than they save. */
export const MIN_TWO_WORKER_WORK = 1 << 16;

/**
 * Tasks: subtrees of n/2 rows down to n/64. With two workers the top grown by one alone is what
 * limits the gain, so it stays small (the root and a level or so), and the smaller tasks found
 * below balance the two.
 */
function taskBounds(n: number): { min: number; max: number } {
  return { min: Math.max(64, n >> 6), max: n >> 1 };
}

/** A tree's layout as the top left it, for the helper (the per-row scratch `branchOf` is its own). */
export type HelperLayout =
  | { mode: 'exact'; layout: Omit<ExactLayout, 'branchOf'> }
  | { mode: 'hist'; layout: Omit<HistLayout, 'branchOf'>; weights: Float64Array };

/** A task as a message: its node, and in histogram mode the node's class histograms. */
export type TaskJob = NodeJob & { hist?: Float64Array | null };

/**
 * What the grower sends the helper: the layout of a tree's top (`layout`), then its tasks
 * (`task`), then `drop` when the tree is grown.
 */
export type HelperJob =
  | { kind: 'layout'; tree: number; options: FitOptions; layout: HelperLayout }
  | { kind: 'task'; tree: number; id: number; task: TaskJob }
  | { kind: 'drop'; tree: number };

/** The helper's answer to a task: its subtree, or why it could not. */
export type HelperReply = { id: number; nodes: StoreData } | { id: number; error: string };

/** The grower's way to the helper: `start` sends a tree's layout, and its `task` grows one of its subtrees there. */
export interface Helper {
  start(options: FitOptions, layout: HelperLayout): HelperTree;
}

export interface HelperTree {
  task(task: TaskJob): Promise<StoreData>;
  /** The helper forgets the tree's layout. */
  drop(): void;
}

/**
 * Whether `plan` grows on two workers: a fit `growsInTasks` allows on the rows the worker holds
 * (`held`: so the helper's copy of them is the same), depth-first, large enough, and a pruning that
 * cuts the tree grown on all of them (not one grown on rows it holds out).
 */
export function growsInTwo(plan: FitPlan, held: Dataset): boolean {
  const { opts, data } = plan;
  return (
    data === held &&
    opts.maxLeafNodes === undefined &&
    data.nRows * data.features.length >= MIN_TWO_WORKER_WORK &&
    getPruner(opts.prune).holdOut === undefined &&
    growsInTasks(data, opts)
  );
}

/**
 * Lets the worker take the messages that came while it grew (the helper's answers): a message to
 * itself, which, unlike a timer, browsers do not delay when it repeats.
 */
function tick(): Promise<void> {
  const { port1, port2 } = new MessageChannel();
  return new Promise<void>((done) => {
    port1.onmessage = () => {
      port1.close();
      done();
    };
    port2.postMessage(null);
  });
}

/**
 * Grow `plan`'s tree (on `plan.data`, which the helper holds too): the top here, then the tasks
 * here and by `helper`, each taking the next largest when it is free.
 */
export function growInTwo(plan: FitPlan, helper: Helper): Promise<TreeStore> {
  const { opts, data, weights } = plan;
  const n = data.nRows;
  const k = data.classes.length;
  if (opts.bins !== undefined) {
    checkHistogramOptions(opts);
    const layout = binAll(data, opts.bins);
    const grower = new HistGrower(data.features, layout, data.labels, weights, k, opts);
    const top = growTop(grower, grower.rootEntry(), taskBounds(n));
    const { codes, binned, rows } = layout;
    return growTasks(plan, top, grower, helper, { mode: 'hist', layout: { codes, binned, rows }, weights }, (task) => ({
      ...nodeJob(task),
      hist: task.hist,
    }));
  }
  const pool = new EntryPool(data.labels, weights);
  const buf = presort(data);
  const grower = new NodeGrower(data.features, pool, k, opts, rowScratch(n));
  const top = growTop(grower, rootEntry(buf, pool, k, opts), taskBounds(n));
  const layout = { pool: { row: pool.row, label: pool.label, weight: pool.weight }, ids: buf.ids, sorted: buf.sorted };
  return growTasks(plan, top, grower, helper, { mode: 'exact', layout }, nodeJob);
}

/**
 * Grow the tasks of `top`: here and by `helper` (sent `layout` first), each taking the next
 * largest when it is free; then the whole tree.
 */
async function growTasks<E extends GrowEntry>(
  plan: FitPlan,
  top: TreeTop<E>,
  grower: DepthFirstGrower<E, NodeSplit>,
  helper: Helper,
  layout: HelperLayout,
  job: (task: E) => TaskJob,
): Promise<TreeStore> {
  const { tasks } = top;
  const grown: TreeStore[] = new Array(tasks.length);
  let next = 0;
  const { criterionImpl: _criterion, ...options } = plan.opts;
  // Posted (copied) now, before this worker's tasks partition their rows further.
  const away = tasks.length > 1 ? helper.start(options as FitOptions, layout) : undefined;
  /** The helper's failure, kept until this worker's own tasks are done. */
  let failed: { error: unknown } | undefined;
  /** The helper's next task, and the one after it when that is done; null when none is left. */
  const feed = (): Promise<void> | null => {
    if (!away || failed || next >= tasks.length) return null;
    const i = next++;
    return away.task(job(tasks[i])).then(
      (nodes) => {
        grown[i] = TreeStore.fromData(nodes);
        helping = feed();
      },
      (error: unknown) => {
        failed = { error };
        helping = null;
      },
    );
  };
  let helping = feed();
  try {
    while (next < tasks.length) {
      const i = next++;
      grown[i] = grower.growSubtree(tasks[i]);
      await tick();
    }
    for (let run = helping; run; run = helping) await run;
  } finally {
    away?.drop();
  }
  if (failed) throw failed.error;
  return joinTasks(top, grown);
}

/**
 * The helper's side: the layouts it was sent, by tree, each with a grower over it (with the columns
 * of `data`, the same rows as the grower's).
 */
export class TaskHost {
  /** Per tree: how to grow one of its tasks. */
  private readonly trees = new Map<number, (task: TaskJob) => TreeStore>();

  constructor(private readonly data: () => Dataset) {}

  /** Take a layout, grow a task over one (its subtree), or forget one. */
  take(job: HelperJob): StoreData | undefined {
    if (job.kind === 'drop') this.trees.delete(job.tree);
    else if (job.kind === 'layout') this.trees.set(job.tree, this.grower(job.options, job.layout));
    else {
      const grow = this.trees.get(job.tree);
      if (!grow) throw new Error(`a task of tree ${job.tree}, whose layout is not here`);
      return grow(job.task).data();
    }
    return undefined;
  }

  private grower(options: FitOptions, sent: HelperLayout): (task: TaskJob) => TreeStore {
    const d = this.data();
    const opts = resolveOptions(options);
    const k = d.classes.length;
    if (sent.mode === 'hist') {
      const layout: HistLayout = { ...sent.layout, branchOf: new Int32Array(sent.layout.rows.length) };
      const grower = new HistGrower(d.features, layout, d.labels, sent.weights, k, opts);
      return ({ hist, ...task }) => grower.growSubtree({ id: 0, ...task, hist: hist ?? null });
    }
    const layout: ExactLayout = { ...sent.layout, branchOf: new Int32Array(sent.layout.ids.length) };
    const grower = taskGrower(d.features, k, opts, layout);
    return (task) => growTask(grower, layout, task);
  }
}
