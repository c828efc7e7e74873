/** Messages between the parallel forest grower and its workers (parallel-forest.ts, forest-worker.ts). */
import type { Dataset } from '../../data/dataset.js';
import type { CodeMatrix } from '../../learn/hist-layout.js';
import type { Ranked } from '../../learn/node-ranks.js';
import type { FitOptions } from '../../options/options.js';
import type { BinEdges } from '../forest-bins.js';
import type { TreeMessage } from './tree-message.js';

/**
 * What a worker is asked: prepare the forest (with the columns' ranks in SharedArrayBuffers when
 * the trees sort nodes by rank; when they grow on the forest's bins, binning `bin.features` into
 * the shared `bin.codes`), take every feature's bin edges (`bins`, once all are binned), grow tree
 * `index`, or drop the forest (no answer: it goes idle).
 */
export type ForestRequest =
  | {
      op: 'init';
      data: Dataset;
      options: FitOptions;
      ranks: Ranked[] | null;
      bin: { codes: CodeMatrix; features: number[] } | null;
    }
  | { op: 'bins'; edges: BinEdges }
  | { op: 'tree'; index: number }
  | { op: 'release' };

/**
 * What a worker answers: ready (with the edges of the features it binned), a grown tree's own
 * parts, or its error message.
 */
export type ForestReply =
  | { op: 'ready'; edges?: BinEdges }
  | { op: 'tree'; index: number; tree: TreeMessage }
  | { op: 'error'; error: string };
