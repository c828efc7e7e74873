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
import { availableParallelism } from 'node:os';
import { plainArrays, sharedArrays } from '../../core/arrays.js';
import type { Column, Dataset, NumericValues } from '../../data/dataset.js';
import type { TreeStore } from '../../model/store.js';
import type { ResolvedOptions } from '../../options/options.js';
import { EntryPool } from '../../split/entries.js';
import { SortWork } from '../../split/sort-work.js';
import { newSlice } from '../../split/sorted-slice.js';
import type { DepthFirstGrower } from '../depth-first.js';
import type { GrowEntry } from '../expand.js';
import { type Buffers, NodeGrower, rootEntry, setParallelGrow } from '../grow.js';
import { checkHistogramOptions, HistGrower } from '../grow-hist.js';
import { binInto, binNumerics, codeMatrix, codeWidth, finishLayout, type HistLayout } from '../hist-layout.js';
import type { GrowMeter } from '../progress.js';
import type { NodeSplit } from '../split-policy.js';
import { growsInTasks, growTop, joinTasks, nodeJob, sentOptions, taskRows } from '../tasks.js';
import { explicitPlan, fitShape, histSharedBytes, type MemoryPlan, memoryPlan, RETIRE_BYTES } from './memory-plan.js';
import type { GrowInit, Job } from './messages.js';
import { Team, workerAvailable } from './team.js';

/**
 * Smallest fits (rows × features) given worker threads: with `threads: 'auto'` where they pay even
 * in a fresh process (workers start with cold code; docs/performance.md, "Worker threads"), and
 * with an explicit count where they can.
 */
export const MIN_PARALLEL_WORK = { auto: 1 << 21, explicit: 1 << 16 };

/** What a caller (a test) may inject into one parallel fit, and be told of it. */
export interface ParallelProbe {
  /** A memory budget (bytes) in place of the default one, applied to an explicit thread count too. */
  budget?: number;
  /** Told how many subtrees became tasks. */
  onTasks?(count: number): void;
  /** Told the memory plan of a histogram-mode fit. */
  onPlan?(plan: MemoryPlan): void;
  /** Fault injection: each worker ends itself when sent a job of this kind. */
  exitOn?: Job['op'];
}

