/** Worker thread entry: runs tasks posted by the pool (src/compare/pool.ts) one at a time. */
import { parentPort } from 'node:worker_threads';
import { GroveError } from '../core/errors.js';
import { runTask, type Task, TaskCache } from './task.js';

const cache = new TaskCache();
// The pool posts a worker its next task only after this one's answer, so tasks never overlap.
parentPort!.on('message', async (task: Task) => {
  try {
    parentPort!.postMessage({ ok: true, result: await runTask(task, cache) });
  } catch (err) {
    parentPort!.postMessage({
      ok: false,
      id: task.id,
      message: (err as Error)?.message ?? String(err),
      grove: err instanceof GroveError,
    });
  }
});
