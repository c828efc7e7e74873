import type { Command } from 'commander';
import '../../learn/threads/parallel-grow.js'; // worker threads for --threads
import '../../ensemble/threads/parallel-forest.js'; // a forest's trees on worker threads
import '../../optimal/threads/parallel-search.js'; // an optimal tree's root features on worker threads
import { GroveError } from '../../core/errors.js';
import type { Dataset } from '../../data/dataset.js';
import type { Forest } from '../../ensemble/forest.js';
import { isForestOptions } from '../../ensemble/settings.js';
import { forestSummary } from '../../ensemble/summary.js';
import { treeToText } from '../../export/text.js';
import { saveModel } from '../../io/model-file.js';
import { refuseOutputOverInput } from '../../io/same-file.js';
import type { DecisionTree } from '../../model/decision-tree.js';
import { describeOptimality } from '../../model/optimality.js';
import { type FitOptions, type OptionGroup, PRESETS, resolveOptions } from '../../options/options.js';
import { formatsHelp } from '../../sources/formats.js';
import { openRows, openSource } from '../../sources/index.js';
import { fitForestShown, fitSearched, fitShown } from '../fit-progress.js';
import { modelReadOptions } from '../model-columns.js';
import { addOptionFlags, optionsFromFlags } from '../option-flags.js';
import { emit, note, warn } from '../output.js';
import {
  addColumnFlags,
  addSourceFlags,
  type ColumnFlags,
  columnReadOptions,
  FLOAT32_HELP,
  readOptionsFromFlags,
  type SourceFlags,
} from '../read-flags.js';
import { readLabelled } from '../read-labelled.js';
import { readData } from '../read-progress.js';
import { type EngineFlags, engineOption, fitWithEngine, trainsInEngine } from './fit-engine.js';
import { fitSummary, fractionOption, holdOut } from './fit-summary.js';

/** Parse `--threads`: an integer ≥ 1 or `auto`. */
export function threadsOption(raw: string): number | 'auto' {
  if (raw.trim() === 'auto') return 'auto';
  if (!/^\s*\d+\s*$/.test(raw) || Number(raw) < 1)
    throw new GroveError(`option --threads expects an integer ≥ 1 or 'auto', got '${raw}'`);
  return Number(raw);
}

/** Help for a command's data argument: every source grove reads. */
export const DATA_HELP =
  `data file: ${formatsHelp()}; ` +
  'or a database (duckdb:PATH.duckdb, postgres://…, clickhouse://…) with --table or --query';

/** Flags of the commands that read a training file: the columns, the preset and the tree options of `groups`. */
export function addTrainingFlags(cmd: Command, groups: readonly OptionGroup[]): Command {
  addColumnFlags(cmd)
    .option(
      '--require-labels',
      'a row without a class label is an error (default: such rows are left out, with a warning)',
    )
    .option('--algorithm <name>', `preset: ${Object.keys(PRESETS).join(', ')} (default cart)`);
  return addOptionFlags(cmd, groups);
}

/** What `addTrainingFlags` parses (tree options under their flags' names). */
export interface TrainingFlags extends Record<string, unknown>, SourceFlags, ColumnFlags {
  algorithm?: string;
  requireLabels?: boolean;
}

/** The fit options given by the flags, checked with messages that name the flags. */
export function checkedFitOptions(flags: TrainingFlags): FitOptions {
  const options: FitOptions = { algorithm: flags.algorithm, ...optionsFromFlags(flags) };
  resolveOptions(options, { names: 'flags' });
  return options;
}

/** Save the forest (or print its summary when there is no --out) and write the summary line on stderr. */
function finishForest(forest: Forest, where: string, parts: { test?: Dataset; out?: string }): void {
  if (parts.out) saveModel(forest, parts.out);
  else emit(forestSummary(forest));
  const s = forest.stats();
  const oob = forest.oob ? `, out-of-bag accuracy ${forest.oob.score.toPrecision(4)}` : '';
  const test = parts.test
    ? `; held-out accuracy ${forest.score(parts.test).toPrecision(4)} on ${parts.test.nRows} rows`
    : '';
  note(
    `${forest.settings.kind} of ${s.trees} ${forest.options.algorithm} trees (${forest.options.criterion}) ${where}: ` +
      `${s.nodes} nodes, mean depth ${s.depth.mean.toPrecision(3)}${oob}${test}${parts.out ? ` → ${parts.out}` : ''}`,
  );
}

export function registerFit(program: Command): void {
  addSourceFlags(
    addTrainingFlags(
      program
        .command('fit')
        .description('grow a tree on DATA and save it as JSON, or a forest (--forest KIND) in the forest file format')
        .argument('<data>', DATA_HELP),
      ['split', 'stop', 'data', 'prune', 'cmbsv', 'optimal', 'forest'],
    ),
    'train on',
  )
    .option('--out <model>', 'where to write the model (JSON); without it the tree is printed as text')
    .option('--test <file>', "held-out rows (with the target column): their accuracy joins the fit's summary")
    .option(
      '--test-fraction <f>',
      'hold out this share of the rows (stratified, by --seed) and report their accuracy; the tree grows on the rest',
      fractionOption,
    )
    .option(
      '--threads <n>',
      "worker threads for a large fit: a number or 'auto' (the same tree; default auto)",
      threadsOption,
    )
    .option(
      '--engine <name>',
      'where to grow: memory, duckdb, postgres, clickhouse (docs/in-database.md)',
      engineOption,
    )
    .option('--weight <column>', 'a column of sample weights (in-database training)')
    .option('--float32', FLOAT32_HELP)
    .action(runFit);
}

