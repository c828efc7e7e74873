import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { outputFiles, runComparison } from '../../compare/compare.js';
import { findDataFiles } from '../../compare/datasets.js';
import { GroveError } from '../../core/errors.js';
import { type Config, parseConfigs, presetConfigs } from '../../eval/configs.js';
import { isOptimalConfig } from '../../eval/optimal-gap.js';
import { renderTable } from '../../eval/table.js';
import { type OutputPath, refuseOutputOverInput } from '../../io/same-file.js';
import { intOption, listOption } from '../args.js';
import { note } from '../output.js';
import { DELIMITER_HELP, delimiterOption } from '../read-flags.js';

/** The data sets that ship with grove (Debian-sourced UCI files, see data/README.md). */
export const BUNDLED_DATA = fileURLToPath(new URL('../../../data/', import.meta.url));

interface CompareFlags {
  data?: string[];
  datasets?: string[];
  algorithms: string[];
  criteria: string[];
  base: string;
  configs?: string;
  folds: number;
  repeats: number;
  seed: number;
  jobs?: number;
  out?: string;
  resume?: boolean;
  models: boolean;
  json?: string;
  progress: boolean;
  target?: string;
  drop?: string[];
  features?: string[];
  delimiter?: string;
}

/** `--data a b,c --data d` → [a, b, c, d]. */
const collectList = (value: string, previous: string[] | undefined): string[] => [
  ...(previous ?? []),
  ...listOption(value),
];

function readConfigSpec(spec: string): string {
  if (!spec.startsWith('@')) return spec;
  try {
    return readFileSync(spec.slice(1), 'utf8');
  } catch (err) {
    throw new GroveError(
      `cannot read configurations (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      { file: spec.slice(1) },
    );
  }
}

export function registerCompare(program: Command): void {
  program
    .command('compare')
    .description(
      'cross-validate algorithms and split measures on data sets (same stratified folds for every configuration)',
    )
    .option(
      '--data <paths...>',
      'data files or folders, several or comma-separated (default: the data sets shipped with grove)',
      collectList,
    )
    .option('--datasets <names>', 'only these data sets (file names without extension)', listOption)
    .option('--target <column>', "every data set's class column (default: each one's last column)")
    .option('--drop <columns>', 'leave these columns out of every data set (comma-separated)', listOption)
    .option('--features <columns>', 'keep only these feature columns of every data set (comma-separated)', listOption)
    .option('--delimiter <char>', DELIMITER_HELP, delimiterOption)
    .option('--algorithms <names>', 'presets to compare', listOption, ['id3', 'c45', 'cart', 'zaki'])
    .option('--criteria <names>', 'split measures to compare, each grown with the --base preset', listOption, [
      'gain-ratio',
      'dcsm',
      'chandra-varghese',
    ])
    .option('--base <preset>', 'preset used for --criteria', 'cart')
    .option(
      '--configs <spec>',
      "configurations 'label:key=value,...;label2:...' " +
        '(keys: fit options, e.g. algorithm=cart,criterion=dcsm,min-leaf=2), ' +
        'JSON, or @file.json; replaces the default --algorithms and --criteria (given ones are added)',
    )
    .option('--folds <k>', 'number of folds', intOption('--folds', 2), 10)
    .option('--repeats <r>', 'repeat the cross-validation with seeds seed, seed+1, ...', intOption('--repeats', 1), 1)
    .option('--seed <s>', 'seed of the fold assignment', intOption('--seed', 0), 1)
    .option('--jobs <n>', 'worker threads (default: min(2, cores); 1 = no workers)', intOption('--jobs', 1))
    .option(
      '--out <dir>',
      'write cells.jsonl (as cells finish), results.json, results.csv and report.html here ' +
        '(and gaps.csv when a configuration is an optimal tree)',
    )
    .option('--resume', 'continue the interrupted run in --out (finished cells are not run again)')
    .option(
      '--no-models',
      'do not fit, save and explain one model per data set × configuration on all rows ' +
        '(the report then has no tree view and no explanation pictures)',
    )
    .option('--json <file>', 'also write results.json to this file')
    .option('--no-progress', 'no progress bar on stderr')
    .action(runCompare);
}

async function runCompare(flags: CompareFlags, cmd: Command): Promise<void> {
  const inFolders = new Set<string>();
  const files = findDataFiles(flags.data ?? [BUNDLED_DATA], flags.datasets, inFolders);
  if (files.length === 0) throw new GroveError('no data files found');
  const configs = configsOf(flags, cmd);
  if (configs.length === 0) throw new GroveError('nothing to compare: no algorithms, criteria or configs');
  const outputs: OutputPath[] = [
    ...(flags.out ? outputFiles(flags.out).map((path) => ({ flag: '--out', path })) : []),
    ...(flags.json ? [{ flag: '--json', path: flags.json }] : []),
  ];
  const configFile = flags.configs?.startsWith('@') ? [flags.configs.slice(1)] : [];
  refuseOutputOverInput(outputs, [...files, ...configFile]);
  const jobs = flags.jobs ?? Math.max(1, Math.min(2, availableParallelism()));
  const outcome = await runComparison({
    files,
    configs,
    folds: flags.folds,
    repeats: flags.repeats,
    seed: flags.seed,
    jobs,
    out: flags.out,
    resume: flags.resume,
    models: flags.models,
    json: flags.json,
    progress: flags.progress,
    read: { target: flags.target, drop: flags.drop, features: flags.features, delimiter: flags.delimiter },
    skippable: inFolders,
  });
  process.stdout.write(renderTable(outcome.results, outcome.analysis));
  const written = ['results.json', 'results.csv', 'report.html'];
  if (outcome.results.configs.some((c) => isOptimalConfig(c.options))) written.push('gaps.csv');
  const where = flags.out ? ` → ${written.map((f) => join(flags.out!, f)).join(', ')}` : '';
  const reused = outcome.reused ? `, ${outcome.reused} reused from the earlier run` : '';
  if (outcome.interrupted) {
    note(
      `interrupted: ${outcome.ran} cells finished now${reused}; ` +
        (flags.out
          ? `they are kept in ${flags.out} (add --resume to continue)${where}`
          : `without --out nothing is kept beyond the table above`),
    );
    process.exit(outcome.signal === 'SIGTERM' ? 143 : 130);
  }
  note(`${outcome.ran} cells${reused}${where}`);
}

/** The configurations: --configs (with --algorithms and --criteria given on the command line added), else those two. */
function configsOf(flags: CompareFlags, cmd: Command): Config[] {
  const explicit = (name: string) => cmd.getOptionValueSource(name) === 'cli';
  if (flags.configs !== undefined) {
    return [
      ...presetConfigs(
        explicit('algorithms') ? flags.algorithms : [],
        explicit('criteria') ? flags.criteria : [],
        flags.base,
      ),
      ...parseConfigs(readConfigSpec(flags.configs)),
    ];
  }
  return presetConfigs(flags.algorithms, flags.criteria, flags.base);
}
