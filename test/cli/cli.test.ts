/**
 * End-to-end tests of the `grove` CLI: every test runs the BUILT binary (dist/cli/main.js) as a
 * child process. `npm test` builds first (pretest); otherwise run `npm run build` before this file.
 */

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, type CliResult, fixture, grove, lines, parseCsv, tmpLeftovers } from '../helpers/cli.js';

// ---------------------------------------------------------------------------------------------
// Shared state: one temp dir for the whole file, a few models fitted once.
// ---------------------------------------------------------------------------------------------

const dir = mkdtempSync(join(tmpdir(), 'grove-cli-'));
const tmp = (name: string): string => join(dir, name);

const PLAY = fixture('play-tennis.csv');
const TAX = fixture('taxable-income.csv');
const WEATHER = fixture('weather.arff');
const PLAY_LABELS = ['No', 'No', 'Yes', 'Yes', 'Yes', 'No', 'Yes', 'No', 'Yes', 'Yes', 'Yes', 'Yes', 'Yes', 'No'];

const ALL_CRITERIA = [
  'info-gain',
  'gain-ratio',
  'normalized-gain',
  'average-gain',
  'gini',
  'twoing',
  'chi-square',
  'g-statistic',
  'dcsm',
  'chandra-varghese',
  'hellinger',
];

/** Unpruned ID3 tree on play-tennis (fitted in beforeAll). */
const ID3_MODEL = tmp('id3.json');
/** The same data with the target column (Play, the last one) dropped. */
const PLAY_NO_TARGET = tmp('play-no-target.csv');

interface SavedNode {
  counts: number[];
  n: number;
  depth: number;
  split?: { kind: string; feature: number; thresholds?: number[]; values?: number[]; left?: number[] };
  children?: number[];
}
interface SavedModel {
  format: string;
  version: number;
  target: string;
  features: Array<{ name: string; kind: string; categories?: string[] }>;
  classes: Array<string | number>;
  options: Record<string, unknown>;
  nodes: SavedNode[];
}

function readModel(path: string): SavedModel {
  return JSON.parse(readFileSync(path, 'utf8')) as SavedModel;
}

/** Height of the saved tree, computed from the child links (not from the `depth` fields). */
function treeHeight(model: SavedModel): number {
  const walk = (i: number): number => {
    const kids = model.nodes[i].children ?? [];
    return kids.length === 0 ? 0 : 1 + Math.max(...kids.map(walk));
  };
  return walk(0);
}

function rootFeature(model: SavedModel): string | undefined {
  const split = model.nodes[0].split;
  return split ? model.features[split.feature]?.name : undefined;
}

/** Expect success (exit 0) and show stderr when it is not. */
function expectOk(r: CliResult): void {
  expect(r.status, `exit code; stderr:\n${r.stderr}`).toBe(0);
  expect(r.stderr).not.toMatch(/^\s{4}at /m);
}

/** Predictions (the `predicted` column) from the CLI's CSV output. */
function predictedColumn(csv: string): string[] {
  const rows = parseCsv(csv);
  expect(rows[0][0]).toBe('predicted');
  return rows.slice(1).map((r) => r[0]);
}

