/**
 * The memory plan of a histogram-mode fit on worker threads: how many threads quantise the
 * features and how many grow the tree within the fit's memory budget.
 */
import type { Dataset } from '../../data/dataset.js';
import { taskRows } from '../tasks.js';

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

/** Threads that quantise the features (`bin`) and that grow the tree (`grow`; 1: no workers). */
export interface MemoryPlan {
  bin: number;
  grow: number;
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
/**
 * Node's own memory beside a fit's arrays, a worker thread's, and what a worker's heap grows by
 * while it bins (measured: docs/performance.md, "No size cap").
 */
const RUNTIME_BYTES = 75 * MiB;
const WORKER_BYTES = 20 * MiB;
const BIN_WORKER_BYTES = 20 * MiB;

/**
 * A fit that shares this many bytes with its workers ends them instead of pooling them. A shared
 * array is freed once every thread that viewed it has collected it, and an idle worker collects
 * nothing: the fit's layout would stay beside whatever the process does next (the CLI's training
 * accuracy, say). A fresh worker's start-up is small beside a fit of this size.
 */
export const RETIRE_BYTES = 32 * MiB;

/** Bytes a histogram-mode fit shares with its workers: the code matrix, labels, row weights and two row arrays. */
export const histSharedBytes = (rows: number, codes: number): number => codes + (4 + 8 + 8) * rows;

/** A fit's memory budget: 1.5 × its typed columns + 150 MiB. */
export const defaultBudget = (shape: FitShape): number => 1.5 * shape.columns + 150 * MiB;

/**
 * The peak bytes of a fit that grows on `t` threads and bins on `bin` (`t` or 1). Beyond a
 * one-thread fit, the workers need the labels and row weights in shared memory (copies, unless
 * they are shared already), every worker holds its own heap and a partition scratch as long as
 * the largest task, and a binning worker also a staging copy of its column, its sort keys with
 * their radix buffer, and a larger heap.
 */
function peakBytes(shape: FitShape, t: number, bin: number): number {
  const { rows: n, columns, narrow, categorical } = shape;
  const rowMap = categorical ? 4 * n : 0;
  const base = RUNTIME_BYTES + columns + shape.weights + shape.codes + rowMap + shape.copies;
  const sort = (narrow ? 8 : 16) * n;
  const stage = (narrow ? 4 : 8) * n;
  const growth = 12 * n; // rows, branchOf, partition scratch
  // A binning worker's scratch is freed only when that worker collects garbage: growth runs beside
  // it, unless the fit is large enough that fresh workers grow (see growParallelHistogram).
  const fresh = histSharedBytes(n, shape.codes) >= RETIRE_BYTES;
  const worker = WORKER_BYTES + 4 * taskRows(n, t).max + rowMap;
  const binning = (bin - 1) * (stage + sort + BIN_WORKER_BYTES);
  return base + (t - 1) * worker + Math.max(sort + binning, growth + (fresh ? 0 : binning));
}

/**
 * How many threads quantise the features (`bin`: all, or this one alone) and grow the tree
 * (`grow`; 1: no workers at all) within `budget` (bytes): fewer threads before more memory.
 */
export function memoryPlan(shape: FitShape, threads: number, budget = defaultBudget(shape)): MemoryPlan {
  for (let t = threads; t > 1; t--) {
    if (peakBytes(shape, t, t) <= budget) return { bin: t, grow: t };
    if (peakBytes(shape, t, 1) <= budget) return { bin: 1, grow: t };
  }
  return { bin: 1, grow: 1 };
}

/**
 * An explicit thread count's plan: it grows on `threads` whatever the memory, and bins on as many
 * only when that stays within `budget` (binning on more threads holds a column's sort scratch
 * per thread at once), else on one.
 */
export function explicitPlan(shape: FitShape, threads: number, budget = defaultBudget(shape)): MemoryPlan {
  return { bin: peakBytes(shape, threads, threads) <= budget ? threads : 1, grow: threads };
}
