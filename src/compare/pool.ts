import { Worker } from 'node:worker_threads';
import { GroveError } from '../core/errors.js';
import { EXPLAIN_FOLD, runTask, type Task, TaskCache, type TaskResult } from './task.js';

type Reply = { ok: true; result: TaskResult } | { ok: false; id: number; message: string; grove: boolean };

/** A task that failed: which cell, and why. */
export class TaskError extends Error {
  constructor(
    readonly task: Task,
    message: string,
    readonly grove: boolean,
  ) {
    const repeat = task.repeat ? ` of repeat ${task.repeat}` : '';
    const cell =
      task.fold >= 0
        ? `, fold ${task.fold}${repeat}`
        : task.fold === EXPLAIN_FOLD
          ? ', explanations of the model on all rows'
          : ', model on all rows';
    super(`${task.dataset}, ${task.config}${cell}: ${message}`);
  }
}

/**
 * Runs tasks on `jobs` worker threads (or in this thread when jobs = 1), calling `onResult` as
 * each finishes, in completion order. `stop()` ends the run early: workers are terminated and
 * the cells they were running are dropped; every result already delivered stays delivered.
 */
export class CellRunner {
  private workers: Worker[] = [];
  private stopped = false;
  private finish?: (how: 'done' | 'stopped') => void;

  constructor(private readonly jobs: number) {}

  run(tasks: readonly Task[], onResult: (r: TaskResult, task: Task) => void): Promise<'done' | 'stopped'> {
    return this.jobs <= 1 || tasks.length <= 1 ? this.runHere(tasks, onResult) : this.runOnWorkers(tasks, onResult);
  }

  stop(): void {
    this.stopped = true;
    for (const w of this.workers) void w.terminate();
    this.workers = [];
    this.finish?.('stopped');
  }

  private async runHere(
    tasks: readonly Task[],
    onResult: (r: TaskResult, task: Task) => void,
  ): Promise<'done' | 'stopped'> {
    const cache = new TaskCache();
    for (const task of tasks) {
      // Let signal handlers run between cells (Ctrl-C is noticed within one cell).
      await new Promise((resolve) => setImmediate(resolve));
      if (this.stopped) return 'stopped';
      let result: TaskResult;
      try {
        result = await runTask(task, cache);
      } catch (err) {
        throw new TaskError(task, (err as Error)?.message ?? String(err), err instanceof GroveError);
      }
      onResult(result, task);
    }
    return this.stopped ? 'stopped' : 'done';
  }

  private runOnWorkers(
    tasks: readonly Task[],
    onResult: (r: TaskResult, task: Task) => void,
  ): Promise<'done' | 'stopped'> {
    return new Promise((resolve, reject) => {
      let next = 0;
      let running = 0;
      let settled = false;
      const byId = new Map(tasks.map((t) => [t.id, t]));
      const settle = (how: 'done' | 'stopped' | Error) => {
        if (settled) return;
        settled = true;
        for (const w of this.workers) void w.terminate();
        this.workers = [];
        if (how instanceof Error) reject(how);
        else resolve(how);
      };
      this.finish = settle;
      const feed = (w: Worker) => {
        if (this.stopped || settled) return;
        if (next < tasks.length) {
          running++;
          w.postMessage(tasks[next++]);
        } else if (running === 0) settle('done');
      };
      const n = Math.min(this.jobs, tasks.length);
      for (let i = 0; i < n; i++) {
        const w = new Worker(new URL('./worker.js', import.meta.url));
        this.workers.push(w);
        w.on('message', (reply: Reply) => {
          if (settled) return; // a late reply after stop(): the run is already summed up
          running--;
          if (!reply.ok) {
            settle(new TaskError(byId.get(reply.id)!, reply.message, reply.grove));
            return;
          }
          try {
            onResult(reply.result, byId.get(reply.result.id)!);
          } catch (err) {
            settle(err as Error);
            return;
          }
          feed(w);
        });
        w.on('error', (err) => settle(err));
        w.on('exit', (code) => {
          if (!settled && !this.stopped && code !== 0) settle(new Error(`a worker thread exited with code ${code}`));
        });
      }
      this.workers.forEach(feed);
    });
  }
}
