import type { Command } from 'commander';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readDataset } from '../../data/read.js';
import { crossValidate, summarize, type FoldResult } from '../../eval/cross-validate.js';
import { GroveError } from '../../errors.js';
import type { FitOptions } from '../../tree/options.js';
import { intOption, listOption } from '../args.js';
import { emit } from '../output.js';

/** The data sets that ship with grove (Debian-sourced UCI files, see data/README.md). */
export const BUNDLED_DATA = fileURLToPath(new URL('../../../data/', import.meta.url));

interface Config {
  label: string;
  options: FitOptions;
}

interface CompareFlags {
  data?: string[];
  datasets?: string[];
  algorithms: string[];
  criteria: string[];
  base: string;
  folds: number;
  seed: number;
  json?: string;
}

/** Data files named by `--data` (files, or every .csv/.arff in a folder), filtered by `--datasets`. */
function findDataFiles(paths: string[], only?: string[]): string[] {
  const files: string[] = [];
  for (const p of paths) {
    if (!existsSync(p)) throw new GroveError('no such file or folder', { file: p });
    if (statSync(p).isDirectory()) {
      for (const f of readdirSync(p).sort()) if (/\.(csv|arff)$/i.test(f)) files.push(join(p, f));
    } else files.push(p);
  }
  const name = (f: string) => basename(f, extname(f));
  if (!only) return files;
  for (const d of only) if (!files.some((f) => name(f) === d)) throw new GroveError(`no data set named '${d}' in ${paths.join(', ')}`);
  return files.filter((f) => only.includes(name(f)));
}

export function registerCompare(program: Command): void {
  program
    .command('compare')
    .description('cross-validate algorithms and split measures on data sets (same stratified folds for all)')
    .option('--data <paths>', 'data files or folders, comma-separated (default: the data sets shipped with grove)', listOption)
    .option('--datasets <names>', 'only these data sets (file names without extension)', listOption)
    .option('--algorithms <names>', 'presets to compare', listOption, ['id3', 'c45', 'cart', 'zaki'])
    .option('--criteria <names>', 'split measures to compare, each grown with the --base preset', listOption, ['info-gain', 'gain-ratio', 'dcsm', 'chandra-varghese'])
    .option('--base <preset>', 'preset used for --criteria', 'cart')
    .option('--folds <k>', 'number of folds', intOption('--folds', 2), 10)
    .option('--seed <s>', 'seed of the fold assignment', intOption('--seed', 0), 1)
    .option('--json <file>', 'write every per-fold number as JSON')
    .action((flags: CompareFlags) => {
      const files = findDataFiles(flags.data ?? [BUNDLED_DATA], flags.datasets);
      if (files.length === 0) throw new GroveError('no data files found');
      const configs: Config[] = [
        ...flags.algorithms.map((a) => ({ label: a, options: { algorithm: a } })),
        ...flags.criteria.map((c) => ({ label: `${flags.base}+${c}`, options: { algorithm: flags.base, criterion: c } })),
      ];
      const results: Array<{ dataset: string; rows: number; config: string; options: FitOptions; folds: FoldResult[] }> = [];
      const started = performance.now();
      files.forEach((file, i) => {
        const data = readDataset(file);
        const dataset = basename(file, extname(file));
        for (const config of configs) {
          results.push({ dataset, rows: data.nRows, config: config.label, options: config.options, folds: crossValidate(data, config.options, flags.folds, flags.seed) });
        }
        const elapsed = (performance.now() - started) / 1000;
        const left = (elapsed / (i + 1)) * (files.length - i - 1);
        process.stderr.write(`grove: [${i + 1}/${files.length}] ${dataset} done (${elapsed.toFixed(1)} s, ~${left.toFixed(0)} s left)\n`);
      });
      if (flags.json) emit(JSON.stringify({ folds: flags.folds, seed: flags.seed, results }, null, 1) + '\n', flags.json);
      emit(renderTable(results, configs.map((c) => c.label), flags.folds));
    });
}

function renderTable(results: Array<{ dataset: string; config: string; folds: FoldResult[] }>, labels: string[], k: number): string {
  const datasets = [...new Set(results.map((r) => r.dataset))];
  const cell = (d: string, c: string) => {
    const folds = results.find((r) => r.dataset === d && r.config === c)!.folds;
    const acc = summarize(folds.map((f) => 100 * f.testAccuracy));
    const leaves = summarize(folds.map((f) => f.leaves)).mean;
    return `${acc.mean.toFixed(1)}±${acc.sd.toFixed(1)} (${leaves.toFixed(0)})`;
  };
  const width = Math.max(7, ...datasets.map((d) => d.length));
  const colWidth = Math.max(18, ...labels.map((l) => l.length));
  const lines = [`${k}-fold stratified CV: test accuracy % mean±sd (mean leaves)`, ''];
  lines.push(['dataset'.padEnd(width), ...labels.map((l) => l.padStart(colWidth))].join('  '));
  for (const d of datasets) lines.push([d.padEnd(width), ...labels.map((l) => cell(d, l).padStart(colWidth))].join('  '));
  // Average rank per configuration (1 = most accurate; ties share the mean rank).
  const ranks = labels.map(() => 0);
  for (const d of datasets) {
    const accs = labels.map((l) => summarize(results.find((r) => r.dataset === d && r.config === l)!.folds.map((f) => f.testAccuracy)).mean);
    accs.forEach((a, i) => {
      const better = accs.filter((b) => b > a).length;
      const equal = accs.filter((b) => b === a).length;
      ranks[i] += better + (equal + 1) / 2;
    });
  }
  lines.push(['avg rank'.padEnd(width), ...ranks.map((r) => (r / datasets.length).toFixed(2).padStart(colWidth))].join('  '));
  return lines.join('\n') + '\n';
}
