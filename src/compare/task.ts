import { stratifiedFolds } from '../core/folds.js';
import type { Dataset } from '../data/dataset.js';
import { evaluateFold, fitAll, repeatSeed } from '../eval/cross-validate.js';
import type { ExplanationRecord, FoldRecord, ModelRecord } from '../eval/results.js';
import type { FitOptions } from '../options/options.js';
import { readSource, type SourceReadOptions } from '../sources/index.js';
import { explainCell } from './explain-cell.js';

/** How every data set of a comparison is read (plain data: it travels to the workers). */
export type CompareReadOptions = Pick<SourceReadOptions, 'target' | 'drop' | 'features' | 'delimiter'>;

/** The `fold` of a task that fits the model on all rows and saves it (a tree; the report's tree view). */
export const MODEL_FOLD = -1;
/** The `fold` of a task that fits the model on all rows and explains it (the report's pictures). */
export const EXPLAIN_FOLD = -2;

/**
 * One unit of work: a fold of one configuration on one data set, or the model on all rows
 * (`MODEL_FOLD`, `EXPLAIN_FOLD`).
 */
export interface Task {
  id: number;
  file: string;
  dataset: string;
  config: string;
  options: FitOptions;
  repeat: number;
  fold: number;
  folds: number;
  seed: number;
  /** How the data set is read. */
  read: CompareReadOptions;
  /** Relative cost estimate, for the progress bar's time left. */
  cost: number;
}

export type TaskResult =
  | { id: number; fold: FoldRecord }
  | { id: number; model: ModelRecord }
  | { id: number; explanation: ExplanationRecord }
  | { id: number; empty: true };

/** Data sets and fold assignments a worker has already built (each worker keeps its own). */
export class TaskCache {
  private readonly data = new Map<string, Dataset>();
  private readonly assignments = new Map<string, Int32Array>();

  async dataset(file: string, read: CompareReadOptions): Promise<Dataset> {
    let d = this.data.get(file);
    // The main thread read it first and gave its warnings (a skipped column) once.
    if (!d) this.data.set(file, (d = await readSource(file, { ...read, onWarning: () => {} })));
    return d;
  }

  assignment(data: Dataset, file: string, folds: number, seed: number): Int32Array {
    const key = `${file}\u0000${folds}\u0000${seed}`;
    let a = this.assignments.get(key);
    if (!a) this.assignments.set(key, (a = stratifiedFolds(data.labels, data.classes.length, folds, seed)));
    return a;
  }
}

export async function runTask(task: Task, cache: TaskCache): Promise<TaskResult> {
  const data = await cache.dataset(task.file, task.read);
  if (task.fold === EXPLAIN_FOLD) {
    const explanation = explainCell(data, task.options, task.seed, { dataset: task.dataset, config: task.config });
    return explanation ? { id: task.id, explanation } : { id: task.id, empty: true };
  }
  if (task.fold === MODEL_FOLD) {
    const { tree, fitMs } = fitAll(data, task.options);
    const s = tree.stats();
    return {
      id: task.id,
      model: {
        dataset: task.dataset,
        config: task.config,
        fitMs,
        nodes: s.nodes,
        leaves: s.leaves,
        height: s.height,
        needlessFeatures: s.needlessFeatures,
        model: tree.toJSON(),
      },
    };
  }
  const assignment = cache.assignment(data, task.file, task.folds, repeatSeed(task.seed, task.repeat));
  const r = evaluateFold(data, task.options, assignment, task.fold);
  return r
    ? { id: task.id, fold: { dataset: task.dataset, config: task.config, repeat: task.repeat, ...r } }
    : { id: task.id, empty: true };
}
