/** `grove export`: formats, flags and bad input (one line on stderr, exit 2, nothing written). */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, fixture, grove, lines, tmpLeftovers } from '../helpers/cli.js';

let dir: string;
let model: string;

beforeAll(() => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'grove-export-cli-'));
  model = join(dir, 'tennis.json');
  const r = grove(['fit', fixture('play-tennis.csv'), '--algorithm', 'id3', '--out', model]);
  expect(r.status).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Expect a one-line error naming `pattern`, exit 2, and no file at `out` (when given). */
function expectBadInput(args: string[], pattern: RegExp, out?: string): void {
  const r = grove(args);
  expect(r.status).toBe(2);
  expect(r.stdout).toBe('');
  expect(lines(r.stderr)).toHaveLength(1);
  expect(r.stderr).toMatch(pattern);
  expect(r.stderr).not.toMatch(/\bat .*\.js:\d+/);
  if (out) expect(existsSync(out)).toBe(false);
  expect(tmpLeftovers(dir)).toEqual([]);
}

describe('grove export', () => {
  it('writes an ONNX file with --out', () => {
    const out = join(dir, 'tennis.onnx');
    const r = grove(['export', model, '--format', 'onnx', '--out', out]);
    expect(r.status).toBe(0);
    const bytes = readFileSync(out);
    // A protobuf ModelProto starts with field 1 (ir_version, varint): tag byte 0x08.
    expect(bytes[0]).toBe(0x08);
    expect(bytes.includes(Buffer.from('TreeEnsembleClassifier'))).toBe(true);
  });

  it('prints a SQL query for each dialect, probabilities named like grove predict --proba', () => {
    for (const dialect of ['duckdb', 'postgres', 'clickhouse']) {
      const r = grove(['export', model, '--format', 'sql', '--dialect', dialect, '--table', 'my rows', '--proba']);
      expect(r.status).toBe(0);
      // The table's columns first: t.* (ClickHouse, after its WITH), or the row carried through the walk.
      expect(r.stdout).toMatch(
        /^(WITH\n[\s\S]*\nSELECT t\.\*|SELECT unnest\(q\.grove_row\)|SELECT \(q\.grove_row\)\.\*),/,
      );
      const q = dialect === 'clickhouse' ? '`' : '"';
      expect(r.stdout).toContain(`FROM ${q}my rows${q} AS ${dialect === 'clickhouse' ? 't' : 'grove_t'}`);
      expect(r.stdout).toContain(`AS ${q}predicted${q}`);
      expect(r.stdout).toContain(`AS ${q}No${q}`);
      expect(r.stdout).toContain(`AS ${q}Yes${q}`);
    }
    const header = grove(['predict', fixture('play-tennis.csv'), '--model', model, '--proba']).stdout.split('\n')[0];
    expect(header).toBe('predicted,No,Yes');
  });

  it('writes the SQL to --out', () => {
    const out = join(dir, 'q.sql');
    const r = grove(['export', model, '--format', 'sql', '--dialect', 'postgres', '--table', 's.rows', '--out', out]);
    expect(r.status).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('FROM "s"."rows" AS grove_t');
  });

  it('warns on stderr when a fractional model is approximated', () => {
    const c45 = join(dir, 'c45.json');
    expect(grove(['fit', fixture('play-tennis.csv'), '--algorithm', 'c45', '--out', c45]).status).toBe(0);
    const r = grove(['export', c45, '--format', 'sql', '--dialect', 'duckdb', '--table', 't']);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/^grove: warning: .*fractional/);
  });

  describe('bad input', () => {
    it('a model file that fails validation', () => {
      const bad = join(dir, 'bad.json');
      const json = JSON.parse(readFileSync(model, 'utf8'));
      json.nodes[0].children = [99];
      writeFileSync(bad, JSON.stringify(json));
      const out = join(dir, 'bad.onnx');
      expectBadInput(['export', bad, '--format', 'onnx', '--out', out], /bad\.json/, out);
      expectBadInput(
        ['export', bad, '--format', 'sql', '--dialect', 'duckdb', '--table', 't', '--out', out],
        /bad\.json/,
        out,
      );
    });

    it('an unknown format or dialect', () => {
      const out = join(dir, 'x.out');
      expectBadInput(['export', model, '--format', 'pmml', '--out', out], /--format must be one of onnx, sql/, out);
      expectBadInput(
        ['export', model, '--format', 'sql', '--dialect', 'oracle', '--table', 't'],
        /--dialect must be one of/,
      );
    });

    it('flags that do not fit the format', () => {
      const out = join(dir, 'y.onnx');
      expectBadInput(['export', model, '--format', 'onnx'], /--out/);
      expectBadInput(
        ['export', model, '--format', 'onnx', '--out', out, '--dialect', 'duckdb'],
        /--dialect applies to --format sql/,
        out,
      );
      expectBadInput(['export', model, '--format', 'sql', '--table', 't'], /--dialect/);
      expectBadInput(['export', model, '--format', 'sql', '--dialect', 'duckdb'], /--table/);
      expectBadInput(['export', model, '--format', 'sql', '--dialect', 'duckdb', '--table', 'a..b'], /--table/);
    });

    it('--out naming the model itself', () => {
      const before = readFileSync(model, 'utf8');
      const r = grove(['export', model, '--format', 'onnx', '--out', model]);
      expect(r.status).toBe(2);
      expect(readFileSync(model, 'utf8')).toBe(before);
    });
  });
});
