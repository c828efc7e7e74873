import type { Command } from 'commander';
import { GroveError } from '../../core/errors.js';
import { loadModel } from '../../io/model-file.js';
import { refuseOutputOverInput } from '../../io/same-file.js';
import { choicesOf, type TreeOptions } from '../../options/options.js';
import { choiceOption, intOption } from '../args.js';
import { csvLine } from '../csv-out.js';
import { emit } from '../output.js';
import { addReadFlags, type ReadFlags, readOptionsFromFlags } from '../read-flags.js';
import { readData } from '../read-progress.js';
import { DATA_HELP } from './fit.js';
import { writePredictionsParquet } from './predictions-parquet.js';

export function registerPredict(program: Command): void {
  const cmd = program
    .command('predict')
    .description(
      'predict the class of every row of DATA with a saved model; writes CSV, or Parquet when --out ends in .parquet (column `predicted`, then one probability column per class with --proba, a leaf id with --leaf, a node path with --path; a C-MBSV row in an unclassified region: `unclassified`, empty probabilities)',
    )
    .argument('<data>', `rows to predict (${DATA_HELP}); a target column in it is ignored`)
    .requiredOption('--model <model>', 'model file written by grove fit')
    .option('--proba', 'add one probability column per class')
    .option('--leaf', "add a column `leaf`: the id of the leaf each row ends in (its index in the model file's nodes)")
    .option('--path', "add a column `path`: the ids of the nodes each row visits, joined by ';'")
    .option('--out <file>', 'write to a file instead of stdout: Parquet if it ends in .parquet, else CSV')
    .option('--no-progress', 'no progress bar on stderr while reading the data')
    .option(
      '--unclassified <mode>',
      "C-MBSV: rows in an unclassified region: none (write 'unclassified') or knn (k-NN; needs a model fitted with --unclassified knn); default: the model's",
      choiceOption('--unclassified', choicesOf('unclassified')),
    )
    .option('--knn-k <k>', "C-MBSV: neighbours for k-NN (default: the model's)", intOption('--knn-k', 1));
  addReadFlags(cmd).action(
    async (
      dataPath: string,
      flags: {
        model: string;
        proba?: boolean;
        leaf?: boolean;
        path?: boolean;
        out?: string;
        progress?: boolean;
        unclassified?: TreeOptions['unclassified'];
        knnK?: number;
      } & ReadFlags,
    ) => {
      if (flags.out) refuseOutputOverInput([{ flag: '--out', path: flags.out }], [dataPath, flags.model]);
      const tree = loadModel(flags.model);
      if (flags.unclassified === 'knn' && tree.nodes.some((n) => n.unclassified && !n.knn)) {
        throw new GroveError(
          `${flags.model} stores no k-NN data for its unclassified regions (fit it with --unclassified knn)`,
        );
      }
      const policy = { unclassified: flags.unclassified, knnK: flags.knnK };
      // Read every column as a feature, with the model's types where the file has the column.
      const data = await readData(
        dataPath,
        {
          noTarget: true,
          ignoreUnknownColumns: true,
          // An ordered categorical feature (levels) is read as categorical and mapped to its rank by the model.
          categorical: tree.features.filter((f) => f.kind === 'categorical' || f.levels).map((f) => f.name),
          numeric: tree.features.filter((f) => f.kind === 'numeric' && !f.levels).map((f) => f.name),
          ...readOptionsFromFlags(flags),
        },
        flags.progress,
      );
      const codes = tree.predictCodes(data, policy);
      const k = tree.classes.length;
      const proba = flags.proba ? tree.predictProbaFlat(data, policy) : undefined;
      const leaves = flags.leaf ? tree.apply(data, policy) : undefined;
      const paths = flags.path ? tree.decisionPath(data, policy) : undefined;
      const pathText = (i: number): string =>
        paths ? paths.nodes.subarray(paths.offsets[i], paths.offsets[i + 1]).join(';') : '';
      if (flags.out && /\.parquet$/i.test(flags.out)) {
        await writePredictionsParquet(flags.out, tree.classes, codes, proba, {
          ...(leaves ? { leaves } : {}),
          ...(paths ? { path: pathText } : {}),
        });
        return;
      }
      const header = [
        'predicted',
        ...(proba ? tree.classes : []),
        ...(leaves ? ['leaf'] : []),
        ...(paths ? ['path'] : []),
      ];
      const lines = [csvLine(header)];
      for (let i = 0; i < data.nRows; i++) {
        // C-MBSV unclassified region: the literal `unclassified` and empty probability cells.
        const row: Array<string | number | boolean> = [codes[i] < 0 ? 'unclassified' : tree.classes[codes[i]]];
        if (proba) for (let c = 0; c < k; c++) row.push(codes[i] < 0 ? '' : Number(proba[i * k + c].toPrecision(6)));
        if (leaves) row.push(leaves[i]);
        if (paths) row.push(pathText(i));
        lines.push(csvLine(row));
      }
      emit(`${lines.join('\n')}\n`, flags.out);
    },
  );
}
