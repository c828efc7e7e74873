/**
 * The page's tree grown on two workers at once: the grower grows the top of the tree, the
 * subtrees below it become tasks (src/learn/tasks.ts, as for Node's worker threads) that the grower
 * and the helper worker take in turn, largest first (the first one found goes to the helper while
 * the top is still growing), and the grower puts them together: the same tree as one worker grows.
 * Without shared memory (a page from file:// is not cross-origin isolated) each task is sent with
 * its rows' part of the grower's layout: its entries and their sorted slices in exact mode, its
 * rows and class histograms in histogram mode, whose bin codes the helper is sent once per tree
 * (docs/explore.md).
 */
import { CmbsvGrower, growsCmbsvInTasks } from '../algorithms/cmbsv/grow.js';
import type { FitPlan } from '../algorithms/fit.js';
import type { Dataset } from '../data/dataset.js';
import type { DepthFirstGrower } from '../learn/depth-first.js';
import type { GrowEntry } from '../learn/expand.js';
import { exactStart } from '../learn/grow.js';
import { histStart } from '../learn/grow-hist.js';
import type { HistLayout } from '../learn/hist-layout.js';
import type { NodeSplit } from '../learn/split-policy.js';
import {
  type ExactLayout,
  growsInTasks,
  growTop,
  joinTasks,
  type NodeJob,
  nodeJob,
  sentOptions,
  type TreeTop,
} from '../learn/tasks.js';
import { type StoreData, TreeStore } from '../model/store.js';
import type { FitOptions } from '../options/types.js';
import { getPruner } from '../prune/registry.js';
import type { SortedSlice } from '../split/sorted-slice.js';

/** Fits smaller than this (rows × features) grow on one worker: a copy and messages would cost more than they save. */
export const MIN_TWO_WORKER_WORK = 1 << 16;

/**
 * Tasks: subtrees of n/2 rows down to n/64. With two workers the top grown by one alone is what
 * limits the gain, so it stays small (the root and a level or so), and the smaller tasks found
 * below balance the two. C-MBSV's at most n/4: its first splits leave few subtrees of n/4 to n/2
 * rows (three of 21 % to 42 % of the rows on `magic`), which two workers cannot share evenly.
 */
function taskBounds(n: number, algorithm: string): { min: number; max: number } {
  return { min: Math.max(64, n >> 6), max: algorithm === 'cmbsv' ? n >> 2 : n >> 1 };
}

/**
 * What the helper holds of a tree while it grows some of its subtrees: the entries (exact mode;
 * `numeric[f]`: feature f has a sorted slice) or the bin codes and row weights (histogram mode).
 */
export type HelperLayout =
  | { mode: 'exact'; pool: ExactLayout['pool']; numeric: boolean[] }
  | { mode: 'hist'; codes: HistLayout['codes']; binned: HistLayout['binned']; weights: Float64Array }
  | { mode: 'cmbsv'; weights: Float64Array };

/**
 * A task as a message: its node and its rows' part of the layout, positions [start, end) of the
 * grower's buffers: the entries and their sorted slices (exact mode), or the rows and the node's
 * class histograms (histogram mode; C-MBSV: the rows alone).
 */
export type TaskJob = NodeJob &
  ({ ids: Int32Array; sorted: (SortedSlice | null)[] } | { rows: Int32Array; hist: Float64Array | null });

/**
 * What the grower sends the helper: a tree's `layout`, then its tasks (`task`), then `drop` when
 * the tree is grown.
 */
export type HelperJob =
  | { kind: 'layout'; tree: number; options: FitOptions; layout: HelperLayout }
  | { kind: 'task'; tree: number; id: number; task: TaskJob }
  | { kind: 'drop'; tree: number };

/**
 * The helper's answer to a task: its subtree, or why it could not; `started` before it grows one
 * (it holds the data and the tree's layout: the grower counts its time from then).
 */
export type HelperReply =
  | { id: number; nodes: StoreData }
  | { id: number; error: string }
  | { id: number; started: true };

/** The grower's way to the helper: `start` sends a tree's layout, and its `task` grows one of its subtrees there. */
export interface Helper {
  start(options: FitOptions, layout: HelperLayout): HelperTree;
  /** When the helper was last heard from (`performance.now()`; none: never). */
  heard?(): number;
}

