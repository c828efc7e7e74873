import type { Command } from 'commander';
import { escapeControl } from '../../core/errors.js';
import { evaluate } from '../../eval/evaluate.js';
import { evaluationText } from '../../eval/evaluation-text.js';
import { loadModel } from '../../io/model-file.js';
import { openRows, openSource } from '../../sources/index.js';
import { modelReadOptions } from '../model-columns.js';
import { emit, warn } from '../output.js';
import { addSourceFlags, readOptionsFromFlags, type SourceFlags } from '../read-flags.js';
import { readData } from '../read-progress.js';
import { DATA_HELP } from './fit.js';

export function registerEvaluate(program: Command): void {
  const cmd = program
    .command('evaluate')
    .description(
      'evaluate a saved model on labelled rows: accuracy, balanced accuracy, per-class ' +
        'precision/recall/F1, log loss and the confusion matrix; classes the model never saw count as errors',
    )
    .argument('<data>', `labelled rows (${DATA_HELP}); the target is the model's target column unless --target`)
    .requiredOption('--model <model>', 'model file written by grove fit')
    .option('--target <column>', "class column of DATA (default: the model's target name)")
    .option('--json', 'machine-readable output');
  addSourceFlags(cmd, 'evaluate on').action(
    async (dataPath: string, flags: { model: string; target?: string; json?: boolean } & SourceFlags) => {
      const tree = loadModel(flags.model);
      const data = await readData(
        openRows(dataPath, flags, openSource),
        { ...modelReadOptions(tree, flags.target), ...readOptionsFromFlags(flags) },
        flags.progress,
      );
      const e = evaluate(tree, data);
      if (e.unseenClasses.length > 0)
        warn(
          `${e.unseenRows} ${e.unseenRows === 1 ? 'row has a class' : 'rows have classes'} the model never saw ` +
            `(${e.unseenClasses.map((c) => `'${escapeControl(String(c))}'`).join(', ')}): counted as errors`,
        );
      emit(flags.json ? `${JSON.stringify(e)}\n` : `${evaluationText(e).join('\n')}\n`);
    },
  );
}
