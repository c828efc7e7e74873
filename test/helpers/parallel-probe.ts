/**
 * Run fits with a probe injected into the worker-thread grower: `fit` reaches it through the
 * grower the Node entry installs, so a test swaps in one that passes `probe` and puts the plain
 * one back afterwards. Runs against dist/ (the workers load compiled modules).
 */
import '../../dist/node.js';
import { setParallelGrow } from '../../dist/learn/grow.js';
import { growParallel, type ParallelProbe } from '../../dist/learn/threads/parallel-grow.js';

/** What a probe saw during `run`. */
export interface Probed<T> {
  result: T;
  /** Subtree tasks of the last parallel grow (0: none ran). */
  tasks: number;
  /** The memory plan of the last histogram-mode grow that asked for threads. */
  plan?: { bin: number; grow: number };
}

/** Run `run` with `inject` (a memory budget, fault injection) passed to every parallel grow. */
export function probed<T>(run: () => T, inject: Pick<ParallelProbe, 'budget' | 'exitOn'> = {}): Probed<T> {
  const seen: Omit<Probed<T>, 'result'> = { tasks: 0 };
  const probe: ParallelProbe = {
    ...inject,
    onTasks: (count) => {
      seen.tasks = count;
    },
    onPlan: (plan) => {
      seen.plan = plan;
    },
  };
  setParallelGrow((data, opts, weights, threads, meter) => {
    seen.tasks = 0;
    return growParallel(data, opts, weights, threads, meter, probe);
  });
  try {
    return { result: run(), ...seen };
  } finally {
    setParallelGrow(growParallel);
  }
}
