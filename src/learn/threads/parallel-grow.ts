/**
 * Exact-mode growth on worker threads (Node only), in three phases over one layout held in
 * SharedArrayBuffers:
 *
 * 1. presort: the numeric features are sorted in parallel, a share per thread;
 * 2. the top of the tree: each node larger than n / (8 · threads) rows is split by all threads
 *    together, each evaluating and then partitioning its share of the features (exact mode; in
 *    histogram mode a node's split costs little next to building its histogram);
 * 3. the subtrees below become tasks, largest first, for whichever thread is free (the main one
 *    included); a task touches only its own slice of the layout, so no locks are needed.
 *
 * The pieces are put together and renumbered as one thread numbers them: the tree is the same
 * whatever `threads` is. `fit` stays synchronous: the main thread waits for workers with
 * Atomics.wait and takes their replies with receiveMessageOnPort, never through its event loop.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { plainArrays, sharedArrays } from '../../core/arrays.js';
import { GroveError } from '../../core/errors.js';
import type { Column, Dataset, NumericValues } from '../../data/dataset.js';
import { type StoreData, TreeStore } from '../../model/store.js';
import type { ResolvedOptions } from '../../options/options.js';
import type { FitOptions } from '../../options/types.js';
import { SortWork } from '../../split/argsort.js';
import type { Candidate } from '../../split/candidate.js';
import { EntryPool } from '../../split/entries.js';
import type { BinnedFeature } from '../../split/histogram.js';
import { newSlice, type SortedSlice } from '../../split/sorted-slice.js';
import type { DepthFirstGrower } from '../depth-first.js';
import type { GrowEntry } from '../expand.js';
import {
  type Buffers,
  NodeGrower,
  type NodeTeam,
  rootEntry,
  type StackEntry,
  setParallelGrow,
  sortInto,
} from '../grow.js';
import {
  binInto,
  binNumerics,
  checkHistogramOptions,
  codeMatrix,
  codeWidth,
  finishLayout,
  HistGrower,
  type HistLayout,
} from '../grow-hist.js';
import type { BranchSizes } from '../partition.js';
import type { NodeSplit } from '../split-policy.js';
import { growsInTasks, growTop, joinTasks, type NodeJob, nodeJob, sentOptions, taskRows } from '../tasks.js';
import { threadAlive } from './thread-liveness.js';

/**
 * Smallest fits (rows × features) given worker threads: with `threads: 'auto'` where they pay even
 * in a fresh process (workers start with cold code; docs/performance.md, "Worker threads"), and
 * with an explicit count where they can.
 */
export const MIN_PARALLEL_WORK = { auto: 1 << 21, explicit: 1 << 16 };
/** What a worker needs for one fit: views of the shared layout and what it needs to grow. */
export type GrowInit = {
  /** Numeric features carry their values in exact mode (shared copies: thresholds and missing values are read from them). */
  features: {
    kind: 'numeric' | 'categorical';
    name: string;
    values?: NumericValues;
    codes?: Int32Array;
    categories?: string[];
  }[];
  classes: number;
  options: FitOptions;
} & (
  | {
      mode: 'exact';
      pool: { row: Int32Array; label: Int32Array; weight: Float64Array };
      ids: Int32Array;
      sorted: readonly (SortedSlice | null)[];
      branchOf: Int32Array;
    }
  | {
      mode: 'hist';
      labels: Int32Array;
      weights: Float64Array;
      codes: Uint8Array | Uint16Array | Uint32Array;
    }
);

/** What a worker is asked to do. */
export type Job =
  | { op: 'presort'; features: number[] }
  | ({ op: 'evaluate'; features: number[] } & NodeJob)
  | ({ op: 'partition'; features: number[]; sizes: Int32Array; branches: number } & NodeJob)
  | ({ op: 'grow'; task: number } & NodeJob)
  | { op: 'init'; init: GrowInit }
  | { op: 'release' }
  | { op: 'bin'; features: { f: number; values: Float64Array | Float32Array }[] }
  | {
      op: 'binned';
      binned: (BinnedFeature | null)[];
      /** The layout's row arrays, made once binning is over. */
      rows: Int32Array;
      branchOf: Int32Array;
      /** The most rows of a task (the worker's partition scratch). */
      taskRows: number;
    }
  | ({ op: 'growHist'; task: number; hist: Float64Array | null } & NodeJob);

