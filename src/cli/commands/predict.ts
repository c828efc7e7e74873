import type { Command } from 'commander';
import { readDataset } from '../../data/read.js';
import { loadModel } from '../../io/model-file.js';
import { csvLine } from '../csv-out.js';
import { emit } from '../output.js';

export function registerPredict(program: Command): void {
  program
    .command('predict')
    .description('predict the class of every row of DATA with a saved model; writes CSV (column `predicted`, then one probability column per class with --proba)')
    .argument('<data>', 'rows to predict (CSV or ARFF); a target column in it is ignored')
    .requiredOption('--model <model>', 'model file written by grove fit')
    .option('--proba', 'add one probability column per class')
    .option('--out <file>', 'write the CSV to a file instead of stdout')
    .action((dataPath: string, flags: { model: string; proba?: boolean; out?: string }) => {
      const tree = loadModel(flags.model);
      // Read every column as a feature, with the model's types where the file has the column.
      const data = readDataset(dataPath, {
        noTarget: true,
        ignoreUnknownColumns: true,
        categorical: tree.features.filter((f) => f.kind === 'categorical').map((f) => f.name),
        numeric: tree.features.filter((f) => f.kind === 'numeric').map((f) => f.name),
      });
      const codes = tree.predictCodes(data);
      const k = tree.classes.length;
      const proba = flags.proba ? tree.predictProbaFlat(data) : undefined;
      const lines = [csvLine(['predicted', ...(proba ? tree.classes : [])])];
      for (let i = 0; i < data.nRows; i++) {
        const row: Array<string | number> = [tree.classes[codes[i]]];
        if (proba) for (let c = 0; c < k; c++) row.push(Number(proba[i * k + c].toPrecision(6)));
        lines.push(csvLine(row));
      }
      emit(lines.join('\n') + '\n', flags.out);
    });
}
