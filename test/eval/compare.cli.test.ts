/**
 * `grove compare` and `grove report` end to end, on the built CLI (npm test builds first): output
 * files, configurations, clean errors before any work, determinism across --jobs, Ctrl-C and --resume.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { crossValidate } from '../../src/eval/cross-validate.js';
import { readDataset } from '../../src/node.js';
import { assertBuilt, type CliResult, cliPath, lines, parseCsv, repoRoot, tmpLeftovers } from '../helpers/cli.js';

/** The CLI, with more time than the shared helper's 20 s: the whole suite shares two cores. */
function grove(args: readonly string[]): CliResult {
  const r = spawnSync(process.execPath, [cliPath, ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, GROVE_DEBUG: '' },
  });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const data = (name: string) => resolve(repoRoot, 'data', `${name}.csv`);
const tmp = () => mkdtempSync(join(tmpdir(), 'grove-compare-'));
const json = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

interface FoldRow {
  dataset: string;
  config: string;
  repeat: number;
  fold: number;
  testAccuracy: number;
  leaves: number;
}
const foldKey = (f: FoldRow) => `${f.dataset}|${f.config}|${f.repeat}|${f.fold}`;
const accuracies = (file: string) =>
  new Map((json(file).folds as FoldRow[]).map((f) => [foldKey(f), [f.testAccuracy, f.leaves]]));

beforeAll(assertBuilt);