/** What a worker answers (candidates arrive as plain objects with a Candidate's fields). */
export type Reply =
  | { op: 'done' }
  | { op: 'cands'; cands: Candidate[] }
  | { op: 'nodes'; task: number; nodes: StoreData }
  | { op: 'bins'; binned: { f: number; feature: BinnedFeature }[] }
  | { op: 'error'; error: string };

const WORKER = new URL('./grow-worker.js', import.meta.url);
/** The worker script exists (it does in the built package; not when these sources run untranspiled). */
const workerAvailable = WORKER.protocol === 'file:' && existsSync(fileURLToPath(WORKER));

/** Threads to use for `threads` ('auto' = the machine's), or 1 when more would not pay or cannot work. */
export function threadsFor(data: Dataset, opts: ResolvedOptions, threads: number | 'auto'): number {
  const want = threads === 'auto' ? availableParallelism() : threads;
  if (!(want > 1) || !workerAvailable) return 1;
  // The size check first: growsInTasks scans every value for a missing one.
  if (data.nRows * data.features.length < MIN_PARALLEL_WORK[threads === 'auto' ? 'auto' : 'explicit']) return 1;
  if (!growsInTasks(data, opts)) return 1;
  return Math.min(want, 64);
}

/** A pooled worker thread and the port this thread talks to it through. */
interface Helper {
  worker: Worker;
  port: MessagePort;
  busy: boolean;
  /** The worker's kernel thread id, written by the worker when it starts (0: unknown). */
  tid: Int32Array;
}

/**
 * Workers outlive a fit and serve the next one: no start-up or JIT warm-up per fit, and a loop
 * of fits (cross-validated pruning) reuses the same threads instead of piling up new ones. They
 * are unref'd, so an idle pool never keeps the process alive.
 */
const idle: Helper[] = [];
/** Bumped by a worker after each reply, so this thread can sleep until one arrives. */
const signal = new Int32Array(new SharedArrayBuffer(4));

function acquire(count: number): Helper[] {
  // A pooled worker may have died since (its 'exit' event waits for the event loop).
  for (let i = idle.length - 1; i >= 0; i--) if (!threadAlive(Atomics.load(idle[i].tid, 0))) idle.splice(i, 1);
  const out = idle.splice(0, count);
  while (out.length < count) {
    const { port1, port2 } = new MessageChannel();
    const tid = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(WORKER, { workerData: { port: port2, signal, tid }, transferList: [port2] });
    worker.unref();
    const helper: Helper = { worker, port: port1, busy: false, tid };
    // A worker that dies is never reused, and its late 'error' event must not end the process
    // (the fit that used it has already thrown; see Team.sleep).
    worker.on('error', () => {});
    worker.on('exit', () => {
      const i = idle.indexOf(helper);
      if (i >= 0) idle.splice(i, 1);
    });
    out.push(helper);
  }
  return out;
}

/** Waiting longer than this for a reply makes the main thread check that the workers still run. */
const CHECK_MS = 1000;

/** The worker threads of one fit and the main thread's way of waiting for them. */
class Team implements NodeTeam {
  private readonly workers: Helper[];
  /** Nodes at least this large are split by every thread together. */
  minShared = Infinity;
  grower?: NodeGrower;

  constructor(
    count: number,
    init: GrowInit,
    private readonly threads = count + 1,
  ) {
    this.workers = acquire(count);
    for (const w of this.workers) this.send(w, { op: 'init', init });
    this.waitAll();
  }

  /** Feature shares: thread t (0 = this one) takes every threads-th feature from t. */
  share(features: number[], t: number): number[] {
    return features.filter((_, i) => i % this.threads === t);
  }

  /** Send worker i `job(i + 1)` (its share), run `mine`, then wait for every reply. */
  round(job: (t: number) => Job, mine: () => void): Reply[] {
    this.workers.forEach((w, i) => this.send(w, job(i + 1)));
    mine();
    return this.waitAll();
  }

