/** A real, tiny comparison for the report tests: iris + wine (shipped in data/), 3 folds, 2 configurations, run in this thread. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type CompareOutcome, runComparison } from '../../src/compare/compare.js';
import { parseConfigs } from '../../src/eval/configs.js';

export const root = resolve(import.meta.dirname, '../..');

export async function tinyRun(
  configs = 'cart:algorithm=cart,prune=none;dcsm:algorithm=cart,criterion=dcsm,prune=none',
): Promise<CompareOutcome & { out: string }> {
  const out = mkdtempSync(join(tmpdir(), 'grove-report-'));
  const outcome = await runComparison({
    files: ['iris', 'wine'].map((d) => resolve(root, 'data', `${d}.csv`)),
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