async function runFit(dataPath: string, flags: FitFlags): Promise<void> {
  const outputs = flags.out ? [{ flag: '--out', path: flags.out }] : [];
  refuseOutputOverInput(outputs, [dataPath, ...(flags.test ? [flags.test] : [])]);
  if (flags.test !== undefined && flags.testFraction !== undefined)
    throw new GroveError('give --test or --test-fraction, not both', { code: 'E_OPTION' });
  const optimal = flags.optimal === true || flags.algorithm === 'optimal';
  if (trainsInEngine(dataPath, flags)) return fitInEngine(dataPath, flags, optimal);
  if (flags.weight !== undefined)
    throw new GroveError('--weight needs in-database training (a database source, or --engine duckdb)', {
      code: 'E_OPTION',
    });
  const options = { ...checkedFitOptions(flags), threads: flags.threads ?? 'auto' };
  // A database source with --engine memory: its rows stream into memory.
  let data: Dataset | undefined = await readLabelled(
    () => openRows(dataPath, flags, openSource),
    { ...columnReadOptions(flags), float32: flags.float32 },
    flags.progress,
    flags.requireLabels,
  );
  let split: { train: Dataset; test?: Dataset } | undefined =
    flags.testFraction !== undefined
      ? holdOut(data, flags.testFraction, resolveOptions(options).seed)
      : { train: data, test: undefined };
  if (isForestOptions(options)) {
    const forest = fitForestShown(split.train, options, { show: flags.progress !== false });
    const test =
      split.test ?? (flags.test !== undefined ? await readTest(forest.trees[0], flags.test, flags) : undefined);
    const rows = split.test ? `${split.train.nRows} of ${data.nRows} rows` : `${data.nRows} rows`;
    // The training rows can go before the forest's file is made beside its trees.
    data = undefined;
    split = undefined;
    finishForest(forest, `on ${rows}`, { test, out: flags.out });
    return;
  }
  const tree = optimal
    ? fitSearched(split.train, options, { show: flags.progress !== false })
    : fitShown(split.train, options, { show: flags.progress !== false });
  if (data.classes.length < 2) {
    warn(`only one class (${String(data.classes[0])}) in '${data.targetName}': the tree is a single leaf`);
  }
  const test = split.test ?? (flags.test !== undefined ? await readTest(tree, flags.test, flags) : undefined);
  const rows = split.test ? `${split.train.nRows} of ${data.nRows} rows` : `${data.nRows} rows`;
  finish(tree, `on ${rows}`, { train: split.train, test, out: flags.out });
}

/** `grove fit --engine …` (or a database source), after refusing what only memory grows. */
async function fitInEngine(dataPath: string, flags: FitFlags, optimal: boolean): Promise<void> {
  if (optimal)
    throw new GroveError('an optimal tree is searched in memory: drop --engine (or use --engine memory)', {
      code: 'E_OPTION',
    });
  if (isForestOptions(optionsFromFlags(flags)))
    throw new GroveError('forests grow in memory: leave out --engine (or give --engine memory)', {
      code: 'E_OPTION',
    });
  if (flags.testFraction !== undefined)
    throw new GroveError('--test-fraction needs in-memory training; give held-out rows with --test', {
      code: 'E_OPTION',
    });
  if (flags.drop !== undefined || flags.features !== undefined)
    throw new GroveError(
      '--drop and --features apply to in-memory training; in a database, choose the columns with --query',
      { code: 'E_OPTION' },
    );
  const { tree, rows, label } = await fitWithEngine(dataPath, flags, checkedFitOptions(flags));
  const test = flags.test !== undefined ? await readTest(tree, flags.test, flags) : undefined;
  finish(tree, `in ${flags.engine ?? 'the database'} on ${rows} rows of ${label}`, { test, out: flags.out });
}

type FitFlags = TrainingFlags &
  EngineFlags & {
    out?: string;
    test?: string;
    testFraction?: number;
    float32?: boolean;
    threads?: number | 'auto';
  };

/** The rows of `--test`, read with the model's feature types and target. */
async function readTest(tree: DecisionTree, path: string, flags: FitFlags): Promise<Dataset> {
  return readData(
    openSource(path),
    { ...modelReadOptions(tree, flags.target), ...readOptionsFromFlags(flags), float32: flags.float32 },
    flags.progress,
  );
}

/** Save the model (or print it when there is no --out) and write the summary line on stderr. */
function finish(tree: DecisionTree, where: string, parts: { train?: Dataset; test?: Dataset; out?: string }): void {
  if (parts.out) saveModel(tree, parts.out);
  else emit(treeToText(tree));
  if (tree.optimality) note(describeOptimality(tree.optimality, 'flags'));
  note(fitSummary(tree, where, parts));
}