  private send(w: Helper, job: Job): void {
    w.busy = true;
    w.port.postMessage(job);
  }

  private take(w: Helper): Reply | undefined {
    if (!w.busy) return undefined;
    const got = receiveMessageOnPort(w.port);
    if (!got) return undefined;
    w.busy = false;
    const reply = got.message as Reply;
    if (reply.op === 'error') throw new Error(`grove: a worker thread failed: ${reply.error}`);
    return reply;
  }

  private waitAll(): Reply[] {
    const replies: Reply[] = new Array(this.workers.length);
    for (;;) {
      const seen = Atomics.load(signal, 0);
      this.workers.forEach((w, i) => {
        const r = this.take(w);
        if (r) replies[i] = r;
      });
      if (!this.workers.some((w) => w.busy)) return replies;
      this.sleep(seen);
    }
  }

  /** Wait for the next reply; if none comes for a while, make sure no busy worker has died. */
  private sleep(seen: number): void {
    if (Atomics.wait(signal, 0, seen, CHECK_MS) !== 'timed-out') return;
    for (const w of this.workers) {
      if (w.busy && !threadAlive(Atomics.load(w.tid, 0))) {
        throw new GroveError(
          'a worker thread stopped without answering (out of memory?); fit on one thread instead (threads: 1, or --threads 1)',
        );
      }
    }
  }

  evaluate(entry: StackEntry, cands: Candidate[]): boolean {
    if (entry.end - entry.start < this.minShared) return false;
    const grower = this.grower!;
    const all = cands.map((_, f) => f);
    const node = nodeJob(entry);
    const replies = this.round(
      (t) => ({ op: 'evaluate', features: this.share(all, t), ...node }),
      () => {
        for (const f of this.share(all, 0)) grower.evaluateFeature(f, entry, cands[f]);
      },
    );
    for (const r of replies) if (r.op === 'cands') for (const c of r.cands) cands[c.feature].copyFrom(c);
    return true;
  }

  private partitioning = false;

  partition(entry: StackEntry, branches: BranchSizes): boolean {
    if (entry.end - entry.start < this.minShared) return false;
    const grower = this.grower!;
    const numeric = entry.buf.sorted.flatMap((s, f) => (s ? [f] : []));
    const node = nodeJob(entry);
    const { sizes, count } = branches;
    this.workers.forEach((w, i) =>
      this.send(w, { op: 'partition', features: this.share(numeric, i + 1), sizes, branches: count, ...node }),
    );
    for (const f of this.share(numeric, 0)) grower.partitionFeature(f, entry, branches);
    this.partitioning = true;
    return true;
  }

  finishPartition(): void {
    if (this.partitioning) this.waitAll();
    this.partitioning = false;
  }

  /**
   * Largest task first to whoever is free; this thread grows tasks too (`local`) and hands out more
   * between them. `job(task, i)` is the message that asks a worker for task i.
   */
  growTasks<T>(tasks: T[], local: (task: T) => TreeStore, job: (task: T, i: number) => Job): TreeStore[] {
    const results: TreeStore[] = new Array(tasks.length);
    const owner = new Map<Helper, number>();
    let next = 0;
    const feed = (w: Helper): void => {
      if (next >= tasks.length) return;
      owner.set(w, next);
      this.send(w, job(tasks[next], next));
      next++;
    };
    const collect = (): void => {
      for (const w of this.workers) {
        const r = this.take(w);
        if (r?.op !== 'nodes') continue;
        results[r.task] = TreeStore.fromData(r.nodes);
        feed(w);
      }
    };
    for (const w of this.workers) feed(w);
    while (next < tasks.length) {
      const i = next++;
      results[i] = local(tasks[i]);
      collect();
    }
    for (;;) {
      const seen = Atomics.load(signal, 0);
      collect();
      if (!this.workers.some((w) => w.busy)) return results;
      this.sleep(seen);
    }
  }

