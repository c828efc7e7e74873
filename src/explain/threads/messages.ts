/** Messages between the parallel explainer and its workers (parallel-shap.ts, shap-worker.ts). */
import type { AlignedColumn } from '../../model/align.js';
import type { ModelFile } from '../../model/schema.js';

/** The model's trees as model-file parts, with their weights in the model's average. */
export type ShapTrees = { models: Omit<ModelFile, 'format' | 'version'>[]; weights: number[] };

/** What a worker is asked: take the trees and rows or drop the job (both unanswered), or explain rows [from, to). */
export type ShapRequest =
  | { op: 'init'; trees: ShapTrees; columns: AlignedColumn[]; nRows: number; nFeatures: number; nClasses: number }
  | { op: 'rows'; from: number; to: number }
  | { op: 'release' };

/** What a worker answers: the contributions of rows [from, to), or its error message. */
export type ShapReply = { op: 'rows'; from: number; to: number; values: Float64Array } | { op: 'error'; error: string };