export interface HelperTree {
  task(task: TaskJob): Promise<StoreData>;
  /** The helper forgets the tree's layout. */
  drop(): void;
}

/** A tree grown on two workers, and how many of its subtrees the helper grew (0: it grew none, or failed). */
export interface GrownInTwo {
  tree: TreeStore;
  helped: number;
}

/**
 * How long a helper may stay unheard, owing the answer to a task the grower has grown itself in
 * `grownMs`, before it counts as silent (hung, or killed without a word): four times that, at least
 * a second, counted from the later of the grower's finish and the helper's last message (it says
 * when it starts a task). A helper merely slower than the grower answers within that.
 */
export function silentAfter(grownMs: number): number {
  return Math.max(1000, 4 * grownMs);
}

/** The grower grows a task a slice of this long at a time, then takes the helper's answers. */
const SLICE_MS = 5;

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
    (opts.algorithm === 'cmbsv' ? growsCmbsvInTasks(opts) : growsInTasks(data, opts))
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
 * Grow `plan`'s tree (on `plan.data`, which the helper holds too): the top here, the first task
 * found sent to the helper at once, then the others here and by the helper, each taking the next
 * largest when it is free. `onSilent` runs, after the tree is returned, if the helper does not
 * answer a task it owes within `wait` (silentAfter) of the grower's time growing that task itself.
 */
export function growInTwo(
  plan: FitPlan,
  helper: Helper,
  onSilent: () => void = () => undefined,
  wait: (grownMs: number) => number = silentAfter,
): Promise<GrownInTwo> {
  const watch: Watch = { heard: () => helper.heard?.() ?? Number.NEGATIVE_INFINITY, wait, onSilent };
  const { opts, data, weights } = plan;
  const bounds = taskBounds(data.nRows, opts.algorithm);
  const options = sentOptions(opts);
  if (opts.algorithm === 'cmbsv') {
    const grower = new CmbsvGrower(data, opts, weights);
    const away = helper.start(options, { mode: 'cmbsv', weights });
    return growTasks(grower, grower.rootEntry(), bounds, away, watch, (task) => ({
      ...nodeJob(task),
      rows: grower.rows.slice(task.start, task.end),
      hist: null,
    }));
  }
  if (opts.bins !== undefined) {
    const { layout, grower } = histStart(data, opts, weights);
    const { codes, binned, rows } = layout;
    const away = helper.start(options, { mode: 'hist', codes, binned, weights });
    return growTasks(grower, grower.rootEntry(), bounds, away, watch, (task) => ({
      ...nodeJob(task),
      rows: rows.slice(task.start, task.end),
      hist: task.hist,
    }));
  }
  const { pool, buf, grower, root } = exactStart(data, opts, weights);
  const away = helper.start(options, {
    mode: 'exact',
    pool: { row: pool.row, label: pool.label, weight: pool.weight },
    numeric: buf.sorted.map((sl) => sl !== null),
  });
  return growTasks(grower, root, bounds, away, watch, (task) => ({
    ...nodeJob(task),
    ids: buf.ids.slice(task.start, task.end),
    sorted: buf.sorted.map(
      (sl) => sl && { order: sl.order.slice(task.start, task.end), labs: sl.labs.slice(task.start, task.end) },
    ),
  }));
}

/** How growTasks tells a silent helper: `heard` its last message, `wait` silentAfter, `onSilent` the news. */
interface Watch {
  heard(): number;
  wait(grownMs: number): number;
  onSilent(): void;
}

/**
 * Grow the top from `root`, its subtrees of `bounds` rows left as tasks (`growTop`), the first
 * task found going to the helper (`away`) at once; then the other tasks here and there, each
 * taking the next largest when it is free (this worker grows a slice at a time, taking the
 * helper's answers between slices); then the whole tree. `job` is a task's message, made when it
 * is sent (its rows are where they stay). With nothing left of its own, this worker grows the
 * tasks the helper still owes (or failed) as well, and stops one when the helper's answer comes
 * first: this worker's layout
 * still holds every task's rows as they were when it was found, and the subtree is the same
 * whoever grows it. An answer still owed then is watched (`watch`) after the tree is returned.
 */
