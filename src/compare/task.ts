import { stratifiedFolds } from '../core/folds.js';
import type { Dataset } from '../data/dataset.js';
import { evaluateFold, fitAll, fitModel, repeatSeed } from '../eval/cross-validate.js';
import type { ExplanationRecord, FoldRecord, ModelRecord } from '../eval/results.js';
import type { FitOptions } from '../options/options.js';
import { readSource, type SourceReadOptions } from '../sources/index.js';
import { explainCell } from './explain-cell.js';

/** How every data set of a comparison is read (plain data: it travels to the workers). */
export type CompareReadOptions = Pick<SourceReadOptions, 'target' | 'drop' | 'features' | 'delimiter'>;

/**
 * The `fold` of a task that fits the model on all rows and saves it (a tree; the report's tree view),
 * and explains that same model when the task says `explain`.
 */
export const MODEL_FOLD = -1;
/** The `fold` of a task that fits the model on all rows and explains it (a forest: it has no model record). */
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
  /** A `MODEL_FOLD` task also explains its model (one fit serves the tree view and the pictures). */
  explain?: boolean;
}

/** A finished cell's record: a fold, a model or an explanation. */
export type CellRecord = { fold: FoldRecord } | { model: ModelRecord } | { explanation: ExplanationRecord };

/**
 * What a task produced: none (an empty fold, a forest voting by majority), one record, or a model
 * and its explanation.
 */
export interface TaskResult {
  id: number;
  records: CellRecord[];
}

/** The cells (folds) a task fills. */
export const taskFolds = (t: Task): number[] =>
  t.fold === MODEL_FOLD && t.explain ? [MODEL_FOLD, EXPLAIN_FOLD] : [t.fold];

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
  const names = { dataset: task.dataset, config: task.config };
  if (task.fold === EXPLAIN_FOLD) {
    const t0 = performance.now();
    const explanation = explainCell(data, fitModel(data, task.options), task.seed, names, t0);
    return { id: task.id, records: explanation ? [{ explanation }] : [] };
  }
  if (task.fold === MODEL_FOLD) {
    const t0 = performance.now();
    const { tree, fitMs } = fitAll(data, task.options);
    const s = tree.stats();
    const model: ModelRecord = {
      ...names,
      fitMs,
      nodes: s.nodes,
      leaves: s.leaves,
      height: s.height,
      needlessFeatures: s.needlessFeatures,
      model: tree.toJSON(),
    };
    const explanation = task.explain ? explainCell(data, tree, task.seed, names, t0) : undefined;
    return { id: task.id, records: explanation ? [{ model }, { explanation }] : [{ model }] };
  }
  const assignment = cache.assignment(data, task.file, task.folds, repeatSeed(task.seed, task.repeat));
  const r = evaluateFold(data, task.options, assignment, task.fold);
  return { id: task.id, records: r ? [{ fold: { ...names, repeat: task.repeat, ...r } }] : [] };
}
