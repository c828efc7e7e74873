// Every command that reads a data source takes the same source flags: --encoding, --na, --table,
// --query and --no-progress (and the column flags where it chooses columns).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, grove } from '../helpers/cli.js';

let dir: string;
let latin1: string;
let withNa: string;
let db: string;
beforeAll(async () => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'grove-source-flags-'));
  // 'café' and 'cafè' in Latin-1: one byte each for é (0xE9) and è (0xE8), invalid as UTF-8.
  latin1 = join(dir, 'latin1.csv');
  const rows = ['x,drink,class', '1,caf\xe9,a', '2,caf\xe8,b', '3,caf\xe9,a', '4,caf\xe8,b'];
  writeFileSync(latin1, Buffer.from(`${rows.join('\n')}\n`, 'latin1'));
  withNa = join(dir, 'na.csv');
  writeFileSync(withNa, 'x,y,class\n1,5,a\nx,6,b\n3,x,a\n4,8,b\n');
  db = join(dir, 'rows.duckdb');
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const inst = await DuckDBInstance.create(db);
  const conn = await inst.connect();
  await conn.run(`CREATE TABLE t AS SELECT * FROM read_csv('${withNa}', all_varchar = true)`);
  conn.closeSync();
  inst.closeSync();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `grove info --json`'s report. */
function info(args: string[]): { columns: { name: string; missing: number; categories?: number }[] } {
  const r = grove(['info', ...args, '--json']);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout);
}

describe('the source flags, the same in every command that reads data', () => {
  it.each(['fit', 'score', 'predict', 'info', 'explore'])('grove %s --help lists them', (command) => {
    const help = grove([command, '--help']).stdout;
    for (const flag of ['--encoding', '--na', '--table', '--query', '--no-progress']) expect(help).toContain(flag);
    if (command !== 'predict')
      for (const flag of ['--target', '--categorical', '--numeric']) expect(help).toContain(flag);
  });

  it('grove info reads Latin-1 with --encoding latin1: two categories, not one; refuses it as UTF-8', () => {
    const drink = info([latin1, '--encoding', 'latin1']).columns.find((c) => c.name === 'drink');
    expect(drink?.categories).toBe(2);
    const r = grove(['info', latin1]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--encoding latin1/);
  });

  it('grove info reads the --na tokens as missing', () => {
    const plain = info([withNa]).columns;
    expect(plain.find((c) => c.name === 'x')?.missing).toBe(0);
    const na = info([withNa, '--na', 'x']).columns;
    expect(na.find((c) => c.name === 'x')?.missing).toBe(1);
    expect(na.find((c) => c.name === 'y')?.missing).toBe(1);
  });

  it('grove explore takes --encoding and --na, and reads a database table with --table', () => {
    const page = join(dir, 'latin1.html');
    expect(grove(['explore', latin1, '--out', page]).status).toBe(2);
    expect(existsSync(page)).toBe(false);
    const ok = grove(['explore', latin1, '--encoding', 'latin1', '--out', page]);
    expect(ok.stderr).toMatch(/explore page for 4 rows/);
    expect(ok.status).toBe(0);
    expect(readFileSync(page, 'utf8')).toContain('caf\xe8');
    const fromDb = join(dir, 'db.html');
    const r = grove(['explore', `duckdb:${db}`, '--table', 't', '--target', 'class', '--out', fromDb]);
    expect(r.stderr).toMatch(/explore page for 4 rows/);
    expect(r.status).toBe(0);
    expect(existsSync(fromDb)).toBe(true);
    expect(grove(['explore', withNa, '--table', 't', '--out', join(dir, 'no.html')]).stderr).toMatch(
      /--table and --query name rows inside a database/,
    );
  });
});
