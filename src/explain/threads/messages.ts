/** Messages between the parallel explainer and its workers (parallel-shap.ts, shap-worker.ts). */
import type { AlignedColumn } from '../../model/align.js';
import type { ModelFile } from '../../model/schema.js';

/** The model's trees as model-file parts, with their weights in the model's average. */
export type ShapTrees = { models: Omit<ModelFile, 'format' | 'version'>[]; weights: number[] };

/** What a worker is asked: take the trees and rows, explain rows [from, to), or drop the job (unanswered). */
export type ShapRequest =
  | { op: 'init'; trees: ShapTrees; columns: AlignedColumn[]; nRows: number; nFeatures: number; nClasses: number }
  | { op: 'rows'; from: number; to: number }
  | { op: 'release' };

/** What a worker answers: ready, the contributions of rows [from, to), or its error message. */
export type ShapReply =
  | { op: 'ready' }
  | { op: 'rows'; from: number; to: number; values: Float64Array }
  | { op: 'error'; error: string };
