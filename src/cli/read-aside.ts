/**
 * `grove predict` reads its data file on a worker thread while this thread decodes and compiles
 * the forest (the two are independent once the forest file's header has named the features). The
 * CSV reader's numeric columns live in SharedArrayBuffers, so the rows come back without a copy.
 * Any failure there gives undefined: the caller reads on this thread, which reports the error.
 */
import { Worker } from 'node:worker_threads';
import type { Dataset } from '../data/dataset.js';
import { workerScriptAvailable } from '../learn/threads/sync-team.js';
import type { SourceReadOptions } from '../sources/index.js';
import { warn } from './output.js';
import type { SourceFlags } from './read-flags.js';

const WORKER = new URL('./read-aside-worker.js', import.meta.url);

/** What the worker is given: the data argument, the command's source flags, and the read options without callbacks. */
export interface AsideRequest {
  dataPath: string;
  flags: SourceFlags;
  options: Omit<SourceReadOptions, 'onWarning' | 'onProgress'>;
}

/** What it answers: the rows and the warnings the read gave, or nothing. */
export type AsideReply = { ok: true; data: Dataset; warnings: string[] } | { ok: false };

/** A read started on a worker thread: `result` (undefined on any failure) and `cancel`. */
export interface AsideRead {
  result: Promise<Dataset | undefined>;
  cancel: () => void;
}

/** Start reading `request.dataPath` on a worker thread, or undefined when the worker script is missing. */
export function readAside(request: AsideRequest): AsideRead | undefined {
  if (!workerScriptAvailable(WORKER)) return undefined;
  let worker: Worker;
  try {
    worker = new Worker(WORKER, { workerData: request });
  } catch {
    return undefined;
  }
  const result = new Promise<Dataset | undefined>((resolve) => {
    worker.once('message', (reply: AsideReply) => {
      if (reply.ok) for (const w of reply.warnings) warn(w);
      resolve(reply.ok ? reply.data : undefined);
      void worker.terminate();
    });
    worker.once('error', () => resolve(undefined));
    worker.once('exit', () => resolve(undefined));
  });
  return { result, cancel: () => void worker.terminate() };
}
