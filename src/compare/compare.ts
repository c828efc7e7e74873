import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { GroveError, printable } from '../core/errors.js';
import { VERSION } from '../core/version.js';
import { idLikeColumns } from '../data/describe.js';
import { forestSettings, isForestOptions } from '../ensemble/settings.js';
import { type Analysis, analyze } from '../eval/analysis.js';
import { type Config, checkLabels, optionsJson } from '../eval/configs.js';
import { gapsToCsv } from '../eval/gap-table.js';
import { isOptimalConfig, optimalGaps } from '../eval/optimal-gap.js';
import {
  type CompareResults,
  type CompareSettings,
  type DatasetInfo,
  type ExplanationRecord,
  type FoldRecord,
  type ModelRecord,
  RESULTS_FORMAT,
  RESULTS_VERSION,
  resultsToCsv,
} from '../eval/results.js';
import { writeFileAtomic } from '../io/atomic.js';
import { resolveOptimalOptions } from '../optimal/fit-optimal.js';
import { DEFAULTS, type FitOptions, resolveOptions } from '../options/options.js';
import { buildReport } from '../report/index.js';
import { describeDataset, nonEmptyFolds } from './datasets.js';
import { OutLock } from './lock.js';
import { CellRunner, TaskError } from './pool.js';
import { Progress } from './progress.js';
import { CELLS_FILE, type CellLine, CellLog, cellLineKey, lineKey, readCells } from './store.js';
import { type CellRecord, type CompareReadOptions, EXPLAIN_FOLD, MODEL_FOLD, type Task, taskFolds } from './task.js';

export interface CompareRun {
  files: string[];
  configs: Config[];
  folds: number;
  repeats: number;
  seed: number;
  /** Worker threads; 1 = run in this thread. */
  jobs: number;
  /** Output folder: cells.jsonl as cells finish, then results.json, results.csv, report.html. */
  out?: string;
  /** Reuse the finished cells logged in `out`. */
  resume?: boolean;
  /**
   * Fit and save one model per (data set, configuration) on all rows (for the report's tree view),
   * and explain it (the report's pictures; a forest too).
   */
  models?: boolean;
  /** Also write results.json here. */
  json?: string;
  /** Progress on stderr (default true). */
  progress?: boolean;
  /** Warnings go here (default: stderr). */
  warn?: (message: string) => void;
  /** How every data set is read: its target, the columns to leave out, the delimiter. */
  read?: CompareReadOptions;
  /** Files skipped with a warning when they cannot be read (those found in a folder); others stop the run. */
  skippable?: ReadonlySet<string>;
}

export interface CompareOutcome {
  results: CompareResults;
  analysis: Analysis;
  /** True when Ctrl-C (SIGINT/SIGTERM) stopped the run; the finished cells are in `results`. */
  interrupted: boolean;
  /** The signal that stopped the run, when one did. */
  signal?: 'SIGINT' | 'SIGTERM';
  /** Cells run now / taken from a previous run (--resume). */
  ran: number;
  reused: number;
}

/** Fit's own validation of every configuration, before any work starts (one line naming the configuration). */
export function validateConfigs(configs: readonly Config[], warn: (m: string) => void): void {
  checkLabels(configs);
  const known = new Set([...Object.keys(DEFAULTS), 'algorithm', 'sampleWeight']);
  for (const c of configs) {
    try {
      const context = c.keys ? { names: c.keys } : {};
      if (isForestOptions(c.options)) forestSettings(c.options, context);
      else if (isOptimalConfig(c.options)) resolveOptimalOptions(c.options, context);
      else resolveOptions(c.options, context);
    } catch (err) {
      if (err instanceof GroveError) throw new GroveError(`configuration '${c.label}': ${err.message}`);
      throw err;
    }
    for (const key of Object.keys(c.options)) {
      if (!known.has(key))
        warn(
          `configuration '${c.label}': option '${c.keys?.get(key) ?? key}' is not a tree option this grove knows; ` +
            'it is passed to fit as given',
        );
    }
  }
}

/**
 * What `compare --out dir` writes in `dir` at the end (cells.jsonl is written as cells finish);
 * gaps.csv only when a configuration is an optimal tree.
 */
const RESULT_FILES = ['results.json', 'results.csv', 'report.html', 'gaps.csv'];

/** Estimated cost of fitting on `rows` rows of a data set: rows × features × log rows. */
const costOf = (rows: number, info: DatasetInfo) => rows * Math.max(1, info.features) * Math.log2(rows + 2);

/** Trees a configuration grows (a forest's `trees`, 100 by default), for the cost estimate. */
const treesOf = (options: FitOptions): number =>
  isForestOptions(options) ? (typeof options.trees === 'number' && options.trees > 0 ? options.trees : 100) : 1;