async function growTasks<E extends GrowEntry>(
  grower: DepthFirstGrower<E, NodeSplit>,
  root: E,
  bounds: { min: number; max: number },
  away: HelperTree,
  watch: Watch,
  job: (task: E) => TaskJob,
): Promise<GrownInTwo> {
  let first: { task: E; answer: Promise<StoreData> } | undefined;
  let top: TreeTop<E>;
  try {
    top = growTop(grower, root, bounds, (task) => {
      first ??= { task, answer: away.task(job(task)) };
    });
  } catch (err) {
    away.drop();
    first?.answer.catch(() => undefined);
    throw err;
  }
  const share = new TaskShare(grower, top.tasks, away, job);
  if (first) share.collect(share.claim(top.tasks.indexOf(first.task)), first.answer);
  let owed: { run: Promise<void>; grownMs: number } | undefined;
  try {
    for (let i = share.take(); i >= 0; i = share.take()) {
      await share.growHere(i);
      await tick();
    }
    for (let i = 0; i < top.tasks.length; i++) {
      if (share.grown[i]) continue;
      const began = performance.now();
      await share.growHere(i);
      const run = share.helping;
      if (run && !share.helperDown) owed = { run, grownMs: performance.now() - began };
    }
  } finally {
    share.done = true;
    away.drop();
  }
  if (owed) watchOwed(owed.run, owed.grownMs, watch);
  return { tree: joinTasks(top, share.grown), helped: share.helped };
}

/** The tasks of one tree shared between this worker and the helper: who took which, and what is grown. */
class TaskShare<E extends GrowEntry> {
  readonly grown: TreeStore[];
  private readonly taken: Uint8Array;
  private next = 0;
  /** The answer awaited from the helper, if any. */
  helping: Promise<void> | null = null;
  /** The helper failed: no more tasks go to it. */
  helperDown = false;
  /** The grow is over (grown or failed): nothing more is sent for this tree. */
  done = false;
  helped = 0;

  constructor(
    private readonly grower: DepthFirstGrower<E, NodeSplit>,
    private readonly tasks: E[],
    private readonly away: HelperTree,
    private readonly job: (task: E) => TaskJob,
  ) {
    this.grown = new Array(tasks.length);
    this.taken = new Uint8Array(tasks.length);
  }

  /** Mark task i taken; returns i. */
  claim(i: number): number {
    this.taken[i] = 1;
    return i;
  }

  /** The largest task not taken yet (-1: none). */
  take(): number {
    while (this.next < this.tasks.length && this.taken[this.next]) this.next++;
    if (this.next >= this.tasks.length) return -1;
    this.taken[this.next] = 1;
    return this.next++;
  }

  /** Task i's subtree when the helper sends it, and the helper's next task then. */
  collect(i: number, answer: Promise<StoreData>): void {
    this.helping = answer.then(
      (nodes) => {
        if (this.done || this.grown[i]) return;
        this.grown[i] = TreeStore.fromData(nodes);
        this.helped++;
        this.feed();
      },
      () => {
        this.helperDown = true;
        this.helping = null;
      },
    );
  }

  private feed(): void {
    this.helping = null;
    if (this.done || this.helperDown) return;
    const i = this.take();
    if (i >= 0) this.collect(i, this.away.task(this.job(this.tasks[i])));
  }

  /**
   * Grow task i here, a slice at a time, taking the helper's answers between slices: each brings
   * the helper its next task at once, not when this task is grown. A task the helper owes stops
   * when its answer comes first.
   */
  async growHere(i: number): Promise<void> {
    const steps = this.grower.subtreeSteps(this.tasks[i]);
    for (let slice = performance.now(); ; ) {
      const step = steps.next();
      if (step.done) {
        this.grown[i] ??= step.value;
        return;
      }
      if (performance.now() - slice < SLICE_MS) continue;
      await tick();
      if (this.grown[i]) return;
      slice = performance.now();
    }
  }
}

/**
 * Tell `watch.onSilent` if the answer `run` waits for does not come within `watch.wait(grownMs)` of
 * now or of the helper's last message, whichever is later.
 */
function watchOwed(run: Promise<void>, grownMs: number, watch: Watch): void {
  const from = performance.now();
  const grace = watch.wait(grownMs);
  let answered = false;
  void run.then(() => {
    answered = true;
  });
  const check = (): void => {
    if (answered) return;
    const left = Math.max(from, watch.heard()) + grace - performance.now();
    if (left > 0) setTimeout(check, left);
    else watch.onSilent();
  };
  setTimeout(check, grace);
}
