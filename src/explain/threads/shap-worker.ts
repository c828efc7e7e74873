/**
 * Worker thread of the parallel explainer (parallel-shap.ts): rebuilds the model's trees and takes
 * the aligned rows once (unanswered), then explains the blocks of rows it is asked for with the
 * same code as the calling thread (`TreesExplainer`), sending each block's contributions back.
 */
import type { MessagePort } from 'node:worker_threads';
import { workerData } from 'node:worker_threads';
import { ownThreadId } from '../../learn/threads/thread-liveness.js';
import type { AlignedColumn } from '../../model/align.js';
import { DecisionTree, TRUSTED_MODEL } from '../../model/decision-tree.js';
import { TreesExplainer } from '../shap.js';
import type { ShapReply, ShapRequest } from './messages.js';

const { port, signal, tid } = workerData as { port: MessagePort; signal: Int32Array; tid: Int32Array };
// Lets the main thread notice this thread's death while it waits synchronously.
Atomics.store(tid, 0, ownThreadId());
let job: { explainer: TreesExplainer; columns: AlignedColumn[] } | undefined;
/** Why the last init failed: the next request of that job is answered with it. */
let failed: string | undefined;

function reply(message: ShapReply, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
}

port.on('message', (request: ShapRequest) => {
  if (request.op === 'release') {
    // Back in the pool: the next call's init brings its own trees and rows.
    job = undefined;
    return;
  }
  try {
    if (request.op === 'init') {
      // No answer: the caller sends the first rows at once and hears of a failure there.
      job = undefined;
      failed = undefined;
      const { trees, ...rest } = request;
      const rebuilt = trees.models.map((m, j) => ({
        tree: new DecisionTree(m, TRUSTED_MODEL).compiled,
        weight: trees.weights[j],
      }));
      job = { explainer: new TreesExplainer(rebuilt, rest.nFeatures, rest.nClasses), columns: rest.columns };
      return;
    }
    if (job === undefined) throw new Error(failed ?? 'rows asked for before the trees');
    const values = job.explainer.explain(job.columns, request.from, request.to);
    reply({ op: 'rows', from: request.from, to: request.to, values }, [values.buffer as ArrayBuffer]);
  } catch (err) {
    const message = (err as Error)?.message ?? String(err);
    if (request.op === 'init') failed = message;
    else reply({ op: 'error', error: message });
  }
});