  /** Sort the numeric features into `buf`, a share per thread. */
  presort(data: Dataset, buf: Buffers): void {
    const numeric = data.features.flatMap((col, f) => (col.kind === 'numeric' ? [f] : []));
    // Workers sort from their shared copies of the values (GrowInit's features).
    this.round(
      (t) => ({ op: 'presort', features: this.share(numeric, t) }),
      () => {
        const work = new SortWork();
        for (const f of this.share(numeric, 0)) {
          const col = data.features[f];
          if (col.kind !== 'numeric') continue;
          sortInto(col.values, data.labels, buf.sorted[f]!, work);
        }
        work.release();
      },
    );
  }

  /** Back to the pool, told to drop this fit's data; a worker still busy (after an error) is ended. */
  close(): void {
    for (const w of this.workers) {
      if (w.busy) void w.worker.terminate();
      else {
        w.port.postMessage({ op: 'release' } satisfies Job);
        idle.push(w);
      }
    }
  }
}

/**
 * Grow the top of the tree on this thread (`grower`, from `root`), the subtrees of
 * `taskRows(n, threads)` rows becoming tasks that the team grows, largest first (`job` asks a
 * worker for one); then put the pieces together, numbered as one thread numbers them.
 */
function growInTasks<E extends GrowEntry>(
  team: Team,
  grower: DepthFirstGrower<E, NodeSplit>,
  root: E,
  n: number,
  threads: number,
  job: (task: E, i: number) => Job,
): TreeStore {
  const top = growTop(grower, root, taskRows(n, threads));
  lastTaskCount = top.tasks.length;
  return joinTasks(
    top,
    team.growTasks(top.tasks, (task) => grower.growSubtree(task), job),
  );
}

/** Shared, unsorted buffers for every feature (ids 0..n-1). */
function sharedBuffers(data: Dataset): Buffers {
  const n = data.nRows;
  const ids = sharedArrays.int32(n);
  for (let i = 0; i < n; i++) ids[i] = i;
  const k = data.classes.length;
  return { ids, sorted: data.features.map((col) => (col.kind === 'numeric' ? newSlice(sharedArrays, n, k) : null)) };
}

/** Shared copies of the numeric columns, in their own precision, for the workers. */
function sharedValues(data: Dataset): (NumericValues | undefined)[] {
  return data.features.map((col) => {
    if (col.kind !== 'numeric') return undefined;
    const copy =
      col.values instanceof Float32Array ? sharedArrays.float32(data.nRows) : sharedArrays.float64(data.nRows);
    copy.set(col.values);
    return copy;
  });
}

/** Grow `data`'s tree on several threads (the main one included); null when one thread is better. */
export function growParallel(
  data: Dataset,
  opts: ResolvedOptions,
  weights: Float64Array,
  threads: number | 'auto',
): TreeStore | null {
  lastTaskCount = 0;
  const t = threadsFor(data, opts, threads);
  if (t <= 1) return null;
  if (opts.bins !== undefined) return growParallelHistogram(data, opts, weights, t, threads === 'auto');
  const n = data.nRows;
  const k = data.classes.length;
  const pool = new EntryPool(data.labels, weights, sharedArrays);
  const buf = sharedBuffers(data);
  const branchOf = sharedArrays.int32(n);
  const options = sentOptions(opts);
  const team = new Team(t - 1, {
    mode: 'exact',
    features: describeFeatures(data, sharedValues(data)),
    classes: k,
    options,
    pool: { row: pool.row, label: pool.label, weight: pool.weight },
    ids: buf.ids,
    sorted: buf.sorted,
    branchOf,
  });
  try {
    team.presort(data, buf);
    const grower = new NodeGrower(data.features, pool, k, opts, { branchOf, scratchI: plainArrays.int32(n) });
    team.grower = grower;
    // Larger than any task: a task's nodes, grown while the workers are busy, never ask the team.
    team.minShared = taskRows(n, t).max + 1;
    grower.team = team;
    const root = rootEntry(buf, pool, k, opts);
    const done = growInTasks(team, grower, root, n, t, (task, i) => ({ op: 'grow', task: i, ...nodeJob(task) }));
    grower.team = undefined;
    return done;
  } finally {
    team.close();
  }
}

