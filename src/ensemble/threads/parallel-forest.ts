/**
 * Grows a forest's trees on worker threads, each tree whole on one thread. Tree i depends only on
 * the data, the options and i (src/ensemble/draws.ts), and trees are put back in index order, so
 * the forest is the same, bit for bit, on any number of threads. The main thread waits
 * synchronously (Atomics.wait, receiveMessageOnPort), as the parallel tree grower does, so
 * `fitForest` stays a plain function.
 */
import { availableParallelism } from 'node:os';
import { GroveError } from '../../core/errors.js';
import type { Dataset } from '../../data/dataset.js';
import { RETIRE_BYTES } from '../../learn/threads/memory-plan.js';
import { SyncTeam, workerScriptAvailable } from '../../learn/threads/sync-team.js';
import type { DecisionTree } from '../../model/decision-tree.js';
import type { FitOptions } from '../../options/options.js';
import { type ParallelForest, setParallelForest } from '../fit-forest.js';
import type { ForestReply, ForestRequest } from './messages.js';
import { type TreeHeader, treeFromMessage } from './tree-message.js';

const WORKER = new URL('./forest-worker.js', import.meta.url);
const workerAvailable = workerScriptAvailable(WORKER);

type Team = SyncTeam<ForestRequest, ForestReply>;

/** Options a worker can receive: a Criterion object (functions) cannot be posted. */
function postable(options: FitOptions): boolean {
  return typeof options.criterion !== 'object' && typeof options.thresholdCriterion !== 'object';
}

const growParallel: ParallelForest = (data, options, header, indices, threads, onTree) => {
  const count = Math.min(indices.length, threads === 'auto' ? availableParallelism() : threads);
  if (!workerAvailable || count < 2 || !postable(options)) return null;
  let team: Team | undefined;
  try {
    team = new SyncTeam(WORKER, count, {
      worker: 'a forest worker',
      instead: 'grow on one thread instead (threads: 1, or --threads 1)',
    });
    const { threads: _threads, ...sent } = options;
    for (const m of team.members) team.send(m, { op: 'init', data: plainData(data), options: sent as FitOptions });
    for (const m of team.members) team.waitFor(m);
    const trees = growAll(team, header, indices, onTree);
    if (dataBytes(data) <= POOL_BYTES) team.release({ op: 'release' });
    return trees;
  } finally {
    team?.terminate();
  }
};

/** Hand out the trees one at a time as workers finish; the trees in index order. */
function growAll(team: Team, header: TreeHeader, indices: number[], onTree: (grown: number) => void) {
  const out: DecisionTree[] = new Array(indices.length);
  const slot = new Map(indices.map((i, j) => [i, j]));
  let next = 0;
  let done = 0;
  const give = (m: Team['members'][number]) => {
    if (next < indices.length) team.send(m, { op: 'tree', index: indices[next++] });
  };
  for (const m of team.members) give(m);
  team.drain(
    (m, reply) => {
      if (reply.op !== 'tree') throw new GroveError('a forest worker answered out of turn');
      out[slot.get(reply.index)!] = treeFromMessage(reply.tree, header);
      done++;
      onTree(done);
      give(m);
    },
    () => done >= indices.length,
  );
  return out;
}

/**
 * Workers of a forest on data up to this size stay in the pool for the next forest. Above it they
 * end: an idle worker collects no garbage, and it would keep its copy of the data and the last
 * tree's layout beside whatever the process does next; starting workers is small beside such a fit.
 */
const POOL_BYTES = RETIRE_BYTES / 4;

/** Bytes of the data's typed columns, labels and sample weights. */
function dataBytes(data: Dataset): number {
  let bytes = data.labels.byteLength + (data.weights?.byteLength ?? 0);
  for (const col of data.features) bytes += col.kind === 'numeric' ? col.values.byteLength : col.codes.byteLength;
  return bytes;
}

/** The Dataset's own data (a reader's extra fields, such as a lazy cache, are not posted). */
function plainData(data: Dataset): Dataset {
  const { features, labels, classes, targetName, nRows, weights, source } = data;
  return {
    features,
    labels,
    classes,
    targetName,
    nRows,
    ...(weights ? { weights } : {}),
    ...(source !== undefined ? { source } : {}),
  };
}

setParallelForest(growParallel);