export async function runComparison(run: CompareRun): Promise<CompareOutcome> {
  const warn = run.warn ?? ((m: string) => process.stderr.write(`grove: warning: ${printable(m)}\n`));
  validateConfigs(run.configs, warn);
  if (run.resume && !run.out) throw new GroveError('--resume needs --out (the folder of the run to continue)');
  const settings: CompareSettings = {
    folds: run.folds,
    repeats: run.repeats,
    seed: run.seed,
    models: run.models ?? true,
  };

  // Plan: read each data set once here (checks every file before any work, and sizes the folds).
  const datasets: DatasetInfo[] = [];
  const tasks: Task[] = [];
  const read = run.read ?? {};
  for (const file of run.files) {
    const described = await describeOrSkip(file, run, read, warn);
    if (!described) continue;
    const { info, data } = described;
    if (data.classes.length < 2) warn(`${info.name} has a single class; every tree is one leaf`);
    for (const { name, reason } of idLikeColumns(data))
      warn(`${info.name}: column '${name}' looks like a row identifier (${reason}); --drop ${name} leaves it out`);
    datasets.push(info);
    const folds = nonEmptyFolds(data, run.folds, run.repeats, run.seed);
    for (const config of run.configs) {
      // A fold's cell, or the model trained on every row (MODEL_FOLD, EXPLAIN_FOLD).
      const task = (repeat: number, fold: number, trainRows: number): Task => ({
        id: tasks.length,
        file,
        dataset: info.name,
        config: config.label,
        options: config.options,
        repeat,
        fold,
        folds: run.folds,
        seed: run.seed,
        read,
        cost: costOf(trainRows, info) * treesOf(config.options),
      });
      for (const f of folds) tasks.push(task(f.repeat, f.fold, f.trainRows));
      // The report's tree view shows one tree: a forest configuration has no model record.
      // A tree's one fit on all rows serves both; a forest is only explained.
      if (settings.models && !isForestOptions(config.options))
        tasks.push({ ...task(0, MODEL_FOLD, info.rows), explain: true });
      if (settings.models && isForestOptions(config.options)) tasks.push(task(0, EXPLAIN_FOLD, info.rows));
    }
  }

  if (datasets.length === 0) throw new GroveError('no data set could be read');
  // From here on the output folder is ours alone until the run ends, however it ends.
  const lock = run.out ? OutLock.take(run.out, warn) : undefined;
  try {
    return await runPlanned(run, settings, datasets, tasks, warn);
  } finally {
    lock?.release();
  }
}

/** The data set's description and rows, or undefined (with a warning) when a skippable file cannot be read. */
async function describeOrSkip(
  file: string,
  run: CompareRun,
  read: CompareReadOptions,
  warn: (message: string) => void,
): Promise<Awaited<ReturnType<typeof describeDataset>> | undefined> {
  try {
    return await describeDataset(file, run.folds, run.repeats, run.seed, warn, read);
  } catch (err) {
    if (!(err instanceof GroveError) || !run.skippable?.has(file)) throw err;
    const why = err.message.startsWith(file) ? err.message : `${file}: ${err.message}`;
    warn(`skipped a data file that cannot be read: ${why}`);
    return undefined;
  }
}

/** The files `compare --out dir` writes in `dir`. */
export function outputFiles(dir: string): string[] {
  return [CELLS_FILE, ...RESULT_FILES].map((f) => join(dir, f));
}

