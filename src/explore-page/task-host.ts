/**
 * The helper worker's side of a tree grown on two workers (grow-in-two.ts): the layouts it was
 * sent, by tree, each with a grower over it, and the tasks grown over them.
 */
import { CmbsvGrower } from '../algorithms/cmbsv/grow.js';
import { plainArrays } from '../core/arrays.js';
import type { Dataset } from '../data/dataset.js';
import { HistGrower } from '../learn/grow-hist.js';
import type { HistLayout } from '../learn/hist-layout.js';
import { type ExactLayout, growTask, nodeOf, taskGrower } from '../learn/tasks.js';
import type { StoreData, TreeStore } from '../model/store.js';
import { resolveOptions } from '../options/options.js';
import type { FitOptions } from '../options/types.js';
import { newSlice } from '../split/sorted-slice.js';
import type { HelperJob, HelperLayout, TaskJob } from './grow-in-two.js';

type GrowTask = (task: TaskJob) => TreeStore;

/**
 * The layouts sent by one grower (with the columns of `data`, the same rows as the grower's). A
 * layout that could not be taken is kept as its error, thrown when that tree's tasks arrive.
 */
export class TaskHost {
  /** Per tree: how to grow one of its tasks, or why its layout could not be taken. */
  private readonly trees = new Map<number, GrowTask | { error: unknown }>();

  constructor(private readonly data: () => Dataset) {}

  /** Take a layout, grow a task over one (its subtree), or forget one. */
  take(job: HelperJob): StoreData | undefined {
    if (job.kind === 'drop') this.trees.delete(job.tree);
    else if (job.kind === 'layout') {
      try {
        this.trees.set(job.tree, this.grower(job.options, job.layout));
      } catch (error) {
        this.trees.set(job.tree, { error });
      }
    } else {
      const grow = this.trees.get(job.tree);
      if (!grow) throw new Error(`a task of tree ${job.tree}, whose layout is not here`);
      if (typeof grow !== 'function') throw grow.error;
      return grow(job.task).data();
    }
    return undefined;
  }

  private grower(options: FitOptions, sent: HelperLayout): GrowTask {
    const d = this.data();
    const opts = resolveOptions(options);
    const k = d.classes.length;
    const n = d.nRows;
    if (sent.mode === 'cmbsv') {
      const grower = new CmbsvGrower(d, opts, sent.weights);
      return (task) => {
        if (!('rows' in task)) throw new Error('an exact-mode task for a C-MBSV tree');
        grower.rows.set(task.rows, task.start);
        return grower.growSubtree(nodeOf(task));
      };
    }
    if (sent.mode === 'hist') {
      const layout: HistLayout = {
        codes: sent.codes,
        binned: sent.binned,
        rows: new Int32Array(n),
        branchOf: new Int32Array(n),
      };
      const grower = new HistGrower(d.features, layout, d.labels, sent.weights, k, opts);
      return (task) => {
        if (!('rows' in task)) throw new Error('an exact-mode task for a histogram-mode tree');
        layout.rows.set(task.rows, task.start);
        return grower.growSubtree({ ...nodeOf(task), hist: task.hist });
      };
    }
    const layout: ExactLayout = {
      pool: sent.pool,
      ids: new Int32Array(n),
      sorted: sent.numeric.map((numeric) => (numeric ? newSlice(plainArrays, n, k) : null)),
      branchOf: new Int32Array(n),
    };
    const grower = taskGrower(d.features, k, opts, layout);
    return (task) => {
      if (!('ids' in task)) throw new Error('a histogram-mode task for an exact-mode tree');
      layout.ids.set(task.ids, task.start);
      task.sorted.forEach((sl, f) => {
        const into = layout.sorted[f];
        if (!sl || !into) return;
        into.order.set(sl.order, task.start);
        into.labs.set(sl.labs, task.start);
      });
      return growTask(grower, layout, task);
    };
  }
}
