/**
 * Grows a forest's trees on worker threads and on this thread, each tree whole on one thread. Tree
 * i depends only on the data, the options and i (src/ensemble/draws.ts), and trees are put back in
 * index order, so the forest is the same, bit for bit, on any number of threads. Between its own
 * trees, and when none is left to grow, the main thread takes the workers' trees synchronously
 * (Atomics.wait, receiveMessageOnPort), as the parallel tree grower does, so `fitForest` stays a
 * plain function.
 */
import { availableParallelism } from 'node:os';
import { GroveError } from '../../core/errors.js';
import { type Dataset, plainData } from '../../data/dataset.js';
import type { CodeMatrix } from '../../learn/hist-layout.js';
import { shareRanks } from '../../learn/node-ranks.js';
import { RETIRE_BYTES } from '../../learn/threads/memory-plan.js';
import { SyncTeam, workerScriptAvailable } from '../../learn/threads/sync-team.js';
import type { DecisionTree } from '../../model/decision-tree.js';
import type { FitOptions } from '../../options/options.js';
import { type ForestJob, type ParallelForest, setParallelForest } from '../fit-forest.js';
import { type BinEdges, binShare, shareBinning, sharedForestBins } from '../forest-bins.js';
import type { ForestReply, ForestRequest } from './messages.js';
import { type TreeHeader, treeFromMessage } from './tree-message.js';

const WORKER = new URL('./forest-worker.js', import.meta.url);
const workerAvailable = workerScriptAvailable(WORKER);

type Team = SyncTeam<ForestRequest, ForestReply>;
type Member = Team['members'][number];

/** Options a worker can receive: a Criterion object (functions) cannot be posted. */
function postable(options: FitOptions): boolean {
  return typeof options.criterion !== 'object' && typeof options.thresholdCriterion !== 'object';
}

const growParallel: ParallelForest = (data, options, header, indices, threads, onTree, here, sortColumns, binJob) => {
  const count = Math.min(indices.length, threads === 'auto' ? availableParallelism() : threads);
  if (!workerAvailable || count < 2 || !postable(options)) return null;
  let team: Team | undefined;
  try {
    // This thread grows trees too: one worker fewer, and no copy of the data for it.
    team = new SyncTeam(WORKER, count - 1, {
      worker: 'a forest worker',
      instead: 'grow on one thread instead (threads: 1, or --threads 1)',
    });
    const { threads: _threads, ...sent } = options;
    // One copy of the ranks for every thread, made here before the workers would make their own.
    const ranks = sortColumns ? shareRanks(sortColumns) : null;
    const binning = binJob ? shareBinning(binJob.plan, count) : null;
    team.members.forEach((m, j) => {
      const bin = binning ? { codes: binning.codes, features: binning.parts[j + 1] } : null;
      team!.send(m, { op: 'init', data: plainData(data), options: sent as FitOptions, ranks, bin });
    });
    if (binJob && binning) binTogether(team, binJob, binning.codes, binning.parts[0]);
    const trees = growAll(team, header, indices, onTree, here);
    if (dataBytes(data) <= POOL_BYTES) team.release({ op: 'release' });
    return trees;
  } finally {
    team?.terminate();
  }
};

/**
 * Histogram mode: bin this thread's `features` into the shared `codes` while the workers bin
 * theirs (asked by 'init'), then hand every thread all the features' edges ('bins'): each sets its
 * job's bins over the one code matrix. Each worker's answer to 'bins' is left for `growAll`.
 */
function binTogether(team: Team, job: ForestJob, codes: CodeMatrix, features: number[]): void {
  const edges: BinEdges = binShare(job.plan, codes, features);
  for (const m of team.members) {
    const reply = team.waitFor(m);
    if (reply.op !== 'ready' || !reply.edges) throw new GroveError('a forest worker answered out of turn');
    reply.edges.forEach((e, f) => {
      if (e) edges[f] = e;
    });
  }
  job.bins = sharedForestBins(job.plan, codes, edges, true);
  for (const m of team.members) team.send(m, { op: 'bins', edges });
}

/**
 * Requests a worker holds at once while many trees remain: its next tree waits in its queue, so it
 * never idles while this thread grows a tree and cannot hand it one.
 */
const QUEUE = 2;

/**
 * Hand out the trees in index order, each to the next worker with room in its queue or else to
 * this thread (`here`), taking the workers' trees between this thread's; the trees in index order.
 */
function growAll(
  team: Team,
  header: TreeHeader,
  indices: number[],
  onTree: (grown: number) => void,
  here: (i: number) => DecisionTree,
) {
  const out: DecisionTree[] = new Array(indices.length);
  const slot = new Map(indices.map((i, j) => [i, j]));
  // Requests sent and not answered, per worker (its 'init' first).
  const pending = new Map(team.members.map((m) => [m, 1]));
  let next = 0;
  let done = 0;
  const finish = (i: number, tree: DecisionTree) => {
    out[slot.get(i)!] = tree;
    done++;
    onTree(done);
  };
  const give = (m: Member) => {
    // Near the end one request each, so this thread is not left waiting on a worker's queue.
    const room = indices.length - next > 2 * team.members.length ? QUEUE : 1;
    while (next < indices.length && pending.get(m)! < room) {
      team.send(m, { op: 'tree', index: indices[next++] });
      pending.set(m, pending.get(m)! + 1);
    }
  };
  const onReply = (m: Member, reply: ForestReply) => {
    const left = pending.get(m)! - 1;
    pending.set(m, left);
    if (left > 0) m.busy = true; // its next request's answer is still to come
    if (reply.op === 'tree') finish(reply.index, treeFromMessage(reply.tree, header));
    else if (reply.op !== 'ready') throw new GroveError('a forest worker answered out of turn');
    give(m);
  };
  for (const m of team.members) give(m);
  while (next < indices.length) {
    for (const m of team.members) for (let r = team.take(m); r; r = team.take(m)) onReply(m, r);
    if (next >= indices.length) break;
    const i = indices[next++];
    finish(i, here(i));
  }
  team.drain(onReply, () => done >= indices.length);
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

setParallelForest(growParallel);
