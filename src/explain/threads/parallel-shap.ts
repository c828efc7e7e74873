/**
 * Explains rows on the calling thread and threads − 1 worker threads, a block of rows at a time
 * handed out as workers finish. A row's contributions depend only on the row and the trees, and
 * each block is put back at its own place, so the values are the same, bit for bit, on any
 * number of threads. The calling thread reads the workers' replies between its own blocks
 * (receiveMessageOnPort) and at the end waits synchronously (Atomics.wait), as the parallel
 * forest grower does, so `shapValues` stays a plain function.
 */
import { availableParallelism } from 'node:os';
import { GroveError } from '../../core/errors.js';
import { SyncTeam, workerScriptAvailable } from '../../learn/threads/sync-team.js';
import { DecisionTree } from '../../model/decision-tree.js';
import { type ExplainableModel, weightedTrees } from '../model.js';
import { type ParallelShap, type ShapJob, setParallelShap, TreesExplainer } from '../shap.js';
import type { ShapReply, ShapRequest, ShapTrees } from './messages.js';

const WORKER = new URL('./shap-worker.js', import.meta.url);
const workerAvailable = workerScriptAvailable(WORKER);

/**
 * With `auto`, fewer rows or less work (rows × tree nodes) than this is explained on the calling
 * thread: each worker starts and rebuilds the trees, which costs about as much as explaining a
 * few hundred rows.
 */
const AUTO_MIN_ROWS = 1000;
const AUTO_MIN_WORK = 20_000_000;

/**
 * Workers of a job up to about this size (rows, trees and their leaf tables) stay in SyncTeam's
 * pool for the next call, which then skips starting them. Above it they end: an idle worker
 * collects no garbage, so it would keep the job's memory.
 */
const POOL_BYTES = 8 << 20;
/** About what a worker keeps per tree node: the node, its compiled arrays and a share of the leaf tables. */
const NODE_BYTES = 600;

type Team = SyncTeam<ShapRequest, ShapReply>;
type Member = Team['members'][number];

function jobBytes(job: ShapJob, nodes: number): number {
  return job.nRows * job.nFeatures * 8 + nodes * NODE_BYTES;
}

const explainParallel: ParallelShap = (job, threads, report) => {
  const blocks = Math.ceil(job.nRows / job.block);
  const trees = modelTrees(job.model);
  const nodes = trees.reduce((n, t) => n + t.compiled.feature.length, 0);
  if (threads === 'auto' && (job.nRows < AUTO_MIN_ROWS || job.nRows * nodes < AUTO_MIN_WORK)) return null;
  const count = Math.min(blocks, threads === 'auto' ? availableParallelism() : threads);
  if (!workerAvailable || count < 2) return null;
  let team: Team | undefined;
  try {
    // The calling thread is one of the `count`: it explains blocks too instead of only waiting.
    team = new SyncTeam(WORKER, count - 1, {
      worker: 'a TreeSHAP worker',
      instead: 'explain on one thread instead (threads: 1, or --threads 1)',
    });
    const values = explainAll(team, job, treeParts(job.model, trees), report);
    if (jobBytes(job, nodes) <= POOL_BYTES) team.release({ op: 'release' });
    return values;
  } finally {
    team?.terminate();
  }
};

/**
 * Hand out blocks of rows, two at a time to each worker so that it always has the next one while
 * this thread explains blocks of its own between looking at the replies; each block's values go
 * to its own rows.
 */
function explainAll(team: Team, job: ShapJob, parts: ShapTrees, report: (rows: number) => void) {
  const { columns, nRows, nFeatures, nClasses, block } = job;
  const stride = nFeatures * nClasses;
  const values = new Float64Array(nRows * stride);
  const waiting = new Map<Member, number>();
  let next = 0;
  let done = 0;
  const give = (m: Member) => {
    if (next >= nRows) return;
    team.send(m, { op: 'rows', from: next, to: Math.min(nRows, next + block) });
    next += block;
    waiting.set(m, (waiting.get(m) ?? 0) + 1);
  };
  const take = (m: Member, reply: ShapReply) => {
    if (reply.op !== 'rows') throw new GroveError('a TreeSHAP worker answered out of turn');
    values.set(reply.values, reply.from * stride);
    done += reply.to - reply.from;
    report(done);
    const left = waiting.get(m)! - 1;
    waiting.set(m, left);
    // The member's other block is still to come.
    if (left > 0) m.busy = true;
    give(m);
  };
  const init: ShapRequest = { op: 'init', trees: parts, columns, nRows, nFeatures, nClasses };
  for (const m of team.members) {
    team.send(m, init);
    give(m);
    give(m);
  }
  const own = new TreesExplainer(weightedTrees(job.model), nFeatures, nClasses);
  while (next < nRows) {
    const from = next;
    const to = Math.min(nRows, from + block);
    next = to;
    values.set(own.explain(columns, from, to), from * stride);
    done += to - from;
    report(done);
    for (const m of team.members) {
      const reply = team.take(m);
      if (reply) take(m, reply);
    }
  }
  team.drain(take, () => done >= nRows);
  return values;
}

function modelTrees(model: ExplainableModel): DecisionTree[] {
  return model instanceof DecisionTree ? [model] : model.trees;
}

/** The trees as model-file parts (what a worker rebuilds them from), with their weights. */
function treeParts(model: ExplainableModel, trees: DecisionTree[]): ShapTrees {
  const models = trees.map((t) => {
    const { format: _f, version: _v, ...parts } = t.toJSON();
    return parts;
  });
  return { models, weights: trees.map(() => (model instanceof DecisionTree ? 1 : 1 / trees.length)) };
}

setParallelShap(explainParallel);
