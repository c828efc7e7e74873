/** Messages between the parallel forest grower and its workers (parallel-forest.ts, forest-worker.ts). */
import type { Dataset } from '../../data/dataset.js';
import type { Ranked } from '../../learn/node-ranks.js';
import type { FitOptions } from '../../options/options.js';
import type { TreeMessage } from './tree-message.js';

/**
 * What a worker is asked: prepare the forest (with the columns' ranks in SharedArrayBuffers when
 * the trees sort nodes by rank), grow tree `index`, or drop the forest (no answer: it goes idle).
 */
export type ForestRequest =
  | { op: 'init'; data: Dataset; options: FitOptions; ranks: Ranked[] | null }
  | { op: 'tree'; index: number }
  | { op: 'release' };

/** What a worker answers: ready, a grown tree's own parts, or its error message. */
export type ForestReply =
  | { op: 'ready' }
  | { op: 'tree'; index: number; tree: TreeMessage }
  | { op: 'error'; error: string };