/** Threads to use for `threads` ('auto' = the machine's), or 1 when more would not pay or cannot work. */
export function threadsFor(data: Dataset, opts: ResolvedOptions, threads: number | 'auto'): number {
  const want = threads === 'auto' ? availableParallelism() : threads;
  if (!(want > 1) || !workerAvailable) return 1;
  // The size check first: growsInTasks scans every value for a missing one.
  if (data.nRows * data.features.length < MIN_PARALLEL_WORK[threads === 'auto' ? 'auto' : 'explicit']) return 1;
  if (!growsInTasks(data, opts)) return 1;
  return Math.min(want, 64);
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
  probe: ParallelProbe,
  meter: GrowMeter | undefined,
): TreeStore {
  // This thread's nodes are metered as it grows them; a worker's subtree when it comes back.
  grower.meter = meter;
  const top = growTop(grower, root, taskRows(n, threads));
  probe.onTasks?.(top.tasks.length);
  const grown = team.growTasks(
    top.tasks,
    (task) => grower.growSubtree(task),
    job,
    meter && ((i, nodes) => meter.subtree(top.tasks[i].totals, nodes.size)),
  );
  return joinTasks(top, grown);
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

/**
 * Grow `data`'s tree on several threads (the main one included); null when one thread is better.
 * `meter` hears of the nodes grown; `probe` is for tests (src/learn/grow.ts installs this function without one).
 */
export function growParallel(
  data: Dataset,
  opts: ResolvedOptions,
  weights: Float64Array,
  threads: number | 'auto',
  meter?: GrowMeter,
  probe: ParallelProbe = {},
): TreeStore | null {
  const t = threadsFor(data, opts, threads);
  if (t <= 1) return null;
  if (opts.bins !== undefined) return growParallelHistogram(data, opts, weights, t, threads === 'auto', probe, meter);
  const n = data.nRows;
  const k = data.classes.length;
  const pool = new EntryPool(data.labels, weights, sharedArrays);
  const buf = sharedBuffers(data);
  const branchOf = sharedArrays.int32(n);
  const values = sharedValues(data);
  const team = new Team(t - 1, {
    mode: 'exact',
    features: describeFeatures(data, values),
    classes: k,
    options: sentOptions(opts),
    exitOn: probe.exitOn,
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
    const grow = (task: GrowEntry, i: number): Job => ({ op: 'grow', task: i, ...nodeJob(task) });
    const done = growInTasks(team, grower, root, n, t, grow, probe, meter);
    grower.team = undefined;
    return done;
  } finally {
    const slices = buf.sorted.flatMap((slice) => (slice ? [slice.order, slice.labs] : []));
    team.close(
      byteSum([
        ...values.flatMap((v) => (v ? [v] : [])),
        ...slices,
        buf.ids,
        branchOf,
        pool.row,
        pool.label,
        pool.weight,
      ]),
    );
  }
}

const describeFeatures = (data: Dataset, values: (NumericValues | undefined)[] = []): GrowInit['features'] =>
  data.features.map((col, f) =>
    col.kind === 'numeric'
      ? { kind: 'numeric', name: col.name, values: values[f] }
      : { kind: 'categorical', name: col.name, codes: col.codes, categories: col.categories },
  );

/** Bytes of the arrays of `arrays` (a fit's shared arrays). */
const byteSum = (arrays: ArrayBufferView[]): number => arrays.reduce((sum, a) => sum + a.byteLength, 0);

/** `a` itself when it is in shared memory, else a shared copy from `make`. */
function shared<A extends Int32Array | Float64Array>(a: A, make: (n: number) => A): A {
  if (a.buffer instanceof SharedArrayBuffer) return a;
  const copy = make(a.length);
  copy.set(a);
  return copy;
}

/**
 * Quantise the numeric features into `codes` and `binned` on all `threads` of `team`, `threads`
 * features at a time: each worker's column goes through its own shared staging array (posting a
 * column would copy the whole buffer it is a view of); float32 columns stage as float32, and the
 * worker sorts 32-bit keys.
 */
function binInParallel(
  team: Team,
  data: Dataset,
  maxBins: number,
  layout: Pick<HistLayout, 'codes' | 'binned'>,
  threads: number,
  work: SortWork,
): void {
  const n = data.nRows;
  const d = data.features.length;
  const numeric = data.features.flatMap((col, f) => (col.kind === 'numeric' ? [f] : []));
  const column = (f: number) => data.features[f] as Column & { kind: 'numeric' };
  const narrow = numeric.every((f) => column(f).values instanceof Float32Array);
  const stages = Array.from({ length: threads - 1 }, () =>
    narrow ? sharedArrays.float32(n) : sharedArrays.float64(n),
  );
  const { binned } = layout;
  for (let first = 0; first < numeric.length; first += threads) {
    const round = numeric.slice(first, first + threads);
    const replies = team.round(
      (i) => {
        const f = round[i];
        if (f !== undefined) stages[i - 1].set(column(f).values);
        return { op: 'bin', features: f === undefined ? [] : [{ f, values: stages[i - 1] }] };
      },
      () => {
        binned[round[0]] = binInto(layout, round[0], d, column(round[0]), maxBins, work);
      },
    );
    for (const r of replies) if (r.op === 'bins') for (const { f, feature } of r.binned) binned[f] = feature;
  }
}

/**
 * Histogram mode on `threads` threads — with `auto`, as many of them as `memoryPlan` allows (null:
 * one); an explicit count grows on that many threads whatever the memory, and bins on as many
 * only where the memory bound allows (`explicitPlan`). The numeric
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
  probe: ParallelProbe,
  meter: GrowMeter | undefined,
): TreeStore | null {
  checkHistogramOptions(opts, data);
  const n = data.nRows;
  const maxBins = opts.bins!;
  const shape = fitShape(data, weights, n * data.features.length * codeWidth(data, maxBins));
  const plan =
    auto || probe.budget !== undefined ? memoryPlan(shape, threads, probe.budget) : explicitPlan(shape, threads);
  probe.onPlan?.(plan);
  if (plan.grow === 1) return null;
  const t = plan.grow;
  const codes = codeMatrix(data, maxBins, sharedArrays);
  const binned: HistLayout['binned'] = data.features.map(() => null);
  // Posted as they are, the labels and weights would be copied into every worker: one shared copy serves all.
  const labels = shared(data.labels, sharedArrays.int32);
  const rowWeights = shared(weights, sharedArrays.float64);
  const init: GrowInit = {
    mode: 'hist',
    features: describeFeatures(data),
    classes: data.classes.length,
    options: sentOptions(opts),
    exitOn: probe.exitOn,
    labels,
    weights: rowWeights,
    codes,
  };
  const sharedBytes = histSharedBytes(n, codes.byteLength);
  let team = new Team(t - 1, init);
  try {
    // Shared scratch: after binning it becomes the layout's row arrays, which the workers read.
    const work = new SortWork(sharedArrays);
    if (plan.bin > 1) {
      binInParallel(team, data, maxBins, { codes, binned }, t, work);
      // A worker's sort scratch stays until it collects garbage: in a fit that ends its workers, fresh ones grow.
      if (sharedBytes >= RETIRE_BYTES) {
        team.close(sharedBytes);
        team = new Team(t - 1, init);
      }
    } else binNumerics(data, maxBins, codes, binned, work);
    const layout = finishLayout(data, codes, binned, work);
    const { max: maxTask } = taskRows(n, t);
    team.round(
      () => ({ op: 'binned', binned, rows: layout.rows, branchOf: layout.branchOf, taskRows: maxTask }),
      () => {},
    );
    const grower = new HistGrower(data.features, layout, labels, rowWeights, data.classes.length, opts);
    const job = (task: { hist: Float64Array | null } & GrowEntry, i: number): Job => ({
      op: 'growHist',
      task: i,
      hist: task.hist,
      ...nodeJob(task),
    });
    return growInTasks(team, grower, grower.rootEntry(), n, t, job, probe, meter);
  } finally {
    team.close(sharedBytes);
  }
}

setParallelGrow(growParallel);