/** Fit a model and fail loudly if that does not work (used in setup). */
function fitOrThrow(args: string[]): void {
  const r = grove(['fit', ...args]);
  if (r.status !== 0) throw new Error(`setup: grove fit ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
}

beforeAll(() => {
  assertBuilt();
  fitOrThrow([PLAY, '--target', 'Play', '--algorithm', 'id3', '--out', ID3_MODEL]);
  const text = readFileSync(PLAY, 'utf8');
  writeFileSync(
    PLAY_NO_TARGET,
    text
      .split('\n')
      .map((l) => (l === '' ? l : l.split(',').slice(0, -1).join(',')))
      .join('\n'),
  );
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// fit
// ---------------------------------------------------------------------------------------------

describe('grove fit', () => {
  it('writes a grove-tree v1 model; --algorithm id3 on play-tennis splits the root on Outlook', () => {
    // The model itself was written in beforeAll; check the run here so its output is asserted too.
    const out = tmp('fit-id3.json');
    const r = grove(['fit', PLAY, '--target', 'Play', '--algorithm', 'id3', '--out', out]);
    expectOk(r);
    expect(r.stdout).toBe(''); // stdout stays clean: the summary goes to stderr
    const model = readModel(out);
    expect(model.format).toBe('grove-tree');
    expect(model.version).toBe(1);
    expect(model.target).toBe('Play');
    expect(model.features.map((f) => f.name)).toEqual(['Outlook', 'Temperature', 'Humidity', 'Wind']);
    expect([...model.classes].sort()).toEqual(['No', 'Yes']);
    expect(model.options).toMatchObject({ algorithm: 'id3', criterion: 'info-gain', categoricalSplit: 'multiway' });
    expect(rootFeature(model)).toBe('Outlook');
    expect(model.nodes[0].split?.kind).toBe('multiway');
    expect(model.nodes[0].n).toBe(14);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(ID3_MODEL, 'utf8')); // deterministic
    expect(tmpLeftovers(dir)).toEqual([]);
  });

  it('records the options it was given (explicit values win over the preset)', () => {
    const out = tmp('fit-options.json');
    const r = grove(
      [
        'fit',
        TAX,
        '--target',
        'Cheat',
        '--algorithm',
        'zaki',
        '--criterion',
        'gain-ratio',
        '--categorical-split',
        'binary',
        '--max-depth',
        '3',
        '--min-leaf',
        '2',
        '--min-split',
        '4',
        '--purity',
        '0.9',
      ].concat(['--out', out]),
    );
    expectOk(r);
    const model = readModel(out);
    expect(model.format).toBe('grove-tree');
    expect(model.target).toBe('Cheat');
    expect(model.options).toMatchObject({
      algorithm: 'zaki',
      criterion: 'gain-ratio',
      categoricalSplit: 'binary',
      maxDepth: 3,
      minSamplesLeaf: 2,
      minSamplesSplit: 4,
      purity: 0.9,
    });
    expect(treeHeight(model)).toBeLessThanOrEqual(3);
  });

  it('--max-depth 1 gives a tree of height ≤ 1 (and `show --format stats` agrees)', () => {
    const out = tmp('fit-depth1.json');
    expectOk(grove(['fit', PLAY, '--target', 'Play', '--algorithm', 'id3', '--max-depth', '1', '--out', out]));
    const model = readModel(out);
    expect(model.options.maxDepth).toBe(1);
    expect(treeHeight(model)).toBeLessThanOrEqual(1);
    expect(rootFeature(model)).toBe('Outlook');
    const stats = grove(['show', out, '--format', 'stats']);
    expectOk(stats);
    expect((JSON.parse(stats.stdout) as { height: number }).height).toBeLessThanOrEqual(1);
  });

  it('one class only is not an error: exit 0, a warning on stderr, a one-leaf model', () => {
    const out = tmp('one-class.json');
    const r = grove(['fit', fixture('one-class.csv'), '--out', out]);
    expectOk(r);
    expect(r.stdout).toBe('');
    const warnings = lines(r.stderr).filter((l) => /^grove: warning:/.test(l));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/class/);
    const model = readModel(out);
    expect(model.classes).toEqual(['yes']);
    expect(model.nodes).toHaveLength(1);
    expect(model.nodes[0].children).toBeUndefined();
    // and the one-leaf model predicts that class for every row
    const p = grove(['predict', '--model', out, fixture('one-class.csv')]);
    expectOk(p);
    expect(predictedColumn(p.stdout)).toEqual(['yes', 'yes', 'yes', 'yes', 'yes']);
  });
});

// ---------------------------------------------------------------------------------------------
// predict
// ---------------------------------------------------------------------------------------------

describe('grove predict', () => {
  it('writes CSV to stdout: header `predicted`, one row per input row; unpruned id3 reproduces the training labels', () => {
    const r = grove(['predict', '--model', ID3_MODEL, PLAY]);
    expectOk(r);
    const rows = parseCsv(r.stdout);
    expect(rows[0]).toEqual(['predicted']);
    expect(rows).toHaveLength(1 + 14);
    expect(predictedColumn(r.stdout)).toEqual(PLAY_LABELS);
  });

  it('ignores a target column in DATA: same predictions with the column removed', () => {
    const withTarget = grove(['predict', '--model', ID3_MODEL, PLAY, '--proba']);
    const without = grove(['predict', '--model', ID3_MODEL, PLAY_NO_TARGET, '--proba']);
    expectOk(withTarget);
    expectOk(without);
    expect(without.stdout).toBe(withTarget.stdout);
    expect(predictedColumn(without.stdout)).toEqual(PLAY_LABELS);
  });

  it('matches columns by name and categories by value (columns and rows in another order)', () => {
    const text = readFileSync(PLAY, 'utf8').trimEnd().split('\n');
    const flip = (l: string): string => l.split(',').reverse().join(',');
    const shuffled = tmp('play-reordered.csv');
    writeFileSync(shuffled, `${[flip(text[0]), ...text.slice(1).reverse().map(flip)].join('\n')}\n`);
    const r = grove(['predict', '--model', ID3_MODEL, shuffled]);
    expectOk(r);
    expect(predictedColumn(r.stdout)).toEqual([...PLAY_LABELS].reverse());
  });

  it('--proba adds one column per class (header = class names); each row sums to 1', () => {
    const model = tmp('depth1.json');
    fitOrThrow([PLAY, '--target', 'Play', '--algorithm', 'id3', '--max-depth', '1', '--out', model]);
    const classes = readModel(model).classes.map(String);
    const r = grove(['predict', '--model', model, PLAY, '--proba']);
    expectOk(r);
    const rows = parseCsv(r.stdout);
    expect(rows[0]).toEqual(['predicted', ...classes]);
    expect(rows).toHaveLength(1 + 14);
    for (const row of rows.slice(1)) {
      expect(row).toHaveLength(1 + classes.length);
      const p = row.slice(1).map(Number);
      for (const x of p) expect(x >= 0 && x <= 1).toBe(true);
      expect(Math.abs(p.reduce((a, b) => a + b, 0) - 1)).toBeLessThan(1e-5);
      expect(row[0]).toBe(classes[p.indexOf(Math.max(...p))]); // predicted = most probable class
    }
    // Row 1 is Sunny: the Sunny leaf has 3 No / 2 Yes.
    const no = classes.indexOf('No');
    expect(Number(rows[1][1 + no])).toBeCloseTo(0.6, 5);
    expect(Number(rows[1][2 - no])).toBeCloseTo(0.4, 5);
    expect(rows[1][0]).toBe('No');
    // Overcast (row 3) is a pure Yes leaf.
    expect(Number(rows[3][1 + classes.indexOf('Yes')])).toBe(1);
  });

  it('--proba with three classes (fractions that do not round to 1 exactly) still sums to 1', () => {
    const data = tmp('three.csv');
    writeFileSync(data, 'x,c\n1,a\n2,a\n3,b\n3,c\n3,b\n4,c\n');
    const model = tmp('three.json');
    fitOrThrow([data, '--out', model]);
    const r = grove(['predict', '--model', model, data, '--proba']);
    expectOk(r);
    const rows = parseCsv(r.stdout);
    expect(rows[0]).toEqual(['predicted', ...readModel(model).classes.map(String)]);
    expect(rows).toHaveLength(7);
    for (const row of rows.slice(1)) {
      expect(
        Math.abs(
          row
            .slice(1)
            .map(Number)
            .reduce((a, b) => a + b, 0) - 1,
        ),
      ).toBeLessThan(1e-5);
    }
  });

  it('--out writes the file and prints nothing to stdout', () => {
    const out = tmp('predictions.csv');
    const r = grove(['predict', '--model', ID3_MODEL, PLAY, '--proba', '--out', out]);
    expectOk(r);
    expect(r.stdout).toBe('');
    expect(existsSync(out)).toBe(true);
    const toStdout = grove(['predict', '--model', ID3_MODEL, PLAY, '--proba']);
    expect(readFileSync(out, 'utf8')).toBe(toStdout.stdout);
    expect(tmpLeftovers(dir)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// ARFF
// ---------------------------------------------------------------------------------------------

describe('ARFF input', () => {
  it('fit + predict on weather.arff work and agree with the CSV of the same table', () => {
    const model = tmp('weather.json');
    const r = grove(['fit', WEATHER, '--algorithm', 'id3', '--out', model]);
    expectOk(r);
    const m = readModel(model);
    expect(m.format).toBe('grove-tree');
    expect(m.target).toBe('Play'); // last attribute by default
    expect(rootFeature(m)).toBe('Outlook');
    const p = grove(['predict', '--model', model, WEATHER]);
    expectOk(p);
    expect(predictedColumn(p.stdout)).toEqual(PLAY_LABELS);
    // a model fitted on the CSV predicts the ARFF rows the same way
    const cross = grove(['predict', '--model', ID3_MODEL, WEATHER]);
    expectOk(cross);
    expect(cross.stdout).toBe(p.stdout);
  });
});

// ---------------------------------------------------------------------------------------------
// show
// ---------------------------------------------------------------------------------------------

describe('grove show', () => {
  it('--format text (the default) prints the split lines', () => {
    const r = grove(['show', ID3_MODEL]);
    expectOk(r);
    for (const v of ['Sunny', 'Overcast', 'Rain']) expect(r.stdout).toMatch(new RegExp(`^Outlook = ${v}`, 'm'));
    expect(r.stdout).toMatch(/Humidity = High/);
    expect(r.stdout).toMatch(/Wind = Strong/);
    expect(r.stdout).not.toMatch(/Temperature =/); // not used by the id3 tree
  });

  it('--format rules has one IF ... THEN line per leaf (count = leaves from --format stats)', () => {
    const rules = grove(['show', ID3_MODEL, '--format', 'rules']);
    const stats = grove(['show', ID3_MODEL, '--format', 'stats']);
    expectOk(rules);
    expectOk(stats);
    const s = JSON.parse(stats.stdout) as { leaves: number; nodes: number; height: number };
    expect(s).toMatchObject({ leaves: 5, nodes: 8, height: 2 });
    const ruleLines = lines(rules.stdout).filter((l) => /\bIF\b.*\bTHEN\b/.test(l));
    expect(ruleLines).toHaveLength(s.leaves);
    expect(ruleLines.some((l) => /IF Outlook = Overcast THEN Play = Yes/.test(l))).toBe(true);
  });

  it('--format dot starts with digraph', () => {
    const r = grove(['show', ID3_MODEL, '--format', 'dot']);
    expectOk(r);
    expect(r.stdout.startsWith('digraph')).toBe(true);
    expect(r.stdout.trimEnd().endsWith('}')).toBe(true);
    expect(r.stdout).toMatch(/->/);
  });

  it('--format json parses and equals the saved model', () => {
    const r = grove(['show', ID3_MODEL, '--format', 'json']);
    expectOk(r);
    expect(JSON.parse(r.stdout)).toEqual(readModel(ID3_MODEL));
  });
});

// ---------------------------------------------------------------------------------------------
// score
// ---------------------------------------------------------------------------------------------

interface ScoreReport {
  criterion: string;
  better: 'higher' | 'lower';
  attributes: Array<{ name: string; type: string; score: number | null; split: Record<string, unknown> | null }>;
  best: string;
}

function score(args: string[]): ScoreReport {
  const r = grove(['score', ...args, '--json']);
  expectOk(r);
  return JSON.parse(r.stdout) as ScoreReport;
}

const attr = (report: ScoreReport, name: string) => {
  const a = report.attributes.find((x) => x.name === name);
  if (!a) throw new Error(`no attribute ${name} in ${JSON.stringify(report)}`);
  return a;
};

describe('grove score --json', () => {
  it('play-tennis, info-gain, multiway: Outlook 0.2467 is best, higher is better (tutorial values)', () => {
    const report = score([PLAY, '--target', 'Play', '--criterion', 'info-gain', '--categorical-split', 'multiway']);
    expect(Object.keys(report).sort()).toEqual(['attributes', 'best', 'better', 'criterion']);
    expect(report.criterion).toBe('info-gain');
    expect(report.better).toBe('higher');
    expect(report.best).toBe('Outlook');
    expect(report.attributes.map((a) => a.name)).toEqual(['Outlook', 'Temperature', 'Humidity', 'Wind']);
    for (const a of report.attributes) {
      expect(Object.keys(a).sort()).toEqual(['name', 'score', 'split', 'type']);
      expect(a.type).toBe('categorical');
      expect(a.split).toHaveProperty('values'); // multiway: one branch per value
    }
    // The tutorial prints 0.246 (truncated); the exact value is 0.24675.
    expect(Math.abs(attr(report, 'Outlook').score! - 0.2467)).toBeLessThan(5e-4);
    expect(Math.abs(attr(report, 'Temperature').score! - 0.029)).toBeLessThan(1e-3);
    expect(Math.abs(attr(report, 'Humidity').score! - 0.151)).toBeLessThan(1e-3);
    expect(Math.abs(attr(report, 'Wind').score! - 0.048)).toBeLessThan(1e-3);
    expect((attr(report, 'Outlook').split as { values: string[] }).values.slice().sort()).toEqual([
      'Overcast',
      'Rain',
      'Sunny',
    ]);
  });

  it('binary categorical split reports `left` (not `values`)', () => {
    const report = score([PLAY, '--target', 'Play', '--criterion', 'info-gain', '--categorical-split', 'binary']);
    for (const a of report.attributes) {
      expect(a.split).toHaveProperty('left');
      expect(a.split).not.toHaveProperty('values');
      expect(Array.isArray((a.split as { left: unknown }).left)).toBe(true);
    }
    expect(report.best).toBe('Outlook');
  });

  it('taxable-income, gini: TaxableIncome threshold 97.5 with 0.300; lower is better', () => {
    const report = score([TAX, '--target', 'Cheat', '--criterion', 'gini']);
    expect(report.criterion).toBe('gini');
    expect(report.better).toBe('lower');
    const income = attr(report, 'TaxableIncome');
    expect(income.type).toBe('numeric');
    expect(income.split).toEqual({ threshold: 97.5 });
    expect(Math.abs(income.score! - 0.3)).toBeLessThan(5e-4);
    // Gini(BuyHouse) = 12/35 in the tutorial
    expect(Math.abs(attr(report, 'BuyHouse').score! - 12 / 35)).toBeLessThan(1e-9);
    // the best attribute has the lowest score
    const scores = report.attributes.map((a) => a.score).filter((s): s is number => s !== null);
    expect(attr(report, report.best).score).toBe(Math.min(...scores));
  });

  it('dcsm reports better = lower and picks the attribute with the lowest score', () => {
    const report = score([PLAY, '--target', 'Play', '--criterion', 'dcsm']);
    expect(report.criterion).toBe('dcsm');
    expect(report.better).toBe('lower');
    const scores = report.attributes.map((a) => a.score).filter((s): s is number => s !== null);
    expect(attr(report, report.best).score).toBe(Math.min(...scores));
  });
});

// ---------------------------------------------------------------------------------------------
// criteria, help, unknown command
// ---------------------------------------------------------------------------------------------

describe('grove criteria', () => {
  it('lists all eleven measures with their direction (text and --json agree)', () => {
    const text = grove(['criteria']);
    const json = grove(['criteria', '--json']);
    expectOk(text);
    expectOk(json);
    const parsed = JSON.parse(json.stdout) as { criteria: Array<{ name: string; better: string }> };
    expect(parsed.criteria.map((c) => c.name).sort()).toEqual([...ALL_CRITERIA].sort());
    const direction = new Map(parsed.criteria.map((c) => [c.name, c.better]));
    expect(direction.get('info-gain')).toBe('higher');
    expect(direction.get('gini')).toBe('lower');
    expect(direction.get('dcsm')).toBe('lower');
    for (const name of ALL_CRITERIA) {
      expect(['higher', 'lower']).toContain(direction.get(name));
      const line = lines(text.stdout).find((l) => l.startsWith(`${name} `));
      expect(line, `criteria line for ${name}`).toBeDefined();
      expect(line).toMatch(new RegExp(`^${name}\\s+${direction.get(name)}\\b`));
    }
  });
});

describe('usage', () => {
  it('grove --help exits 0 and lists the commands', () => {
    const r = grove(['--help']);
    expect(r.status).toBe(0);
    for (const c of ['fit', 'predict', 'show', 'score', 'criteria']) expect(r.stdout).toMatch(new RegExp(`\\b${c}\\b`));
  });

  it('an unknown command exits 2 without a stack trace', () => {
    const r = grove(['frobnicate']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^grove: unknown command 'frobnicate'/);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('a missing required option is one grove: line with exit 2', () => {
    const r = grove(['predict', fixture('play-tennis.csv')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^grove: required option '--model <model>' not specified/);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('--threads takes a count or auto; anything else is one grove: line with exit 2', () => {
    const out = tmp('threads.json');
    expect(grove(['fit', fixture('play-tennis.csv'), '--threads', '2', '--out', out]).status).toBe(0);
    expect(grove(['fit', fixture('play-tennis.csv'), '--threads', 'auto', '--out', out]).status).toBe(0);
    const r = grove(['fit', fixture('play-tennis.csv'), '--threads', 'many', '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^grove: option --threads expects an integer ≥ 1 or 'auto', got 'many'/);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------------------------
// Bad input: exit 2, one `grove:` line naming the problem, no stack trace, no output file.
// ---------------------------------------------------------------------------------------------

/** Bad model files, written before the error tests run. */
const NOT_OURS = tmp('other.json');
const CHILD_OUT_OF_RANGE = tmp('corrupt-child.json');
const TRUNCATED = tmp('corrupt-truncated.json');
const PACKAGE_JSON = fixture('../../package.json');

interface BadCase {
  name: string;
  /** Arguments; `out` is a fresh path that must not exist afterwards. */
  args: (out: string) => string[];
  /** Substrings the single error line must contain (file, row, column, offending value...). */
  mentions: string[];
}

const badCases: BadCase[] = [
  {
    name: 'fit: missing data file',
    args: (out) => ['fit', tmp('no-such.csv'), '--out', out],
    mentions: [tmp('no-such.csv')],
  },
  {
    name: 'fit: unknown target column',
    args: (out) => ['fit', PLAY, '--target', 'Nope', '--out', out],
    mentions: [PLAY, 'Nope'],
  },
  {
    name: 'fit: unknown criterion',
    args: (out) => ['fit', PLAY, '--criterion', 'no-such-measure', '--out', out],
    mentions: ['no-such-measure'],
  },
  {
    name: 'fit: a column forced numeric with no number in it',
    args: (out) => ['fit', PLAY, '--numeric', 'Outlook', '--out', out],
    mentions: [PLAY, 'row 2', "column 'Outlook'", 'Sunny'],
  },
  {
    name: 'fit: empty file',
    args: (out) => ['fit', fixture('bad-empty.csv'), '--out', out],
    mentions: [fixture('bad-empty.csv'), 'empty'],
  },
  {
    name: 'fit: header-only file',
    args: (out) => ['fit', fixture('bad-header-only.csv'), '--out', out],
    mentions: [fixture('bad-header-only.csv'), 'no data rows'],
  },
  {
    name: 'fit: ragged row',
    args: (out) => ['fit', fixture('bad-ragged.csv'), '--out', out],
    mentions: [fixture('bad-ragged.csv'), 'row 4', 'expected 3 fields, found 2'],
  },
  {
    name: 'fit: unknown --algorithm',
    args: (out) => ['fit', PLAY, '--algorithm', 'no-such-algo', '--out', out],
    mentions: ['no-such-algo'],
  },
  {
    name: 'fit: --max-depth -1',
    args: (out) => ['fit', PLAY, '--max-depth', '-1', '--out', out],
    mentions: ['--max-depth', '-1'],
  },
  {
    name: 'fit: --purity abc',
    args: (out) => ['fit', PLAY, '--purity', 'abc', '--out', out],
    mentions: ['--purity', 'abc'],
  },
  {
    name: 'fit: twoing with --categorical-split multiway',
    args: (out) => ['fit', PLAY, '--criterion', 'twoing', '--categorical-split', 'multiway', '--out', out],
    mentions: ['twoing'],
  },
  {
    name: 'fit: --out in a directory that does not exist',
    args: (out) => ['fit', PLAY, '--out', join(out, 'model.json')],
    mentions: [join(tmp('fit-out-dir'), 'model.json')],
  },
  {
    name: 'score: twoing with --categorical-split multiway',
    args: () => ['score', PLAY, '--criterion', 'twoing', '--categorical-split', 'multiway', '--json'],
    mentions: ['twoing'],
  },
  {
    name: 'score: unknown criterion',
    args: () => ['score', PLAY, '--criterion', 'no-such-measure', '--json'],
    mentions: ['no-such-measure'],
  },
  {
    name: 'score: ragged row',
    args: () => ['score', fixture('bad-ragged.csv'), '--criterion', 'gini', '--json'],
    mentions: [fixture('bad-ragged.csv'), 'row 4'],
  },
  {
    name: 'predict: missing data file',
    args: (out) => ['predict', '--model', ID3_MODEL, tmp('no-such.csv'), '--out', out],
    mentions: [tmp('no-such.csv')],
  },
  {
    name: 'predict: ragged row in DATA',
    args: (out) => ['predict', '--model', ID3_MODEL, fixture('bad-ragged.csv'), '--out', out],
    mentions: [fixture('bad-ragged.csv'), 'row 4'],
  },
  {
    name: 'predict: missing model file',
    args: (out) => ['predict', '--model', tmp('no-such-model.json'), PLAY, '--out', out],
    mentions: [tmp('no-such-model.json')],
  },
  ...(
    [
      ['package.json as a model', PACKAGE_JSON, ['not a grove model']],
      ['a JSON file with {"format":"other"}', NOT_OURS, ['not a grove model']],
      ['a model with a child index out of range', CHILD_OUT_OF_RANGE, ['corrupt', 'out of range']],
      ['a truncated model', TRUNCATED, []],
    ] as Array<[string, string, string[]]>
  ).flatMap(([what, model, words]): BadCase[] => [
    { name: `show: ${what}`, args: (out) => ['show', model, '--out', out], mentions: [model, ...words] },
    {
      name: `predict: ${what}`,
      args: (out) => ['predict', '--model', model, PLAY, '--out', out],
      mentions: [model, ...words],
    },
  ]),
];

describe('bad input', () => {
  beforeAll(() => {
    writeFileSync(NOT_OURS, '{"format":"other"}\n');
    const good = readFileSync(ID3_MODEL, 'utf8');
    const model = JSON.parse(good) as SavedModel;
    const root = model.nodes[0];
    expect(root.children?.length).toBeGreaterThan(0);
    root.children![root.children!.length - 1] = model.nodes.length + 5; // points past the last node
    writeFileSync(CHILD_OUT_OF_RANGE, JSON.stringify(model));
    writeFileSync(TRUNCATED, good.slice(0, Math.floor(good.length / 2)));
  });

  it.each(badCases.map((c, i) => ({ ...c, i })))('$name', ({ args, mentions, i, name }) => {
    const out = tmp(name.startsWith('fit: --out') ? 'fit-out-dir' : `bad-${i}.out`);
    const r = grove(args(out));
    expect(r.status, `exit code; stderr:\n${r.stderr}`).toBe(2);
    expect(r.stdout).toBe('');
    const errLines = lines(r.stderr);
    expect(errLines, 'exactly one line on stderr').toHaveLength(1);
    expect(errLines[0]).toMatch(/^grove: /);
    expect(errLines[0]).not.toMatch(/internal error/);
    expect(r.stderr).not.toMatch(/^\s{4}at /m);
    for (const m of mentions) expect(errLines[0]).toContain(m);
    expect(existsSync(out), `${out} must not be created`).toBe(false);
    expect(tmpLeftovers(dir)).toEqual([]);
  });
});
