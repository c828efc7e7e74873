import type { Command } from 'commander';
import '../../learn/threads/parallel-grow.js'; // worker threads for --threads
import { fit } from '../../algorithms/fit.js';
import { GroveError } from '../../core/errors.js';
import { saveModel } from '../../io/model-file.js';
import { refuseOutputOverInput } from '../../io/same-file.js';
import { type FitOptions, type OptionGroup, PRESETS, resolveOptions } from '../../options/options.js';
import { formatsHelp } from '../../sources/formats.js';
import { openRows, openSource } from '../../sources/index.js';
import { addOptionFlags, optionsFromFlags } from '../option-flags.js';
import { warn } from '../output.js';
import {
  addColumnFlags,
  addSourceFlags,
  type ColumnFlags,
  columnReadOptions,
  FLOAT32_HELP,
  type SourceFlags,
} from '../read-flags.js';
import { readData } from '../read-progress.js';
import { type EngineFlags, engineOption, fitWithEngine, trainsInEngine } from './fit-engine.js';

function threadsOption(raw: string): number | 'auto' {
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
  addColumnFlags(cmd).option('--algorithm <name>', `preset: ${Object.keys(PRESETS).join(', ')} (default cart)`);
  return addOptionFlags(cmd, groups);
}

/** What `addTrainingFlags` parses (tree options under their flags' names). */
export interface TrainingFlags extends Record<string, unknown>, SourceFlags, ColumnFlags {
  algorithm?: string;
}

/** The fit options given by the flags, checked with messages that name the flags. */
export function checkedFitOptions(flags: TrainingFlags): FitOptions {
  const options: FitOptions = { algorithm: flags.algorithm, ...optionsFromFlags(flags) };
  resolveOptions(options, { names: 'flags' });
  return options;
}

export function registerFit(program: Command): void {
  addSourceFlags(
    addTrainingFlags(
      program.command('fit').description('grow a tree on DATA and save it as JSON').argument('<data>', DATA_HELP),
      ['split', 'stop', 'data', 'prune', 'cmbsv'],
    ),
    'train on',
  )
    .requiredOption('--out <model>', 'where to write the model (JSON)')
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
    .action(
      async (
        dataPath: string,
        flags: TrainingFlags & EngineFlags & { out: string; float32?: boolean; threads?: number | 'auto' },
      ) => {
        refuseOutputOverInput([{ flag: '--out', path: flags.out }], [dataPath]);
        if (trainsInEngine(dataPath, flags)) {
          const { tree, rows, label } = await fitWithEngine(dataPath, flags, checkedFitOptions(flags));
          saveModel(tree, flags.out);
          const s = tree.stats();
          process.stderr.write(
            `grove: ${tree.options.algorithm} tree (${tree.options.criterion}) in ${flags.engine ?? 'the database'} on ${rows} rows of ${label}: ` +
              `${s.nodes} nodes, ${s.leaves} leaves, height ${s.height} → ${flags.out}\n`,
          );
          return;
        }
        if (flags.weight !== undefined)
          throw new GroveError('--weight needs in-database training (a database source, or --engine duckdb)', {
            code: 'E_OPTION',
          });
        const options = { ...checkedFitOptions(flags), threads: flags.threads ?? 'auto' };
        // A database source with --engine memory: its rows stream into memory.
        const data = await readData(
          openRows(dataPath, flags, openSource),
          { ...columnReadOptions(flags), float32: flags.float32 },
          flags.progress,
        );
        const tree = fit(data, options, { names: 'flags' });
        if (data.classes.length < 2) {
          warn(`only one class (${String(data.classes[0])}) in '${data.targetName}': the tree is a single leaf`);
        }
        saveModel(tree, flags.out);
        const s = tree.stats();
        const p = tree.pruning;
        const pruned = p
          ? `; pruned (${p.method}${p.alpha !== undefined ? `, α = ${p.alpha.toPrecision(4)}` : ''}) from ${p.leavesBefore} leaves`
          : '';
        process.stderr.write(
          `grove: ${tree.options.algorithm} tree (${tree.options.criterion}) on ${data.nRows} rows: ` +
            `${s.nodes} nodes, ${s.leaves} leaves, height ${s.height}${pruned} → ${flags.out}\n`,
        );
      },
    );
}
