/**
 * Exact-mode growth on worker threads (Node only). The main thread sorts the features once into
 * SharedArrayBuffers and grows the top of the tree; every subtree of at most n / (8 · threads) rows
 * becomes a task. Tasks, largest first, go to the workers and to the main thread itself; a task
 * touches only its own slice of the shared arrays, so no locks are needed. The pieces are put
 * together and renumbered as one thread numbers them: the tree is the same whatever `threads` is.
 *
 * `fit` stays synchronous: the main thread waits for workers with Atomics.wait and takes their
 * replies with receiveMessageOnPort, never through its event loop.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type { Dataset } from '../data/dataset.js';
import { BUILTIN_CRITERIA } from '../criteria/registry.js';
import { sharedArrays } from '../tree/arrays.js';
import { EntryPool } from '../tree/entries.js';
import { NodeGrower, presort, rootEntry, rowScratch, setParallelGrow, type RowScratch, type StackEntry } from '../tree/grow.js';
import type { TreeNode } from '../tree/node.js';
import { placeSubtree, renumberDepthFirst } from '../tree/node-ids.js';
import type { ResolvedOptions } from '../tree/options.js';
import type { SortedSlice } from '../split/evaluate.js';

/** Below this many row·features a fit takes a few tenths of a second at most: starting workers would not pay. */
export const MIN_PARALLEL_WORK = 1 << 18;
/** Subtrees smaller than this are grown where they arise (messages would cost more than they save). */
const MIN_TASK_ROWS = 2048;

/** First message to a worker: views of the shared layout and what it needs to grow. */
export interface GrowInit {
  port: MessagePort;
  signal: Int32Array;
  features: { kind: 'numeric' | 'categorical'; name: string; codes?: Int32Array; categories?: string[] }[];
  classes: number;
  options: Record<string, unknown>;
  pool: { row: Int32Array; label: Int32Array; weight: Float64Array };
  ids: Int32Array;
  sorted: (SortedSlice | null)[];
  scratch: RowScratch;
}

export interface GrowTask {
  task: number;
  start: number;
  end: number;
  depth: number;
  totals: Float64Array;
  excluded: readonly number[];
}

export type GrowReply = { task: number; nodes: TreeNode[] } | { task: number; error: string };

interface Helper {
  worker: Worker;
  port: MessagePort;
  /** The task it is growing, or -1. */
  busy: number;
}

const builtin = (name: string | undefined): boolean => name === undefined || BUILTIN_CRITERIA.some((c) => c.name === name);

function hasMissing(data: Dataset): boolean {
  return data.features.some((col) => (col.kind === 'numeric' ? col.values.some((v) => Number.isNaN(v)) : col.codes.some((c) => c < 0)));
}

/** Worker threads to use for `threads` ('auto' = the machine's), or 1 when they would not pay or cannot work. */
export function threadsFor(data: Dataset, opts: ResolvedOptions, threads: number | 'auto'): number {
  const want = threads === 'auto' ? availableParallelism() : threads;
  if (!(want > 1) || opts.bins !== undefined || opts.algorithm === 'cmbsv') return 1;
  if (data.nRows * data.features.length < MIN_PARALLEL_WORK) return 1;
  // Workers rebuild the criteria from their names; a criterion registered at run time is not there.
  if (!BUILTIN_CRITERIA.includes(opts.criterionImpl) || !builtin(opts.thresholdCriterion)) return 1;
  // C4.5's fractional policy clones entries, which a shared layout cannot do.
  if (opts.missing === 'fractional' && hasMissing(data)) return 1;
  return Math.min(want, 64);
}

