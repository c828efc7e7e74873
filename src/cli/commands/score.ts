import type { Command } from 'commander';
import { maxOf } from '../../core/extent.js';
import { formatNumber } from '../../export/conditions.js';
import { type AttributeScore, scoreAttributes } from '../../learn/score.js';
import { openRows, openSource } from '../../sources/index.js';
import { emit } from '../output.js';
import { addSourceFlags, columnReadOptions } from '../read-flags.js';
import { readLabelled } from '../read-labelled.js';
import { addTrainingFlags, checkedFitOptions, DATA_HELP, type TrainingFlags } from './fit.js';

function describeSplit(a: AttributeScore): string {
  if (!a.split) return '(no valid split)';
  if ('threshold' in a.split) return `<= ${formatNumber(a.split.threshold)}`;
  if ('values' in a.split) return `one branch per value: ${a.split.values.join(', ')}`;
  return `in {${a.split.left.join(', ')}}`;
}

export function registerScore(program: Command): void {
  addSourceFlags(
    addTrainingFlags(
      program
        .command('score')
        .description("score each attribute's best root split with a measure (its value as the paper defines it)")
        .argument('<data>', DATA_HELP),
      ['split', 'stop'],
    ),
    'score',
  )
    .option('--json', 'machine-readable output')
    .action(async (dataPath: string, flags: TrainingFlags & { json?: boolean }) => {
      const options = checkedFitOptions(flags);
      const data = await readLabelled(
        () => openRows(dataPath, flags, openSource),
        columnReadOptions(flags),
        flags.progress,
        flags.requireLabels,
      );
      const report = scoreAttributes(data, options);
      if (flags.json) {
        emit(`${JSON.stringify(report)}\n`);
        return;
      }
      const width = maxOf(
        report.attributes.map((a) => a.name.length),
        9,
      );
      const lines = [`criterion: ${report.criterion} (${report.better} is better)`, ''];
      lines.push(`${'attribute'.padEnd(width)}  ${'type'.padEnd(11)}  ${'score'.padStart(10)}  split`);
      for (const a of report.attributes) {
        const score = a.score === null ? '—' : a.score.toFixed(6);
        lines.push(
          `${a.name.padEnd(width)}  ${a.type.padEnd(11)}  ${score.padStart(10)}  ${describeSplit(a)}` +
            (a.name === report.best ? '   ← best' : ''),
        );
      }
      emit(`${lines.join('\n')}\n`);
    });
}
