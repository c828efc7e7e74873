/**
 * Text from the user and the data reaches the terminal inert and bounded, on the built CLI: the
 * argument parser's messages, `info`, `show --format text|rules|dot`, warnings (the Parquet reader's
 * skipped columns, `--numeric`'s cells) and errors escape control characters (one helper:
 * `printable`/`escapeControl` in src/core/errors.ts); a newline in a name never splits a rule's
 * line; a message quoting a 3 MB name or a 1 MB cell is cut, saying how much.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_MAX, printable } from '../../src/core/errors.js';
import { assertBuilt, fixture, grove, lines } from '../helpers/cli.js';

// A terminal-title sequence (OSC … BEL), a clear-screen (CSI), a newline, a C1 control, U+2028.
const HOSTILE = ['\x1b]0;PWNED\x07', '\x1b[2J', 'a\nb', 'c\x9bd', 'e\u2028f'];
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/;

let dir: string;
let data: string;
let model: string;
const csvField = (s: string) => `"${s.replace(/"/g, '""')}"`;
beforeAll(() => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'grove-escape-'));
  // Hostile column names, categories and class labels; the tree splits on the categorical column.
  data = join(dir, 'hostile.csv');
  const rows = [[`x${HOSTILE[0]}`, `k${HOSTILE[2]}`, `class${HOSTILE[1]}`].map(csvField).join(',')];
  for (let i = 0; i < 40; i++) {
    const cat = HOSTILE[i % HOSTILE.length];
    rows.push([String(i % 7), csvField(cat), csvField(i % 5 < 2 ? `yes${HOSTILE[3]}` : `no${HOSTILE[4]}`)].join(','));
  }
  writeFileSync(data, `${rows.join('\n')}\n`);
  model = join(dir, 'model.json');
  const r = grove(['fit', data, '--prune', 'none', '--out', model]);
  expect(r.status, r.stderr).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the argument parser', () => {
  it('escapes control characters in an unknown option, a stray argument and a bad choice, on every command', () => {
    const evil = '--\x1b[2J\x1b]0;x\x07';
    for (const cmd of [
      'fit',
      'predict',
      'show',
      'export',
      'score',
      'info',
      'criteria',
      'compare',
      'report',
      'explore',
    ]) {
      const r = grove([cmd, evil]);
      expect(r.status, r.stderr).toBe(2);
      expect(lines(r.stderr)).toHaveLength(1);
      expect(r.stderr.slice(0, -1)).not.toMatch(RAW_CONTROL);
      if (r.stderr.includes('unknown option')) expect(r.stderr).toContain('\\x1b[2J');
    }
    const fit = grove(['fit', data, '--out', join(dir, 'never.json'), evil]);
    expect(fit.stderr).toMatch(/^grove: unknown option '--\\x1b\[2J\\x1b\]0;x\\x07'/);
    const stray = grove(['show', model, '\x1b[2Jmore']);
    expect(stray.status).toBe(2);
    expect(stray.stderr.slice(0, -1)).not.toMatch(RAW_CONTROL);
    const choice = grove(['show', model, '--format', 'te\x1b[2Jxt']);
    expect(choice.status).toBe(2);
    expect(choice.stderr).toContain('te\\x1b[2Jxt');
    expect(choice.stderr.slice(0, -1)).not.toMatch(RAW_CONTROL);
  }, 180_000); // thirteen CLI runs
});

describe('data-derived text', () => {
  it('info: names, categories and labels escaped', () => {
    const r = grove(['info', data]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    expect(r.stdout).toContain('x\\x1b]0;PWNED\\x07');
    expect(r.stdout).toContain("target 'class\\x1b[2J'");
  });

  it('show --format text, rules and dot: escaped; one line per rule; the fitted tree splits', () => {
    for (const format of ['text', 'rules', 'dot']) {
      const r = grove(['show', model, '--format', format]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout, format).not.toMatch(RAW_CONTROL);
    }
    const rules = lines(grove(['show', model, '--format', 'rules']).stdout);
    expect(rules.length).toBeGreaterThan(1);
    for (const rule of rules) expect(rule).toMatch(/^R\d+: IF .* THEN class\\x1b\[2J = .*\[support/);
    expect(rules.join('\n')).toContain('ka\\nb');
    const text = grove(['show', model, '--format', 'text']).stdout;
    expect(text).toContain('ka\\nb');
    const dot = grove(['show', model, '--format', 'dot']).stdout;
    // The DOT string holds the escape as text (`\\x1b` in DOT source is a backslash and x1b).
    expect(dot).toContain('ka\\\\nb');
  });

  it('the Parquet reader: a skipped column (a list) named with a terminal-title sequence is an inert warning', async () => {
    const file = join(dir, 'nested.parquet');
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const inst = await DuckDBInstance.create();
    const conn = await inst.connect();
    await conn.run(
      `COPY (SELECT [i, i + 1] AS "l\x1b]0;PWNED\x07", i % 3 AS x, CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END AS y ` +
        `FROM range(20) t(i)) TO '${file}' (FORMAT parquet)`,
    );
    conn.closeSync();
    inst.closeSync();
    const r = grove(['info', file]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning: .*l\\x1b\]0;PWNED\\x07/);
    expect(r.stderr).not.toMatch(RAW_CONTROL);
  });
});

describe('messages are bounded', () => {
  it('printable cuts in the middle and says how much', () => {
    const s = printable(`${'a'.repeat(5000)}\x1b${'b'.repeat(5000)}`);
    expect(s.length).toBeLessThan(MESSAGE_MAX + 100);
    expect(s).toMatch(/^a+… \(8,001 characters cut\) …b+$/);
    expect(printable('short\n')).toBe('short\\n');
    // A cut never splits a surrogate pair.
    expect(printable('😀'.repeat(3000))).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('an error naming a 3 MB column and a warning quoting a 1 MB cell are cut', () => {
    const name = 'n'.repeat(3_000_000);
    const dup = join(dir, 'dup.csv');
    writeFileSync(dup, `${name},${name},c\n1,2,x\n`);
    const e = grove(['fit', dup, '--out', join(dir, 'm.json')]);
    expect(e.status).toBe(2);
    expect(e.stderr.length).toBeLessThan(3 * MESSAGE_MAX);
    expect(e.stderr).toMatch(/characters cut/);
    const cell = join(dir, 'cell.csv');
    writeFileSync(cell, `x,y\n${'z'.repeat(1_000_000)},a\n1,b\n2,a\n`);
    const w = grove(['info', cell, '--numeric', 'x']);
    expect(w.status, w.stderr).toBe(0);
    expect(w.stderr.length).toBeLessThan(3 * MESSAGE_MAX);
    expect(w.stderr).toMatch(/warning: .*characters cut/);
  });
});

it('fixture sanity: the play-tennis fixture is still plain', () => {
  expect(grove(['info', fixture('play-tennis.csv')]).stdout).not.toMatch(RAW_CONTROL);
});