async function runPlanned(
  run: CompareRun,
  settings: CompareSettings,
  datasets: DatasetInfo[],
  tasks: Task[],
  warn: (message: string) => void,
): Promise<CompareOutcome> {
  const optionsOf = new Map(run.configs.map((c) => [c.label, optionsJson(c.options)]));
  const taskKeys = (t: Task) =>
    taskFolds(t).map((fold) => lineKey(t.dataset, t.config, optionsOf.get(t.config)!, t.repeat, fold));
  const kept = keptCells(run, settings, datasets, new Set(tasks.flatMap(taskKeys)), warn);
  const keptKeys = new Set(kept.map(cellLineKey));
  const todo = tasks.filter((t) => taskKeys(t).some((key) => !keptKeys.has(key)));
  const folds: FoldRecord[] = [];
  const models: ModelRecord[] = [];
  const explanations: ExplanationRecord[] = [];
  const keep = (r: CellRecord) => {
    if ('fold' in r) folds.push(r.fold);
    else if ('model' in r) models.push(r.model);
    else explanations.push(r.explanation);
  };
  for (const line of kept) keep(line);
  const log = run.out ? new CellLog(run.out, settings, datasets, kept) : undefined;
  const progress =
    run.progress === false
      ? undefined
      : new Progress(
          todo.length,
          todo.reduce((s, t) => s + t.cost, 0),
        );
  const runner = new CellRunner(Math.max(1, run.jobs));
  let interrupted = false;
  let signal: CompareOutcome['signal'];
  const onSignal = (received: NodeJS.Signals) => {
    if (interrupted) process.exit(received === 'SIGTERM' ? 143 : 130); // a second Ctrl-C: stop at once
    interrupted = true;
    signal = received === 'SIGTERM' ? 'SIGTERM' : 'SIGINT';
    runner.stop();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let ran = 0;
  try {
    await runner.run(todo, (r, task) => {
      if (r.records.length === 0) return;
      const options = optionsOf.get(task.config)!;
      // A model kept from an earlier run is not logged again when its explanation is made anew.
      for (const record of r.records) {
        if (keptKeys.has(cellLineKey({ options, ...record } as CellLine))) continue;
        keep(record);
        log?.append(task.options, record);
        ran++;
      }
      progress?.tick(task.cost, `${task.dataset} × ${task.config}`);
    });
  } catch (err) {
    progress?.stop();
    if (err instanceof TaskError) {
      const kept = run.out ? ` (finished cells are kept in ${join(run.out, 'cells.jsonl')}; --resume continues)` : '';
      const message = `${err.message}${kept}`;
      if (err.grove) throw new GroveError(message);
      throw new Error(message);
    }
    throw err;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    log?.close();
  }
  progress?.stop();

  const results = resultsOf(run, settings, datasets, { folds, models, explanations }, !interrupted);
  const analysis = analyze(results);
  writeOutputs(results, analysis, run.out, run.json);
  return { results, analysis, interrupted, signal, ran, reused: kept.length };
}

/** On --resume, the logged cells that belong to this plan (`planned` keys), each once. */
function keptCells(
  run: CompareRun,
  settings: CompareSettings,
  datasets: DatasetInfo[],
  planned: Set<string>,
  warn: (message: string) => void,
): CellLine[] {
  const kept: CellLine[] = [];
  if (run.resume) {
    const seen = new Set<string>();
    for (const line of readCells(run.out!, settings, datasets)) {
      const key = cellLineKey(line);
      if (planned.has(key) && !seen.has(key)) {
        seen.add(key);
        kept.push(line);
      }
    }
  } else if (run.out && existsSync(join(run.out, 'cells.jsonl'))) {
    warn(`${run.out} holds an earlier run; starting afresh (add --resume to continue it)`);
  }
  return kept;
}

function resultsOf(
  run: CompareRun,
  settings: CompareSettings,
  datasets: DatasetInfo[],
  records: Pick<CompareResults, 'folds' | 'models' | 'explanations'>,
  complete: boolean,
): CompareResults {
  return {
    format: RESULTS_FORMAT,
    version: RESULTS_VERSION,
    grove: VERSION,
    runtime: `${process.version} ${process.platform} ${process.arch}`,
    created: new Date().toISOString(),
    complete,
    settings,
    datasets,
    configs: run.configs.map((c) => ({
      label: c.label,
      options: JSON.parse(optionsJson(c.options)) as Record<string, unknown>,
    })),
    ...records,
  };
}

/**
 * results.json with the derived summary and statistics added (a reader recomputes them; they are
 * there for convenience).
 */
export function resultsJson(results: CompareResults, analysis: Analysis): string {
  const { cells, accuracy, leaves } = analysis;
  const gaps = hasOptimal(results) ? { gaps: optimalGaps(results) } : {};
  return `${JSON.stringify({ ...results, summary: cells, statistics: { accuracy, leaves }, ...gaps })}\n`;
}

const hasOptimal = (results: CompareResults) => results.configs.some((c) => isOptimalConfig(c.options));

export function writeOutputs(results: CompareResults, analysis: Analysis, out?: string, json?: string): void {
  if (out) {
    mkdirSync(out, { recursive: true });
    const [resultsFile, csvFile, reportFile, gapsFile] = RESULT_FILES.map((f) => join(out, f));
    writeFileAtomic(resultsFile, resultsJson(results, analysis));
    writeFileAtomic(csvFile, resultsToCsv(results));
    writeFileAtomic(reportFile, buildReport(results, analysis));
    // A gaps.csv of an earlier run in this folder would not belong to these results.
    if (hasOptimal(results)) writeFileAtomic(gapsFile, gapsToCsv(optimalGaps(results)));
    else rmSync(gapsFile, { force: true });
  }
  if (json) writeFileAtomic(json, resultsJson(results, analysis));
}
