import type { Command } from 'commander';
import { GroveError } from '../../core/errors.js';
import { readDataset } from '../../data/read.js';
import { loadModel } from '../../io/model-file.js';
import { refuseOutputOverInput } from '../../io/same-file.js';
import { choicesOf, type TreeOptions } from '../../options/options.js';
import { choiceOption, intOption } from '../args.js';
import { csvLine } from '../csv-out.js';
import { emit } from '../output.js';
import { addReadFlags, type ReadFlags, readOptionsFromFlags } from '../read-flags.js';

export function registerPredict(program: Command): void {
  const cmd = program
    .command('predict')
    .description(
      'predict the class of every row of DATA with a saved model; writes CSV (column `predicted`, then one probability column per class with --proba; a C-MBSV row in an unclassified region: `unclassified`, empty probabilities)',
    )
    .argument('<data>', 'rows to predict (CSV or ARFF); a target column in it is ignored')
    .requiredOption('--model <model>', 'model file written by grove fit')
    .option('--proba', 'add one probability column per class')
    .option('--out <file>', 'write the CSV to a file instead of stdout')
    .option(
      '--unclassified <mode>',
      "C-MBSV: rows in an unclassified region: none (write 'unclassified') or knn (k-NN; needs a model fitted with --unclassified knn); default: the model's",
      choiceOption('--unclassified', choicesOf('unclassified')),
    )
    .option('--knn-k <k>', "C-MBSV: neighbours for k-NN (default: the model's)", intOption('--knn-k', 1));
  addReadFlags(cmd).action(
    (
      dataPath: string,
      flags: {
        model: string;
        proba?: boolean;
        out?: string;
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
      const data = readDataset(dataPath, {
        noTarget: true,
        ignoreUnknownColumns: true,
        // An ordered categorical feature (levels) is read as categorical and mapped to its rank by the model.
        categorical: tree.features.filter((f) => f.kind === 'categorical' || f.levels).map((f) => f.name),
        numeric: tree.features.filter((f) => f.kind === 'numeric' && !f.levels).map((f) => f.name),
        ...readOptionsFromFlags(flags),
      });
      const codes = tree.predictCodes(data, policy);
      const k = tree.classes.length;
      const proba = flags.proba ? tree.predictProbaFlat(data, policy) : undefined;
      const lines = [csvLine(['predicted', ...(proba ? tree.classes : [])])];
      for (let i = 0; i < data.nRows; i++) {
        // C-MBSV unclassified region: the literal `unclassified` and empty probability cells.
        if (codes[i] < 0) {
          lines.push(csvLine(['unclassified', ...(proba ? new Array<string>(k).fill('') : [])]));
          continue;
        }
        const row: Array<string | number> = [tree.classes[codes[i]]];
        if (proba) for (let c = 0; c < k; c++) row.push(Number(proba[i * k + c].toPrecision(6)));
        lines.push(csvLine(row));
      }
      emit(`${lines.join('\n')}\n`, flags.out);
    },
  );
}