/** Grow `data`'s tree on `threads` threads (the main one included); null when one thread is better. */
export function growParallel(data: Dataset, opts: ResolvedOptions, weights: Float64Array, threads: number | 'auto'): TreeNode[] | null {
  const t = threadsFor(data, opts, threads);
  if (t <= 1) return null;
  const tStart = performance.now();
  const n = data.nRows;
  const k = data.classes.length;
  const pool = new EntryPool(data.labels, weights, sharedArrays);
  const buf = presort(data, sharedArrays);
  const scratch = rowScratch(n, sharedArrays);
  if (process.env.GROVE_DEBUG_PAR) console.error('presort ms', performance.now() - tStart);
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const { criterionImpl: _criterion, ...plain } = opts;
  const init: Omit<GrowInit, 'port'> = {
    signal,
    features: data.features.map((col) => (col.kind === 'numeric' ? { kind: 'numeric', name: col.name } : { kind: 'categorical', name: col.name, codes: col.codes, categories: col.categories })),
    classes: k,
    options: plain,
    pool: { row: pool.row, label: pool.label, weight: pool.weight },
    ids: buf.ids,
    sorted: buf.sorted,
    scratch,
  };
  // Workers start loading now, while this thread grows the top of the tree.
  const helpers: Helper[] = [];
  for (let i = 0; i < t - 1; i++) {
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(new URL('./grow-worker.js', import.meta.url));
    worker.unref();
    worker.postMessage({ ...init, port: port2 }, [port2]);
    helpers.push({ worker, port: port1, busy: -1 });
  }
  try {
    if (process.env.GROVE_DEBUG_PAR) console.error('setup ms', performance.now() - tStart);
    const grower = new NodeGrower(data.features, pool, k, opts, scratch);
    const nodes: TreeNode[] = [{ counts: [], n: 0, depth: 0 }];
    const maxTask = Math.max(MIN_TASK_ROWS, Math.floor(n / (Number(process.env.GROVE_TASK_DIV ?? 8) * t)));
    const tasks: StackEntry[] = [];
    grower.grow(nodes, [rootEntry(buf, pool, k)], (entry) => {
      const size = entry.end - entry.start;
      if (size > maxTask || size < MIN_TASK_ROWS) return false;
      tasks.push(entry);
      return true;
    });
    tasks.sort((a, b) => b.end - b.start - (a.end - a.start));
    const tTop = performance.now();
    if (process.env.GROVE_DEBUG_PAR) console.error('top ms', tTop - tStart);
    const results = runTasks(tasks, grower, helpers, signal);
    if (process.env.GROVE_DEBUG_PAR) console.error("tasks", tasks.length, "sizes", tasks.map((e) => e.end - e.start).join(","), "run ms", performance.now() - tTop);
    tasks.forEach((task, i) => placeSubtree(nodes, task.id, results[i]));
    return renumberDepthFirst(nodes);
  } finally {
    for (const h of helpers) void h.worker.terminate();
  }
}

/** Largest task first to whoever is free; this thread takes tasks too and collects replies between them. */
function runTasks(tasks: StackEntry[], grower: NodeGrower, helpers: Helper[], signal: Int32Array): TreeNode[][] {
  const results: TreeNode[][] = new Array(tasks.length);
  let next = 0;
  const send = (h: Helper): void => {
    if (next >= tasks.length) {
      h.busy = -1;
      return;
    }
    const i = next++;
    const { start, end, depth, totals, excluded } = tasks[i];
    h.busy = i;
    h.port.postMessage({ task: i, start, end, depth, totals, excluded } satisfies GrowTask);
  };
  const collect = (): void => {
    for (const h of helpers) {
      if (h.busy < 0) continue;
      const got = receiveMessageOnPort(h.port);
      if (!got) continue;
      const reply = got.message as GrowReply;
      if ('error' in reply) throw new Error(`grove: a worker thread failed growing a subtree: ${reply.error}`);
      results[reply.task] = reply.nodes;
      if (process.env.GROVE_DEBUG_PAR) console.error("worker did", reply.task);
      send(h);
    }
  };
  for (const h of helpers) send(h);
  while (next < tasks.length) {
    const i = next++;
    results[i] = grower.growSubtree(tasks[i]);
    collect();
  }
  while (helpers.some((h) => h.busy >= 0)) {
    const seen = Atomics.load(signal, 0);
    collect();
    if (helpers.some((h) => h.busy >= 0)) Atomics.wait(signal, 0, seen, 1000);
  }
  return results;
}

setParallelGrow(growParallel);
