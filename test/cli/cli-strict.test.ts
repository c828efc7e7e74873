/**
 * The CLI side of issue 18's strictness items, on the BUILT binary (`npm run build` first):
 * user strings never index Object.prototype (6), every refusal is one escaped line (10) and names
 * the flag the user typed, never an API field (11).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, type CliResult, fixture, grove, lines, parseCsv } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'grove-strict-'));
const tmp = (name: string): string => join(dir, name);
const PLAY = fixture('play-tennis.csv');

beforeAll(() => assertBuilt());
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Exit 2 with exactly one printable line on stderr, matching `pattern`; nothing on stdout. */
function refused(r: CliResult, pattern: RegExp): void {
  expect(r.status, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr.endsWith('\n')).toBe(true);
  const text = r.stderr.slice(0, -1);
  expect(text).not.toMatch(CONTROL); // one printable line
  expect(text).toMatch(/^grove: /);
  expect(text).toMatch(pattern);
}

const PROTO_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];

describe('names of Object.prototype members (item 6)', () => {
  it.each(PROTO_NAMES)('refuses %s as --algorithm, --criterion and --prune', (name) => {
    const out = tmp(`m-${name}.json`);
    refused(grove(['fit', PLAY, '--out', out, '--algorithm', name]), /unknown --algorithm/);
    refused(grove(['fit', PLAY, '--out', out, '--criterion', name]), /--criterion must name a registered criterion/);
    refused(grove(['fit', PLAY, '--out', out, '--prune', name]), /--prune must be one of/);
    refused(grove(['score', PLAY, '--algorithm', name]), /unknown --algorithm/);
  });

  it('fits and predicts data whose columns and values are named like them', () => {
    const rows = ['__proto__,constructor,toString,class'];
    for (let i = 0; i < 24; i++)
      rows.push(
        `${PROTO_NAMES[i % 4]},${i % 3 === 0 ? 'valueOf' : 'toString'},${['S', 'M', 'L'][i % 3]},${PROTO_NAMES[(i >> 1) % 2]}`,
      );
    const data = tmp('proto.csv');
    writeFileSync(data, `${rows.join('\n')}\n`);
    const model = tmp('proto.json');
    const fitted = grove([
      'fit',
      data,
      '--out',
      model,
      '--prune',
      'none',
      '--class-weight',
      '__proto__=2,constructor=1',
      '--ordered',
      'toString=S,M,L',
    ]);
    expect(fitted.status, fitted.stderr).toBe(0);
    const saved = JSON.parse(readFileSync(model, 'utf8'));
    expect(saved.features.map((f: { name: string }) => f.name)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(saved.options.classWeight).toEqual(JSON.parse('{"__proto__": 2, "constructor": 1}'));
    const predicted = grove(['predict', data, '--model', model]);
    expect(predicted.status, predicted.stderr).toBe(0);
    expect(parseCsv(predicted.stdout).slice(1).flat()).toEqual(rows.slice(1).map((r) => r.split(',')[3]));
  });
});

describe('control characters in messages are escaped (item 10)', () => {
  it('in column names from a CSV header', () => {
    const data = tmp('ansi.csv');
    writeFileSync(data, '"a\x1b[31m","b\nc",class\nx,1,p\ny,2,q\n');
    const r = grove(['fit', data, '--out', tmp('ansi.json'), '--numeric', 'a\x1b[31m']);
    refused(r, /column 'a\\x1b\[31m': expected a number, found 'x'/);
    refused(grove(['fit', data, '--out', tmp('ansi.json'), '--target', 'nope']), /columns: a\\x1b\[31m, b\\nc, class/);
  });

  it('in a category value holding NUL', () => {
    const data = tmp('nul.csv');
    writeFileSync(data, 'size,class\nS\0X,p\nM,q\n');
    refused(grove(['fit', data, '--out', tmp('nul.json'), '--ordered', 'size=S,M']), /value 'S\\0X'/);
  });

  it('in a file name holding a newline', () => {
    const name = tmp('bad\nname.csv');
    refused(grove(['fit', name, '--out', tmp('x.json')]), /bad\\nname\.csv/);
    writeFileSync(name, 'a,class\n1\n');
    refused(grove(['fit', name, '--out', tmp('x.json')]), /bad\\nname\.csv, row 2: expected 2 fields, found 1/);
  });
});

describe('refusals name the flag typed, never an API field (item 11)', () => {
  const out = tmp('flags.json');
  it.each([
    [['--class-weight', 'Maybe=2'], /--class-weight names 'Maybe', which is not a class/],
    [['--class-weight', 'Yes=-1'], /--class-weight expects/],
    [['--ordered', 'Nope=a,b'], /--ordered names 'Nope', which is not a feature/],
    [['--ordered', 'Outlook=Sunny'], /is not one of the levels --ordered gives 'Outlook'/],
    [['--threads', '0'], /--threads expects/],
    [['--min-leaf', '0'], /--min-leaf expects/],
    [['--max-depth', '-1'], /--max-depth expects/],
    [['--min-leaf', '0x10'], /--min-leaf expects an integer ≥ 1, got '0x10'/],
    [['--ccp-alpha', '0x10'], /--ccp-alpha expects a number, got '0x10'/],
    [['--confidence', '0x1', '--prune', 'error-based'], /--confidence expects a number, got '0x1'/],
    [['--ccp-alpha', '1_0'], /--ccp-alpha expects a number/],
    [['--class-weight', 'Yes=0x10'], /--class-weight expects/],
    [['--confidence', '2', '--prune', 'error-based'], /--confidence must be/],
    [['--algorithm', 'nope'], /unknown --algorithm 'nope'/],
    [['--algorithm', 'cmbsv', '--missing', 'fractional'], /--missing 'majority' only/],
    [['--criterion', 'twoing', '--categorical-split', 'multiway'], /use --categorical-split 'binary'/],
  ])('fit %j', (flags, pattern) => {
    const r = grove(['fit', PLAY, '--out', out, ...flags]);
    refused(r, pattern);
    expect(r.stderr).not.toMatch(/classWeight|orderedCategories|minSamplesLeaf|maxDepth|categoricalSplit/);
  });

  it('predict and score', () => {
    const model = tmp('play.json');
    expect(grove(['fit', PLAY, '--out', model]).status).toBe(0);
    refused(grove(['predict', PLAY, '--model', model, '--knn-k', '0']), /--knn-k expects/);
    refused(grove(['predict', PLAY, '--model', model, '--unclassified', 'toString']), /--unclassified must be one of/);
    refused(grove(['score', PLAY, '--min-leaf', 'x']), /--min-leaf expects/);
    expect(lines(grove(['score', PLAY, '--criterion', 'constructor']).stderr)).toHaveLength(1);
  });

  it('compare names options by the configuration keys written', () => {
    const compare = (configs: string) => grove(['compare', '--data', PLAY, '--configs', configs, '--no-progress']);
    refused(compare('a:min-leaf=0'), /configuration 'a': min-leaf must be an integer ≥ 1, got 0$/);
    refused(compare('a:min-leaf=0x10'), /configuration 'a': min-leaf must be an integer ≥ 1, got 0x10$/);
    refused(compare('[{"label": "b", "ccp-alpha": -1}]'), /configuration 'b': ccp-alpha must be/);
    // Before any work (the output folder is not made): an optimal configuration with a key of greedy trees.
    const out = tmp('optimal-refused');
    refused(
      grove(['compare', '--data', PLAY, '--configs', 'o:optimal=true,max-depth=2,criterion=dcsm', '--out', out]),
      /configuration 'o': optimal trees take no criterion/,
    );
    expect(existsSync(out)).toBe(false);
  });
});
