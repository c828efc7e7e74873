import type { Command } from 'commander';
import { maxOf } from '../../core/extent.js';
import { listCriteria } from '../../criteria/registry.js';
import { PRESETS } from '../../options/options.js';
import { emit } from '../output.js';

export function registerCriteria(program: Command): void {
  program
    .command('criteria')
    .description('list the registered split measures (and the algorithm presets)')
    .option('--json', 'machine-readable output')
    .action((flags: { json?: boolean }) => {
      const rows = listCriteria().map((c) => ({
        name: c.name,
        better: c.better,
        binaryOnly: c.binaryOnly ?? false,
        formula: c.formula,
        source: c.source,
      }));
      if (flags.json) {
        emit(`${JSON.stringify({ criteria: rows, presets: PRESETS }, null, 2)}\n`);
        return;
      }
      const width = maxOf(rows.map((r) => r.name.length));
      const lines = rows.map(
        (r) =>
          `${r.name.padEnd(width)}  ${r.better.padEnd(6)}  ${r.source}${r.binaryOnly ? ' (binary splits only)' : ''}`,
      );
      lines.push('', 'presets (--algorithm):');
      for (const [name, p] of Object.entries(PRESETS)) lines.push(`  ${name.padEnd(5)} ${p.description} [${p.source}]`);
      emit(`${lines.join('\n')}\n`);
    });
}
