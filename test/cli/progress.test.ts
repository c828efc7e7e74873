/**
 * Progress through the CLI, where nothing may be drawn: a stderr that is a pipe (a log), and a
 * terminal (`script`, a pseudo-terminal) with --no-progress. What is drawn on a terminal is
 * tested in fit-progress.test.ts and read-progress.test.ts with a fake one and a fake clock.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/random.js';
import { assertBuilt, cliPath, grove } from '../helpers/cli.js';

const hasScript = existsSync('/usr/bin/script');
if (!hasScript) console.warn('skipping the --no-progress terminal test: /usr/bin/script (util-linux) is not installed');

const dir = mkdtempSync(join(tmpdir(), 'grove-progress-'));

/** n noisy rows: 8 numeric features, 2 informative, 3 classes, 30 % label noise. */
function noisyCsv(n: number): string {
  const random = mulberry32(11);
  const lines = ['a,b,c,d,e,f,g,h,y'];
  for (let i = 0; i < n; i++) {
    const y = Math.floor(random() * 3);
    const v = Array.from({ length: 8 }, (_, f) => ((f < 2 ? y * 0.5 : 0) + random() * 2).toFixed(4));
    lines.push(`${v.join(',')},c${random() < 0.3 ? Math.floor(random() * 3) : y}`);
  }
  const path = join(dir, `noisy-${n}.csv`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

const ESC = String.fromCharCode(27);
const data = noisyCsv(3000);
const forest = (out: string) => ['fit', data, '--forest', 'random-forest', '--trees', '20', '--out', out];

describe('no progress where it does not belong', () => {
  it('a stderr that is not a terminal gets the summary line only', () => {
    assertBuilt();
    const r = grove(forest(join(dir, 'f1.bin')));
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/^grove: random-forest of 20 cart trees[^\r]*\n$/);
    expect(r.stderr).not.toContain(ESC);
  });

  it.skipIf(!hasScript)('a terminal with --no-progress: nothing drawn', () => {
    assertBuilt();
    const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
    const args = [...forest(join(dir, 'f2.bin')), '--no-progress'];
    const command = [process.execPath, cliPath, ...args].map(quote).join(' ');
    const r = spawnSync('/usr/bin/script', ['-qec', command, '/dev/null'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, GROVE_DEBUG: '', NO_COLOR: '1', TERM: 'xterm' },
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^grove: random-forest of 20 cart trees/);
    expect(r.stdout).not.toMatch(/growing|reading/);
    expect(r.stdout).not.toContain(ESC);
  });
});
