/**
 * The messages between the main thread and the workers of the parallel grower
 * (src/learn/threads/parallel-grow.ts, grow-worker.ts).
 */
import type { NumericValues } from '../../data/dataset.js';
import type { StoreData } from '../../model/store.js';
import type { FitOptions } from '../../options/types.js';
import type { Candidate } from '../../split/candidate.js';
import type { BinnedFeature } from '../../split/histogram.js';
import type { SortedSlice } from '../../split/sorted-slice.js';
import type { NodeJob } from '../tasks.js';

/** What a worker needs for one fit: views of the shared layout and what it needs to grow. */
export type GrowInit = {
  /**
   * Numeric features carry their values in exact mode (shared copies: thresholds and missing values are read
   * from them).
   */
  features: {
    kind: 'numeric' | 'categorical';
    name: string;
    values?: NumericValues;
    codes?: Int32Array;
    categories?: string[];
  }[];
  classes: number;
  options: FitOptions;
  /** Fault injection for tests: during this fit the worker ends itself when sent a job of this kind. */
  exitOn?: Job['op'];
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
