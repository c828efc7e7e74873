import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { GroveError } from '../../core/errors.js';
import { analyze } from '../../eval/analysis.js';
import { parseResults } from '../../eval/results-file.js';
import { refuseOutputOverInput } from '../../io/same-file.js';
import { buildReport } from '../../report/index.js';
import { emit, note } from '../output.js';

export function registerReport(program: Command): void {
  program
    .command('report')
    .description('rebuild the HTML report of a comparison from its results.json')
    .argument('<results>', 'results.json written by grove compare --out (or --json)')
    .option('--out <file>', 'where to write the report (default: stdout)')
    .action((file: string, flags: { out?: string }) => {
      if (flags.out) refuseOutputOverInput([{ flag: '--out', path: flags.out }], [file]);
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (err) {
        throw new GroveError(`cannot read file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, {
          file,
        });
      }
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (err) {
        throw new GroveError(`not JSON (${(err as Error).message})`, { file });
      }
      const results = parseResults(value, file);
      emit(buildReport(results, analyze(results)), flags.out);
      if (flags.out)
        note(
          `report of ${results.datasets.length} data sets × ${results.configs.length} configurations → ${flags.out}`,
        );
    });
}
