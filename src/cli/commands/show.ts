import type { Command } from 'commander';
import { escapeControl, GroveError } from '../../core/errors.js';
import { significant, textTable } from '../../core/text-table.js';
import { Forest } from '../../ensemble/forest.js';
import { forestSummary } from '../../ensemble/summary.js';
import { treeToDot } from '../../export/dot.js';
import { rulesToText } from '../../export/rules.js';
import { treeToText } from '../../export/text.js';
import { loadAnyModel } from '../../io/model-file.js';
import { refuseOutputOverInput } from '../../io/same-file.js';
import type { DecisionTree } from '../../model/decision-tree.js';
import { choiceOption, intOption } from '../args.js';
import { emit } from '../output.js';

const FORMATS = ['text', 'rules', 'dot', 'json', 'stats', 'importances'] as const;

/** Feature importances as a table, largest first, 3 significant digits (ties in feature order). */
export function importancesText(importances: Record<string, number>): string {
  const rows = Object.entries(importances).sort((a, b) => b[1] - a[1]);
  return `${textTable(
    ['feature', 'importance'],
    rows.map(([name, v]) => [escapeControl(name), significant(v)]),
    ['left', 'right'],
  ).join('\n')}\n`;
}

/** The tree `grove show` prints: the model, or tree `k` of a forest. */
function chosenTree(model: DecisionTree | Forest, k: number | undefined, format: string): DecisionTree | Forest {
  if (!(model instanceof Forest)) {
    if (k !== undefined)
      throw new GroveError('--tree picks a tree of a forest; this model is one tree', { code: 'E_OPTION' });
    return model;
  }
  if (k === undefined) {
    if (format === 'rules' || format === 'dot')
      throw new GroveError(`--format ${format} shows one tree: pick one of the forest's with --tree K`, {
        code: 'E_OPTION',
      });
    return model;
  }
  if (k >= model.trees.length)
    throw new GroveError(`--tree ${k}: the forest has ${model.trees.length} trees (0 to ${model.trees.length - 1})`, {
      code: 'E_OPTION',
    });
  return model.trees[k];
}

export function registerShow(program: Command): void {
  program
    .command('show')
    .description(
      'print a saved model as text, IF-THEN rules, Graphviz DOT, JSON, statistics or its feature importances; ' +
        'a forest: its summary, or one tree with --tree',
    )
    .argument('<model>', 'model file written by grove fit (a tree or a forest)')
    .option('--format <format>', FORMATS.join('|'), choiceOption('--format', FORMATS), 'text')
    .option('--tree <k>', "a forest's tree K (0 first)", intOption('--tree', 0))
    .option('--out <file>', 'write to a file instead of stdout')
    .action((modelPath: string, flags: { format: (typeof FORMATS)[number]; out?: string; tree?: number }) => {
      if (flags.out) refuseOutputOverInput([{ flag: '--out', path: flags.out }], [modelPath]);
      const model = chosenTree(loadAnyModel(modelPath), flags.tree, flags.format);
      if (model instanceof Forest) {
        const text = {
          text: () => forestSummary(model),
          rules: () => '',
          dot: () => '',
          json: () => `${JSON.stringify(model.toJSON(), null, 2)}\n`,
          stats: () => `${JSON.stringify(model.stats(), null, 2)}\n`,
          importances: () => importancesText(model.featureImportances()),
        }[flags.format]();
        emit(text, flags.out);
        return;
      }
      const tree = model;
      const text = {
        text: () => treeToText(tree),
        rules: () => rulesToText(tree),
        dot: () => treeToDot(tree),
        json: () => `${JSON.stringify(tree.toJSON(), null, 2)}\n`,
        stats: () => `${JSON.stringify(tree.stats(), null, 2)}\n`,
        importances: () => importancesText(tree.stats().importances),
      }[flags.format]();
      emit(text, flags.out);
    });
}
