import type { Command } from 'commander';
import { featureIndex, partialDependence } from '../../explain/partial.js';
import { shapValues } from '../../explain/shap.js';
import { shapSummary } from '../../explain/summary.js';
import { loadAnyModel } from '../../io/model-file.js';
import { refuseOutputOverInput } from '../../io/same-file.js';
import { openRows, openSource } from '../../sources/index.js';
import { choiceOption } from '../args.js';
import { summaryText, writePartial, writeShapCsv, writeShapParquet } from '../explain-out.js';
import { modelReadOptions } from '../model-columns.js';
import { addSourceFlags, readOptionsFromFlags, type SourceFlags } from '../read-flags.js';
import { readData } from '../read-progress.js';
import { DATA_HELP } from './fit.js';

interface ExplainFlags extends SourceFlags {
  model: string;
  out?: string;
  format: 'wide' | 'long';
  summary?: boolean;
  partial?: string;
}

export function registerExplain(program: Command): void {
  const cmd = program
    .command('explain')
    .description(
      "explain a saved model's class probabilities on every row of DATA with exact TreeSHAP contributions; " +
        'writes CSV, or Parquet when --out ends in .parquet: per class its expected value (column CLASS:(base)) ' +
        'and one contribution per feature (CLASS:FEATURE), which add up to the predicted probability; ' +
        '--partial writes a partial dependence curve instead',
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
    );
  addSourceFlags(cmd, 'explain').action(async (dataPath: string, flags: ExplainFlags) => {
    if (flags.out) refuseOutputOverInput([{ flag: '--out', path: flags.out }], [dataPath, flags.model]);
    const tree = loadAnyModel(flags.model);
    if (flags.partial !== undefined) featureIndex(tree, flags.partial, '--partial');
    const { target: _target, ...columns } = modelReadOptions(tree, undefined);
    const readOptions = { ...columns, noTarget: true, ...readOptionsFromFlags(flags) };
    const data = await readData(openRows(dataPath, flags, openSource), readOptions, flags.progress);
    if (flags.partial !== undefined) {
      await writePartial(partialDependence(tree, data, flags.partial), flags.out);
      return;
    }
    const shap = shapValues(tree, data);
    const long = flags.format === 'long';
    if (flags.out !== undefined && /\.parquet$/i.test(flags.out)) await writeShapParquet(shap, long, flags.out);
    else if (flags.out !== undefined || !flags.summary) await writeShapCsv(shap, long, flags.out);
    if (flags.summary) process.stdout.write(summaryText(shapSummary(shap), shap.classes));
  });
}
