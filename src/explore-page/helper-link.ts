/**
 * The link between the page's grower worker and its helper worker (grow-in-two.ts), one
 * MessageChannel the page makes and sends an end of to each: layouts and tasks one way, subtrees
 * back by task id.
 */
import { GroveError } from '../core/errors.js';
import type { Dataset } from '../data/dataset.js';
import type { StoreData } from '../model/store.js';
import type { Helper, HelperJob, HelperReply } from './grow-in-two.js';
import { Pending } from './pending.js';
import { TaskHost } from './task-host.js';

/** The grower's end of a link; `close` ends it (a new link replaces it). */
export interface HelperLink extends Helper {
  close(): void;
}

/**
 * The grower's side: layouts and tasks out, subtrees back. When the link closes or a reply cannot
 * be read, every task still waiting fails with 'the helper worker stopped' (the grower then grows
 * them itself), and so does every task asked for after.
 */
export function linkHelper(port: MessagePort): HelperLink {
  const pending = new Pending<StoreData>();
  let tree = 0;
  let closed = false;
  let heard = Number.NEGATIVE_INFINITY;
  const stopAll = () => pending.rejectAll(() => new GroveError('the helper worker stopped'));
  port.onmessage = (e: MessageEvent<HelperReply>) => {
    heard = performance.now();
    const r = e.data;
    if ('started' in r) return;
    pending.settle(
      r.id,
      'error' in r ? { error: new GroveError(`the helper worker failed: ${r.error}`) } : { value: r.nodes },
    );
  };
  port.onmessageerror = stopAll;
  const post = (job: HelperJob) => {
    if (!closed) port.postMessage(job);
  };
  return {
    heard: () => heard,
    start: (options, layout) => {
      const id = ++tree;
      post({ kind: 'layout', tree: id, options, layout });
      return {
        task: (task) => {
          if (closed) return Promise.reject(new GroveError('the helper worker stopped'));
          const { id: taskId, reply } = pending.open(undefined);
          post({ kind: 'task', tree: id, id: taskId, task });
          return reply;
        },
        drop: () => post({ kind: 'drop', tree: id }),
      };
    },
    close: () => {
      closed = true;
      port.close();
      stopAll();
    },
  };
}

/**
 * The helper's side: take layouts, grow the tasks asked for (saying when it starts one), over the rows of `data`.
 * Each link
 * has its own TaskHost: a restarted grower numbers its trees afresh.
 */
export function serveHelper(port: MessagePort, data: () => Dataset): { close(): void } {
  const host = new TaskHost(data);
  port.onmessage = (e: MessageEvent<HelperJob>) => {
    const job = e.data;
    if (job.kind === 'task') port.postMessage({ id: job.id, started: true } satisfies HelperReply);
    try {
      const nodes = host.take(job);
      if (nodes && job.kind === 'task') port.postMessage({ id: job.id, nodes } satisfies HelperReply);
    } catch (err) {
      if (job.kind === 'task')
        port.postMessage({ id: job.id, error: err instanceof Error ? err.message : String(err) } satisfies HelperReply);
    }
  };
  return { close: () => port.close() };
}
