/**
 * compare identifies a data set by its name and content hash: a run resumed after the folder was
 * renamed and the CSV converted to Parquet reuses every cell; changed data under the same name
 * reuses none; a cells log of the previous format is refused with a clear line.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, grove } from '../helpers/cli.js';
import { fixture } from '../helpers/paths.js';
import { convertCsv } from './convert.js';

let dir: string;
beforeAll(() => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'grove-compare-id-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ARGS = ['--algorithms', 'id3', '--criteria', '', '--folds', '3', '--no-models', '--no-progress'];

describe('compare: a data set is its name and its content', () => {
  it('renaming the folder and switching CSV → Parquet resumes every cell; other data under the name reuses none', async () => {
    const first = join(dir, 'data-a');
    mkdirSync(first);
    copyFileSync(fixture('play-tennis.csv'), join(first, 'tennis.csv'));
    const out = join(dir, 'out');
    const run = grove(['compare', '--data', first, ...ARGS, '--out', out]);
    expect(run.status, run.stderr).toBe(0);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    const cells = results.folds.length;
    expect(cells).toBe(3);

    const moved = join(dir, 'data-b');
    renameSync(first, moved);
    await convertCsv(join(moved, 'tennis.csv'), moved, 'tennis');
    rmSync(join(moved, 'tennis.csv'));
    for (const ext of ['jsonl', 'tsv', 'csv.gz', 'arrow']) rmSync(join(moved, `tennis.${ext}`));
    const resumed = grove(['compare', '--data', moved, ...ARGS, '--out', out, '--resume']);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(new RegExp(`grove: 0 cells, ${cells} reused from the earlier run`));
    const again = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    expect(again.datasets[0].sha256).toBe(results.datasets[0].sha256);
    expect(again.datasets[0].file).toMatch(/tennis\.parquet$/);

    // Other rows under the same name: nothing reused.
    const other = join(dir, 'data-c');
    mkdirSync(other);
    const text = readFileSync(fixture('play-tennis.csv'), 'utf8').trimEnd().split('\n');
    writeFileSync(join(other, 'tennis.csv'), `${text.slice(0, -1).join('\n')}\n`);
    const changed = grove(['compare', '--data', other, ...ARGS, '--out', out, '--resume']);
    expect(changed.status, changed.stderr).toBe(0);
    expect(changed.stderr).toMatch(/grove: 3 cells\s/);
  });

  it('a cells log written by the file-checksum version is refused with one line', () => {
    const out = join(dir, 'old');
    mkdirSync(out);
    const header = {
      format: 'grove-compare-cells',
      version: 1,
      settings: { folds: 3, repeats: 1, seed: 1, models: false },
      datasets: [],
    };
    writeFileSync(join(out, 'cells.jsonl'), `${JSON.stringify(header)}\n`);
    const r = grove(['compare', '--data', fixture('play-tennis.csv'), ...ARGS, '--out', out, '--resume']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /^grove: .*cells\.jsonl: cannot resume: that run was logged by another version of grove \(cells log version 1/,
    );
  });
});