describe('grove compare', () => {
  it('writes the table, results.json, results.csv (one row per fold) and a self-contained report', () => {
    const out = tmp();
    const r = grove([
      'compare',
      '--data',
      data('iris'),
      data('wine'),
      '--algorithms',
      'id3,c45',
      '--criteria',
      'dcsm',
      '--base',
      'id3',
      '--folds',
      '3',
      '--seed',
      '5',
      '--out',
      out,
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^3-fold stratified CV, seed 5: test accuracy/);
    expect(r.stdout).toMatch(/iris\s+\d+\.\d±\d+\.\d \(\d+\)/);
    expect(r.stdout).toMatch(/Friedman test on test accuracy \(N = 2 data sets, k = 3\)/);
    expect(r.stdout).toMatch(/Wilcoxon signed-rank/);
    // stderr: progress lines (not a TTY) and the summary; nothing else.
    expect(lines(r.stderr).at(-1)).toMatch(/^grove: 30 cells → .*results\.json, .*results\.csv, .*report\.html$/);

    const results = json(join(out, 'results.json'));
    expect(results).toMatchObject({
      format: 'grove-compare',
      version: 1,
      complete: true,
      settings: { folds: 3, repeats: 1, seed: 5, models: true },
    });
    expect(results.configs.map((c: { label: string }) => c.label)).toEqual(['id3', 'c45', 'id3+dcsm']);
    expect(results.configs[2].options).toEqual({ algorithm: 'id3', criterion: 'dcsm' });
    expect(
      results.datasets.map((d: { name: string; rows: number; sha256: string }) => [d.name, d.rows, d.sha256.length]),
    ).toEqual([
      ['iris', 150, 64],
      ['wine', 178, 64],
    ]);
    expect(results.folds).toHaveLength(2 * 3 * 3);
    expect(results.models).toHaveLength(2 * 3);
    expect(results.models[0].model.format).toBe('grove-tree');
    expect(results.explanations).toHaveLength(2 * 3);
    expect(results.statistics.accuracy.friedman.N).toBe(2);

    const csv = parseCsv(readFileSync(join(out, 'results.csv'), 'utf8'));
    expect(csv[0].slice(0, 7)).toEqual([
      'dataset',
      'config',
      'repeat',
      'fold',
      'train_rows',
      'test_rows',
      'test_accuracy',
    ]);
    expect(csv).toHaveLength(1 + 18);
    // Every configuration saw the same folds: equal test sizes per fold.
    const sizes = (config: string) => csv.filter((row) => row[0] === 'iris' && row[1] === config).map((row) => row[5]);
    expect(sizes('c45')).toEqual(sizes('id3'));

    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(tmpLeftovers(out)).toEqual([]);
  });

  it('--data takes several values or a comma list; --configs passes options (and unknown keys) to fit', () => {
    const file = join(tmp(), 'r.json');
    const r = grove([
      'compare',
      '--data',
      `${data('iris')},${data('zoo')}`,
      '--folds',
      '3',
      '--no-models',
      '--no-progress',
      '--json',
      file,
      '--configs',
      'leafy:algorithm=id3,criterion=dcsm,min-leaf=5;deep:algorithm=id3,criterion=dcsm,someFutureOption=1',
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/grove: warning: configuration 'deep': option 'someFutureOption' is not a tree option/);
    const results = json(file);
    expect(results.configs).toEqual([
      { label: 'leafy', options: { algorithm: 'id3', criterion: 'dcsm', minSamplesLeaf: 5 } },
      { label: 'deep', options: { algorithm: 'id3', criterion: 'dcsm', someFutureOption: 1 } },
    ]);
    expect(results.models).toEqual([]);
    // min-leaf 5 reached fit: fewer leaves than the same configuration without it, on every fold of zoo.
    const leaves = (c: string) =>
      results.folds.filter((f: FoldRow) => f.dataset === 'zoo' && f.config === c).map((f: FoldRow) => f.leaves);
    leaves('leafy').forEach((l: number, i: number) => expect(l).toBeLessThan(leaves('deep')[i]));
    // --configs alone replaces the default presets.
    expect(r.stdout).not.toMatch(/\bid3\b/);
  });

  it('configurations may be forests: the same folds as crossValidate with those options, no model record', async () => {
    const file = join(tmp(), 'r.json');
    const configs =
      'rf:forest=random-forest,trees=8,seed=3;et:forest=extra-trees,trees=8,criterion=dcsm;cart:algorithm=cart';
    const r = grove([
      'compare',
      '--data',
      data('iris'),
      '--folds',
      '3',
      '--no-progress',
      '--json',
      file,
      '--configs',
      configs,
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/warning/);
    const results = json(file);
    const iris = await readDataset(data('iris'));
    for (const [label, options] of [
      ['rf', { forest: 'random-forest', trees: 8, seed: 3 }],
      ['et', { forest: 'extra-trees', trees: 8, criterion: 'dcsm' }],
    ] as const) {
      const folds = results.folds
        .filter((f: FoldRow) => f.config === label)
        .sort((a: FoldRow, b: FoldRow) => a.fold - b.fold);
      const direct = crossValidate(iris, options, 3, 1);
      expect(folds.map((f: FoldRow) => [f.testAccuracy, f.leaves])).toEqual(
        direct.map((f) => [f.testAccuracy, f.leaves]),
      );
      // A forest's leaves are its trees' together: more than one tree has.
      expect(direct[0].leaves).toBeGreaterThan(8);
    }
    expect(results.models.map((m: { config: string }) => m.config)).toEqual(['cart']);
    const bad = grove(['compare', '--data', data('iris'), '--configs', 'x:forest=extra-trees,oob-score=true']);
    expect(bad.status).toBe(2);
    expect(lines(bad.stderr)).toEqual([
      expect.stringMatching(/^grove: configuration 'x': oobScore needs the bootstrap/),
    ]);
  });

  it('a name fit rejects is one clean line before any work starts', () => {
    const out = join(tmp(), 'never');
    const r = grove(['compare', '--data', data('iris'), '--algorithms', 'cart,nope', '--criteria', '', '--out', out]);
    expect(r.status).toBe(2);
    expect(lines(r.stderr)).toEqual([
      expect.stringMatching(/^grove: configuration 'nope': unknown algorithm 'nope' \(known: .*cart.*\)$/),
    ]);
    expect(existsSync(out)).toBe(false);
    const bad = grove(['compare', '--data', data('iris'), '--configs', 'x:criterion=bogus']);
    expect(bad.status).toBe(2);
    expect(lines(bad.stderr)).toHaveLength(1);
    expect(bad.stderr).toMatch(/^grove: configuration 'x': .*bogus/);
    const missing = grove(['compare', '--data', data('iris'), '--datasets', 'nothing-here']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/no data set named 'nothing-here'/);
    expect(grove(['compare', '--resume']).stderr).toMatch(/--resume needs --out/);
  });

  it('Ctrl-C keeps finished cells; --resume finishes the rest; same numbers as one uninterrupted run, whatever --jobs', async () => {
    // Unpruned presets keep it quick: 2 data sets × 3 configurations × 2 repeats × 10 folds = 120 cells.
    const args = [
      'compare',
      '--data',
      data('vehicle'),
      data('pima-indians-diabetes'),
      '--algorithms',
      'id3,zaki',
      '--criteria',
      'dcsm',
      '--base',
      'id3',
      '--repeats',
      '2',
      '--seed',
      '3',
      '--no-models',
    ];
    const out = tmp();
    const child = spawn(process.execPath, [cliPath, ...args, '--jobs', '2', '--out', out], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    const cells = join(out, 'cells.jsonl');
    const logged = () => (existsSync(cells) ? readFileSync(cells, 'utf8').split('\n').filter(Boolean).length - 1 : 0);
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const t0 = Date.now();
    while (logged() < 12 && Date.now() - t0 < 20_000) await new Promise((r) => setTimeout(r, 25));
    child.kill('SIGINT');
    const code = await exited;
    expect(code, stderr).toBe(130);
    expect(stderr).toMatch(
      /grove: interrupted: \d+ cells finished now; they are kept in .* \(add --resume to continue\)/,
    );
    expect(stdout).toMatch(/INCOMPLETE/);
    const partial = json(join(out, 'results.json'));
    expect(partial.complete).toBe(false);
    const kept = logged();
    expect(kept).toBeGreaterThanOrEqual(12);
    expect(kept).toBeLessThan(2 * 3 * 2 * 10);
    expect(partial.folds.length).toBe(kept);

    const resumed = grove([...args, '--jobs', '1', '--out', out, '--resume']);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(new RegExp(`grove: ${120 - kept} cells, ${kept} reused from the earlier run`));
    const done = json(join(out, 'results.json'));
    expect(done.complete).toBe(true);
    expect(done.folds).toHaveLength(120);

    const fresh = join(tmp(), 'fresh.json');
    const once = grove([...args, '--jobs', '2', '--json', fresh]);
    expect(once.status, once.stderr).toBe(0);
    expect(accuracies(join(out, 'results.json'))).toEqual(accuracies(fresh));
    // The same table apart from timings.
    expect(resumed.stdout.split('\n').slice(0, 8)).toEqual(once.stdout.split('\n').slice(0, 8));
  });

  it('--resume refuses a run made with other settings', () => {
    const out = tmp();
    expect(
      grove(['compare', '--data', data('iris'), '--algorithms', 'id3', '--criteria', '', '--folds', '3', '--out', out])
        .status,
    ).toBe(0);
    const r = grove([
      'compare',
      '--data',
      data('iris'),
      '--algorithms',
      'id3',
      '--criteria',
      '',
      '--folds',
      '4',
      '--out',
      out,
      '--resume',
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/cannot resume: that run used --folds 3 --repeats 1 --seed 1/);
  });
});

describe('grove report', () => {
  it('rebuilds the report from results.json; refuses other files', () => {
    const out = tmp();
    expect(
      grove([
        'compare',
        '--data',
        data('iris'),
        data('wine'),
        '--algorithms',
        'zaki',
        '--criteria',
        'dcsm',
        '--base',
        'zaki',
        '--folds',
        '3',
        '--out',
        out,
      ]).status,
    ).toBe(0);
    const page = join(out, 'again.html');
    const r = grove(['report', join(out, 'results.json'), '--out', page]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/report of 2 data sets × 2 configurations/);
    const strip = (s: string) => s.replace(/<p class="small">.*?<\/p>/, '');
    expect(strip(readFileSync(page, 'utf8'))).toBe(strip(readFileSync(join(out, 'report.html'), 'utf8')));
    const model = join(out, 'model.json');
    expect(grove(['fit', data('iris'), '--out', model]).status).toBe(0);
    const bad = grove(['report', model, '--out', join(out, 'x.html')]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^grove: .*model\.json: not a grove compare results file/);
    writeFileSync(join(out, 'broken.json'), '{"format": "grove-compare"');
    expect(grove(['report', join(out, 'broken.json')]).stderr).toMatch(/not JSON/);
    expect(existsSync(join(out, 'x.html'))).toBe(false);
  });
});