const describeFeatures = (data: Dataset, values: (NumericValues | undefined)[] = []): GrowInit['features'] =>
  data.features.map((col, f) =>
    col.kind === 'numeric'
      ? { kind: 'numeric', name: col.name, values: values[f] }
      : { kind: 'categorical', name: col.name, codes: col.codes, categories: col.categories },
  );

/** What the memory plan of a histogram-mode fit needs to know (bytes). */
export interface FitShape {
  rows: number;
  /** The typed columns (as `grove info` counts them: values, codes, labels, sample weights). */
  columns: number;
  /** Row weights the fit made besides the columns, and the code matrix. */
  weights: number;
  codes: number;
  /** Every numeric column is float32 (sort keys of 4 bytes, not 8). */
  narrow: boolean;
  /** Some feature is categorical (each grower then holds a row map, 4 bytes a row). */
  categorical: boolean;
  /** Shared copies of the labels and row weights for the workers (0 for those already shared). */
  copies: number;
}

export function fitShape(data: Dataset, weights: Float64Array, codes: number): FitShape {
  let columns = data.labels.byteLength + (data.weights?.byteLength ?? 0);
  let narrow = true;
  let categorical = false;
  for (const col of data.features) {
    if (col.kind === 'numeric') {
      columns += col.values.byteLength;
      narrow &&= col.values instanceof Float32Array;
    } else {
      columns += col.codes.byteLength;
      categorical = true;
    }
  }
  const copy = (a: ArrayBufferView) => (a.buffer instanceof SharedArrayBuffer ? 0 : a.byteLength);
  return {
    rows: data.nRows,
    columns,
    weights: weights === data.weights ? 0 : weights.byteLength,
    codes,
    narrow,
    categorical,
    copies: copy(data.labels) + copy(weights),
  };
}

const MiB = 2 ** 20;
/** Node's own memory beside a fit's arrays, and a worker thread's (measured: docs/performance.md, "No size cap"). */
const RUNTIME_BYTES = 75 * MiB;
const WORKER_BYTES = 20 * MiB;

/** For tests: a budget in place of the default one, applied to an explicit thread count too. */
export const memoryTesting: { budget?: number } = {};

/**
 * How many threads quantise the features (`bin`: all, or this one alone) and grow the tree
 * (`grow`; 1: no workers at all) within a fit's memory budget, issue 16's 1.5 × the typed columns
 * + 150 MiB: fewer threads before more memory. Beyond a one-thread fit, the workers need the
 * labels and row weights in shared memory (copies, unless they are shared already), every worker
 * holds its own heap and a partition scratch as long as the largest task, and a binning worker
 * also a staging copy of its column and its sort keys with their radix buffer.
 */
export function memoryPlan(shape: FitShape, threads: number): { bin: number; grow: number } {
  const { rows: n, columns, narrow, categorical } = shape;
  const budget = memoryTesting.budget ?? 1.5 * columns + 150 * MiB;
  const rowMap = categorical ? 4 * n : 0;
  const base = RUNTIME_BYTES + columns + shape.weights + shape.codes + rowMap + shape.copies;
  const sort = (narrow ? 8 : 16) * n;
  const stage = (narrow ? 4 : 8) * n;
  const growth = 12 * n; // rows, branchOf, partition scratch
  for (let t = threads; t > 1; t--) {
    const worker = WORKER_BYTES + 4 * taskRows(n, t).max + rowMap;
    const peak = (bin: number) => base + (t - 1) * worker + Math.max(growth, sort + (bin - 1) * (stage + sort));
    if (peak(t) <= budget) return { bin: t, grow: t };
    if (peak(1) <= budget) return { bin: 1, grow: t };
  }
  return { bin: 1, grow: 1 };
}

/** `a` itself when it is in shared memory, else a shared copy from `make`. */
function shared<A extends Int32Array | Float64Array>(a: A, make: (n: number) => A): A {
  if (a.buffer instanceof SharedArrayBuffer) return a;
  const copy = make(a.length);
  copy.set(a);
  return copy;
}

