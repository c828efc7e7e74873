import type { Command } from 'commander';
import '../../explain/threads/parallel-shap.js'; // rows explained on worker threads (--threads)
import { GroveError } from '../../core/errors.js';
import type { Dataset } from '../../data/dataset.js';
import type { ExplainableModel } from '../../explain/model.js';
import { featureIndex, partialDependence } from '../../explain/partial.js';
import { type PermutationImportance, permutationImportance } from '../../explain/permutation.js';
import { type ShapValues, shapValues } from '../../explain/shap.js';
import { shapSummary } from '../../explain/summary.js';
import { loadAnyModel } from '../../io/model-file.js';
import { refuseOutputOverInput } from '../../io/same-file.js';
import { openRows, openSource } from '../../sources/index.js';
import { choiceOption, intOption } from '../args.js';
import { summaryText, writePartial, writeShapCsv, writeShapParquet } from '../explain-out.js';
import { modelReadOptions } from '../model-columns.js';
import { emit } from '../output.js';
import { permutationText } from '../permutation-out.js';
import { addSourceFlags, readOptionsFromFlags, type SourceFlags } from '../read-flags.js';
import { readData } from '../read-progress.js';
import { countText, type TtyProgressOptions, ttyProgress } from '../tty-progress.js';
import { DATA_HELP, threadsOption } from './fit.js';

interface ExplainFlags extends SourceFlags {
  model: string;
  out?: string;
  format: 'wide' | 'long';
  summary?: boolean;
  partial?: string;
  permutation?: boolean;
  repeats?: number;
  seed?: number;
  target?: string;
  threads?: number | 'auto';
}

export function registerExplain(program: Command): void {
  const cmd = program
    .command('explain')
    .description(
      "explain a saved model's class probabilities on every row of DATA with exact TreeSHAP contributions; " +
        'writes CSV, or Parquet when --out ends in .parquet: per class its expected value (column CLASS:(base)) ' +
        'and one contribution per feature (CLASS:FEATURE), which add up to the predicted probability; ' +
        '--partial writes a partial dependence curve instead, --permutation prints permutation importances',
    )
    .argument('<data>', `rows to explain (${DATA_HELP}); a target column in it is ignored`)
    .requiredOption('--model <model>', 'model file written by grove fit (a tree or a forest)')
    .option('--out <file>', 'write to a file instead of stdout: Parquet if it ends in .parquet, else CSV')
    .option(
      '--format <form>',
      'wide (a line per row) or long (columns row,class,feature,contribution; the feature (base) holds the ' +
        'expected value; rows numbered from 1)',
      choiceOption('--format', ['wide', 'long'] as const),
      'wide',
    )
    .option(
      '--summary',
      'print the mean absolute contribution of each feature (per class and summed); ' +
        'with --out the contributions still go to the file',
    )
    .option(
      '--partial <feature>',
      "write the partial dependence curve of FEATURE (its grid value, then each class's mean probability)",
    )
    .option(
      '--permutation',
      "print permutation importances: how much the model's accuracy on DATA (labelled) drops when each " +
        "feature's column is shuffled, mean and standard deviation over the shuffles, largest first",
    )
    .option('--repeats <n>', 'with --permutation: shuffles per feature (default 5)', intOption('--repeats', 1))
    .option('--seed <n>', 'with --permutation: seed of the shuffles (default 0)', intOption('--seed', 0))
    .option('--target <column>', "with --permutation: class column of DATA (default: the model's target name)")
    .option(
      '--threads <n>',
      "threads for the contributions, this one included: a number or 'auto' (the same values; default auto)",
      threadsOption,
    );
  addSourceFlags(cmd, 'explain').action(async (dataPath: string, flags: ExplainFlags) => {
    if (flags.out) refuseOutputOverInput([{ flag: '--out', path: flags.out }], [dataPath, flags.model]);
    checkPermutationFlags(flags);
    const other = flags.permutation ? '--permutation' : flags.partial !== undefined ? '--partial' : undefined;
    if (flags.threads !== undefined && other)
      throw new GroveError(`--threads applies to the contributions, not to ${other}`, { code: 'E_OPTION' });
    const tree = loadAnyModel(flags.model);
    if (flags.permutation) {
      await runPermutation(dataPath, flags, tree);
      return;
    }
    if (flags.partial !== undefined) featureIndex(tree, flags.partial, '--partial');
    const { target: _target, ...columns } = modelReadOptions(tree, undefined);
    const readOptions = { ...columns, noTarget: true, ...readOptionsFromFlags(flags) };
    const data = await readData(openRows(dataPath, flags, openSource), readOptions, flags.progress);
    if (flags.partial !== undefined) {
      await writePartial(partialDependence(tree, data, flags.partial), flags.out);
      return;
    }
    const shap = explainShown(tree, data, { show: flags.progress !== false }, flags.threads ?? 'auto');
    const long = flags.format === 'long';
    if (flags.out !== undefined && /\.parquet$/i.test(flags.out)) await writeShapParquet(shap, long, flags.out);
    else if (flags.out !== undefined || !flags.summary) await writeShapCsv(shap, long, flags.out);
    if (flags.summary) process.stdout.write(summaryText(shapSummary(shap), shap.classes));
  });
}

/** TreeSHAP over every row, with rows explained of the total and their rate on a terminal. */
export function explainShown(
  model: ExplainableModel,
  data: Dataset,
  where: TtyProgressOptions,
  threads: number | 'auto' = 1,
): ShapValues {
  const shown = ttyProgress('explaining', where);
  const onProgress = ({ rows, total }: { rows: number; total: number }) =>
    shown.update(rows, total, countText(shown, rows, total, 'rows'));
  try {
    return shapValues(model, data, shown.shown ? { onProgress, threads } : { threads });
  } finally {
    shown.stop();
  }
}

/** --permutation prints a table: it takes none of the contributions' or the curve's flags, and they need it. */
function checkPermutationFlags(flags: ExplainFlags): void {
  const only = (
    [
      ['--repeats', flags.repeats],
      ['--seed', flags.seed],
      ['--target', flags.target],
    ] as const
  ).find(([, v]) => v !== undefined);
  if (!flags.permutation) {
    if (only) throw new GroveError(`${only[0]} applies to --permutation`, { code: 'E_OPTION' });
    return;
  }
  const other = (
    [
      ['--partial', flags.partial !== undefined],
      ['--summary', flags.summary === true],
      ['--out', flags.out !== undefined],
      ['--format long', flags.format === 'long'],
    ] as const
  ).find(([, given]) => given);
  if (other) throw new GroveError(`--permutation prints a table: leave out ${other[0]}`, { code: 'E_OPTION' });
}

/** `grove explain --permutation`: read DATA with its labels, shuffle each feature, print the table. */
async function runPermutation(dataPath: string, flags: ExplainFlags, model: ExplainableModel): Promise<void> {
  const readOptions = { ...modelReadOptions(model, flags.target), ...readOptionsFromFlags(flags) };
  const data = await readData(openRows(dataPath, flags, openSource), readOptions, flags.progress);
  const seed = flags.seed ?? 0;
  const shown = ttyProgress('shuffling', { show: flags.progress !== false });
  const onProgress = ({ done, total }: { done: number; total: number }) =>
    shown.update(done, total, countText(shown, done, total, 'shuffles'));
  let pi: PermutationImportance;
  try {
    pi = permutationImportance(model, data, {
      repeats: flags.repeats ?? 5,
      seed,
      ...(shown.shown ? { onProgress } : {}),
    });
  } finally {
    shown.stop();
  }
  emit(permutationText(pi, data.nRows, seed));
}
