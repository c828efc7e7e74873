/** The docs list what the tables hold: every option in the README, every built-in pruner in docs/pruning.md. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPTION_DESCRIPTORS } from '../../src/options/options.js';
import { BUILTIN_PRUNERS } from '../../src/prune/registry.js';
import { repoRoot } from '../helpers/cli.js';

const read = (file: string) => readFileSync(join(repoRoot, file), 'utf8');

describe('docs', () => {
  it("README's options table has a row for every option with its flag", () => {
    const readme = read('README.md');
    for (const d of OPTION_DESCRIPTORS) {
      const row = readme.split('\n').find((line) => line.startsWith(`| \`${d.name}\` |`));
      expect(row, d.name).toBeDefined();
      expect(row).toMatch(new RegExp(`\`--(no-)?${d.flag}\``));
    }
  });

  it("docs/pruning.md's table has a row for every built-in pruning method", () => {
    const doc = read('docs/pruning.md');
    for (const p of BUILTIN_PRUNERS) expect(doc).toContain(`| \`${p.name}\` |`);
  });
});