/**
 * Histogram mode on `threads` threads — with `auto`, as many of them as `memoryPlan` allows (null:
 * one); an explicit count is the user's choice of speed over memory, and is obeyed. The numeric
 * features are quantised (in parallel when the plan allows; each thread writes its features'
 * columns of the shared row-major code matrix), this thread grows the top of the tree, and the
 * subtrees below are tasks as in exact mode, each sent with its histogram.
 */
function growParallelHistogram(
  data: Dataset,
  opts: ResolvedOptions,
  weights: Float64Array,
  threads: number,
  auto: boolean,
): TreeStore | null {
  checkHistogramOptions(opts);
  const n = data.nRows;
  const d = data.features.length;
  const maxBins = opts.bins!;
  const plan =
    auto || memoryTesting.budget !== undefined
      ? memoryPlan(fitShape(data, weights, n * d * codeWidth(data, maxBins)), threads)
      : { bin: threads, grow: threads };
  lastPlan = plan;
  if (plan.grow === 1) return null;
  const t = plan.grow;
  const codes = codeMatrix(data, maxBins, sharedArrays);
  const binned: HistLayout['binned'] = data.features.map(() => null);
  const options = sentOptions(opts);
  // Posted as they are, the labels and weights would be copied into every worker: one shared copy serves all.
  const labels = shared(data.labels, sharedArrays.int32);
  const rowWeights = shared(weights, sharedArrays.float64);
  const team = new Team(t - 1, {
    mode: 'hist',
    features: describeFeatures(data),
    classes: data.classes.length,
    options,
    labels,
    weights: rowWeights,
    codes,
  });
  try {
    const numeric = data.features.flatMap((col, f) => (col.kind === 'numeric' ? [f] : []));
    const column = (f: number) => data.features[f] as Column & { kind: 'numeric' };
    // Shared scratch: after binning it becomes the layout's row arrays, which the workers read.
    const work = new SortWork(sharedArrays);
    if (plan.bin > 1) {
      // t features at a time: each worker's column goes through its own shared staging array
      // (posting a column would copy the whole buffer it is a view of); float32 columns stage as
      // float32, and the worker sorts 32-bit keys.
      const narrow = numeric.every((f) => column(f).values instanceof Float32Array);
      const stages = Array.from({ length: t - 1 }, () => (narrow ? sharedArrays.float32(n) : sharedArrays.float64(n)));
      for (let first = 0; first < numeric.length; first += t) {
        const round = numeric.slice(first, first + t);
        const replies = team.round(
          (i) => {
            const f = round[i];
            if (f !== undefined) stages[i - 1].set(column(f).values);
            return { op: 'bin', features: f === undefined ? [] : [{ f, values: stages[i - 1] }] };
          },
          () => {
            binned[round[0]] = binInto({ codes }, round[0], d, column(round[0]), maxBins, work);
          },
        );
        for (const r of replies) if (r.op === 'bins') for (const { f, feature } of r.binned) binned[f] = feature;
      }
    } else binNumerics(data, maxBins, codes, binned, work);
    const layout = finishLayout(data, codes, binned, work);
    const { max: maxTask } = taskRows(n, t);
    team.round(
      () => ({ op: 'binned', binned, rows: layout.rows, branchOf: layout.branchOf, taskRows: maxTask }),
      () => {},
    );
    const grower = new HistGrower(data.features, layout, labels, rowWeights, data.classes.length, opts);
    return growInTasks(team, grower, grower.rootEntry(), n, t, (task, i) => ({
      op: 'growHist',
      task: i,
      hist: task.hist,
      ...nodeJob(task),
    }));
  } finally {
    team.close();
  }
}

/** The pooled idle workers (for tests: they end one to check that a fit notices). */
export const idleWorkers = (): Worker[] => idle.map((h) => h.worker);

/** Tasks of the last parallel fit (for tests: they must exercise the task phase). */
export let lastTaskCount = 0;

/** The memory plan of the last histogram-mode fit asked to use threads (for tests). */
export let lastPlan: { bin: number; grow: number } | undefined;

setParallelGrow(growParallel);
