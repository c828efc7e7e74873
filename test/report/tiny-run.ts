/** A real, tiny comparison for the report tests: iris + wine (shipped in data/) unless `files` says otherwise, 3 folds, 2 configurations, run in this thread. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type CompareOutcome, runComparison } from '../../src/compare/compare.js';
import { parseConfigs } from '../../src/eval/configs.js';

export const root = resolve(import.meta.dirname, '../..');

export async function tinyRun(
  configs = 'cart:algorithm=cart,prune=none;dcsm:algorithm=cart,criterion=dcsm,prune=none',
  files = ['iris', 'wine'].map((d) => resolve(root, 'data', `${d}.csv`)),
): Promise<CompareOutcome & { out: string }> {
  const out = mkdtempSync(join(tmpdir(), 'grove-report-'));
  const outcome = await runComparison({
    files,
    configs: parseConfigs(configs),
    folds: 3,
    repeats: 1,
    seed: 1,
    jobs: 1,
    out,
    progress: false,
  });
  return { ...outcome, out };
}

/**
 * A data set every configuration classifies perfectly (a wide gap between the classes), so
 * every accuracy is 100 % and every chart's value range has zero width. Written to `dir/name.csv`.
 */
export function separableCsv(dir: string, name = 'separable'): string {
  const lines = ['x,y'];
  for (let i = 0; i < 15; i++) lines.push(`${i},a`, `${100 + i},b`);
  const file = join(dir, `${name}.csv`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}
