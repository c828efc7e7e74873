import { csvField } from '../data/csv-write.js';
import type { ModelFile } from '../model/schema.js';
import { type FoldResult, type Summary, summarize } from './cross-validate.js';
import type { ExplanationRecord } from './explanations.js';

export type { ExplanationRecord } from './explanations.js';

/** Format name and version of a results file (results.json). */
export const RESULTS_FORMAT = 'grove-compare';
export const RESULTS_VERSION = 1;

/** A data set as the comparison saw it. */
export interface DatasetInfo {
  name: string;
  file: string;
  rows: number;
  features: number;
  numeric: number;
  categorical: number;
  classes: number;
  /** Fold evaluations per configuration: non-empty folds × repeats. */
  foldsPlanned: number;
  /** The class labels as text, in the order of the folds' confusion matrices. */
  classLabels?: string[];
  /**
   * SHA-256 (hex) of the data set's content (its columns, dictionaries and labels as read, not its
   * file's bytes), so a resumed run never mixes different data under one name, and the same data
   * moved or converted (CSV → Parquet) is still the same data set. Results files of earlier
   * versions held the file's checksum here.
   */
  sha256?: string;
}

/** A configuration as saved: its label and the options passed to fit (±Infinity written as strings). */
export interface ConfigInfo {
  label: string;
  options: Record<string, unknown>;
}

/** One fold of one configuration on one data set. */
export interface FoldRecord extends FoldResult {
  dataset: string;
  config: string;
  repeat: number;
}

/** The tree grown on all rows of a data set by one configuration (what the report's tree view shows). */
export interface ModelRecord {
  dataset: string;
  config: string;
  fitMs: number;
  nodes: number;
  leaves: number;
  height: number;
  needlessFeatures: string[];
  model: ModelFile;
}

export interface CompareSettings {
  folds: number;
  repeats: number;
  seed: number;
  /** Whether models fitted on all rows were saved. */
  models: boolean;
}

/** Everything a comparison produced: settings, data sets, configurations, every fold, the models. */
export interface CompareResults {
  format: typeof RESULTS_FORMAT;
  version: typeof RESULTS_VERSION;
  grove: string;
  /** Node.js version and platform that ran it, e.g. `v20.20.2 linux x64`. */
  runtime?: string;
  created: string;
  /** False when the run was interrupted before every cell finished (`--resume` continues it). */
  complete: boolean;
  settings: CompareSettings;
  datasets: DatasetInfo[];
  configs: ConfigInfo[];
  folds: FoldRecord[];
  models: ModelRecord[];
  /**
   * Per (data set, configuration), what the report's explanation pictures show; absent from files
   * written before they were recorded, and with `--no-models` (the report then omits the pictures).
   */
  explanations?: ExplanationRecord[];
}

/** Per (data set, configuration): means and standard deviations over its folds (all repeats pooled). */
export interface CellSummary {
  dataset: string;
  config: string;
  /** Folds finished / planned. */
  done: number;
  planned: number;
  complete: boolean;
  testAccuracy: Summary;
  testError: Summary;
  trainError: Summary;
  nodes: Summary;
  leaves: Summary;
  height: Summary;
  needlessFeatures: Summary;
  fitMs: Summary;
  predictMs: Summary;
}

export function cellKey(dataset: string, config: string): string {
  return `${dataset}\u0000${config}`;
}

/** Summaries of every (data set, configuration) pair, in data set then configuration order. */
export function summarizeCells(results: CompareResults): CellSummary[] {
  const byCell = new Map<string, FoldRecord[]>();
  for (const f of results.folds) {
    const key = cellKey(f.dataset, f.config);
    const list = byCell.get(key);
    if (list) list.push(f);
    else byCell.set(key, [f]);
  }
  const out: CellSummary[] = [];
  for (const d of results.datasets) {
    for (const c of results.configs) {
      const folds = byCell.get(cellKey(d.name, c.label)) ?? [];
      const s = (get: (f: FoldRecord) => number) => summarize(folds.map(get));
      out.push({
        dataset: d.name,
        config: c.label,
        done: folds.length,
        planned: d.foldsPlanned,
        complete: folds.length >= d.foldsPlanned && d.foldsPlanned > 0,
        testAccuracy: s((f) => f.testAccuracy),
        testError: s((f) => 1 - f.testAccuracy),
        trainError: s((f) => 1 - f.trainAccuracy),
        nodes: s((f) => f.nodes),
        leaves: s((f) => f.leaves),
        height: s((f) => f.height),
        needlessFeatures: s((f) => f.needlessFeatures),
        fitMs: s((f) => f.fitMs),
        predictMs: s((f) => f.predictMs),
      });
    }
  }
  return out;
}

/** The cell statistics the per-configuration averages of the reports cover. */
export type AveragedStatistic =
  | 'testAccuracy'
  | 'testError'
  | 'trainError'
  | 'nodes'
  | 'leaves'
  | 'height'
  | 'needlessFeatures'
  | 'fitMs'
  | 'predictMs';

const AVERAGED_STATISTICS: readonly AveragedStatistic[] = [
  'testAccuracy',
  'testError',
  'trainError',
  'nodes',
  'leaves',
  'height',
  'needlessFeatures',
  'fitMs',
  'predictMs',
];

/** One configuration's mean over `datasets` of each cell's mean (of accuracy, error, tree shape, time). */
export function configAverages(
  cells: readonly CellSummary[],
  config: string,
  datasets: ReadonlySet<string>,
): Record<AveragedStatistic, number> {
  const mine = cells.filter((c) => c.config === config && datasets.has(c.dataset));
  const out = {} as Record<AveragedStatistic, number>;
  for (const s of AVERAGED_STATISTICS) out[s] = summarize(mine.map((c) => c[s].mean)).mean;
  return out;
}

/** Data sets on which every configuration finished all its folds (the ones statistics may use). */
export function completeDatasets(results: CompareResults, cells: CellSummary[] = summarizeCells(results)): string[] {
  return results.datasets
    .map((d) => d.name)
    .filter((name) => cells.filter((c) => c.dataset === name).every((c) => c.complete));
}

const round = (x: number, digits: number) => Number(x.toFixed(digits));

/** results.csv: one row per data set × configuration × repeat × fold. */
export function resultsToCsv(results: CompareResults): string {
  const header = [
    'dataset',
    'config',
    'repeat',
    'fold',
    'train_rows',
    'test_rows',
    'test_accuracy',
    'test_error',
    'train_error',
    'nodes',
    'leaves',
    'height',
    'needless_features',
    'fit_ms',
    'predict_ms',
  ];
  const order = new Map(results.datasets.map((d, i) => [d.name, i]));
  const corder = new Map(results.configs.map((c, i) => [c.label, i]));
  const rows = results.folds
    .slice()
    .sort(
      (a, b) =>
        (order.get(a.dataset) ?? 0) - (order.get(b.dataset) ?? 0) ||
        (corder.get(a.config) ?? 0) - (corder.get(b.config) ?? 0) ||
        a.repeat - b.repeat ||
        a.fold - b.fold,
    )
    .map((f) =>
      [
        f.dataset,
        f.config,
        f.repeat,
        f.fold,
        f.trainRows,
        f.testRows,
        f.testAccuracy,
        round(1 - f.testAccuracy, 15),
        round(1 - f.trainAccuracy, 15),
        f.nodes,
        f.leaves,
        f.height,
        f.needlessFeatures,
        round(f.fitMs, 3),
        round(f.predictMs, 3),
      ]
        .map(csvField)
        .join(','),
    );
  return `${[header.join(','), ...rows].join('\n')}\n`;
}
