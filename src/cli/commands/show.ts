import type { Command } from 'commander';
import { treeToDot } from '../../export/dot.js';
import { rulesToText } from '../../export/rules.js';
import { treeToText } from '../../export/text.js';
import { loadModel } from '../../io/model-file.js';
import { refuseOutputOverInput } from '../../io/same-file.js';
import { choiceOption } from '../args.js';
import { emit } from '../output.js';

const FORMATS = ['text', 'rules', 'dot', 'json', 'stats'] as const;

export function registerShow(program: Command): void {
  program
    .command('show')
    .description('print a saved model as text, IF-THEN rules, Graphviz DOT, JSON or statistics')
    .argument('<model>', 'model file (JSON) written by grove fit')
    .option('--format <format>', FORMATS.join('|'), choiceOption('--format', FORMATS), 'text')
    .option('--out <file>', 'write to a file instead of stdout')
    .action((modelPath: string, flags: { format: (typeof FORMATS)[number]; out?: string }) => {
      if (flags.out) refuseOutputOverInput([{ flag: '--out', path: flags.out }], [modelPath]);
      const tree = loadModel(modelPath);
      const text = {
        text: () => treeToText(tree),
        rules: () => rulesToText(tree),
        dot: () => treeToDot(tree),
        json: () => `${JSON.stringify(tree.toJSON(), null, 2)}\n`,
        stats: () => `${JSON.stringify(tree.stats(), null, 2)}\n`,
      }[flags.format]();
      emit(text, flags.out);
    });
}
