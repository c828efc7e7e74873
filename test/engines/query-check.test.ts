/**
 * `--query` is exactly one read-only SELECT, checked by the database's own parser before any work:
 * statements smuggled after a closing parenthesis, or a query that writes, are refused with one
 * line naming --query (exit 2) on DuckDB, PostgreSQL and ClickHouse, and leave the database as it
 * was; legitimate queries (a CTE, a subquery, a trailing semicolon or comment) still read.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClickHouseEngine } from '../../src/engines/clickhouse.js';
import type { Engine } from '../../src/engines/engine.js';
import { PostgresEngine } from '../../src/engines/postgres.js';
import { assertBuilt, type CliResult, grove } from '../helpers/cli.js';
import { corpus, haveCorpus } from '../helpers/paths.js';
import { type ClickHouseHandle, clickhouseUnavailable, startClickHouse } from '../helpers/servers/clickhouse.js';
import type { ServerHandle } from '../helpers/servers/common.js';
import { postgresUnavailable, startPostgres } from '../helpers/servers/postgres.js';
import { loadCsv } from './load.js';

/** `statement` smuggled between two halves of a query grove wraps in parentheses. */
const smuggled = (statement: string) => `SELECT * FROM iris) AS s; ${statement}; SELECT * FROM (SELECT * FROM iris`;

let dir: string;
let model: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'grove-query-'));
  if (!haveCorpus) return;
  assertBuilt();
  model = join(dir, 'iris.json');
  expect(grove(['fit', corpus('iris'), '--out', model]).status).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every command that reads `--query`, on `url`. */
function everyCommand(url: string, query: string): CliResult[] {
  return [
    grove(['fit', url, '--query', query, '--prune', 'none', '--out', join(dir, 'fit.json')]),
    grove(['fit', url, '--query', query, '--engine', 'memory', '--out', join(dir, 'fit-memory.json')]),
    grove(['info', url, '--query', query]),
    grove(['predict', url, '--query', query, '--model', model]),
    grove(['explore', url, '--query', query, '--out', join(dir, 'explore.html')]),
  ];
}

function refused(results: CliResult[]): void {
  for (const r of results) {
    expect(r.status).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^grove: .*--query must be exactly one read-only SELECT/);
  }
  expect(existsSync(join(dir, 'fit.json'))).toBe(false);
  expect(existsSync(join(dir, 'explore.html'))).toBe(false);
}

/** `info` and an in-database fit read `query`: the 150 rows of iris. */
function reads(url: string, query: string): void {
  const info = grove(['info', url, '--query', query, '--json']);
  expect(info.stderr).toBe('');
  expect(JSON.parse(info.stdout).rows).toBe(150);
  const fit = grove(['fit', url, '--query', query, '--prune', 'none', '--out', join(dir, 'ok.json')]);
  expect(fit.stderr).toMatch(/level 0: 1 open nodes, 150 rows/);
  expect(fit.status).toBe(0);
  rmSync(join(dir, 'ok.json'));
}

describe.skipIf(!haveCorpus)('--query on DuckDB', () => {
  let url: string;
  beforeAll(async () => {
    const file = join(dir, 'iris.duckdb');
    url = `duckdb:${file}`;
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const instance = await DuckDBInstance.create(file);
    const conn = await instance.connect();
    await conn.run(`CREATE TABLE iris AS SELECT * FROM read_csv('${corpus('iris')}', all_varchar = true)`);
    conn.closeSync();
    instance.closeSync();
  });

  it('refuses a COPY smuggled after the query, or given as the query: no file is written', () => {
    const target = join(dir, 'copied.csv');
    const copy = `COPY (SELECT 42 AS x) TO '${target}' (HEADER)`;
    refused([...everyCommand(url, smuggled(copy)), ...everyCommand(url, copy)]);
    expect(existsSync(target)).toBe(false);
    refused(everyCommand(url, 'SELECT * FROM iris; SELECT 1'));
  }, 120_000);

  it('reads a query with a CTE, a subquery, a trailing semicolon and a trailing comment', () => {
    reads(url, 'WITH t AS (SELECT * FROM iris) SELECT * FROM t;\n');
    reads(url, 'SELECT * FROM (SELECT * FROM iris) AS q -- every row');
  }, 120_000);
});

/** A canary table of one row, and whether it still has it. */
async function canary(engine: Engine, type: string): Promise<void> {
  await engine.query(
    `CREATE TABLE canary (id ${type})${engine.dialect.name === 'clickhouse' ? ' ENGINE = TinyLog' : ''}`,
  );
  await engine.query('INSERT INTO canary VALUES (1)');
}
async function canaryRows(open: () => Promise<Engine>): Promise<number> {
  const engine = await open();
  try {
    return Number((await engine.query('SELECT count(*) FROM canary'))[0][0]);
  } finally {
    await engine.close();
  }
}

const pgWhy = postgresUnavailable() ?? (haveCorpus ? undefined : 'the UCI corpus is absent');
describe.skipIf(pgWhy !== undefined)('--query on PostgreSQL', () => {
  let server: ServerHandle;
  const open = () => PostgresEngine.open(server.url);
  beforeAll(async () => {
    server = await startPostgres();
    const engine = await open();
    try {
      await loadCsv(engine, corpus('iris'), 'iris');
      await canary(engine, 'integer');
      // A function that writes, called by a query that is one SELECT.
      await engine.query(
        'CREATE FUNCTION zap() RETURNS integer LANGUAGE sql VOLATILE AS $$ DELETE FROM canary RETURNING 1 $$',
      );
    } finally {
      await engine.close();
    }
  }, 120_000);
  afterAll(async () => server?.stop());

  it('refuses a DELETE smuggled after the query, or given as the query: the canary row stays', async () => {
    refused(everyCommand(server.url, smuggled('DELETE FROM canary WHERE id = 1')));
    refused(everyCommand(server.url, 'DELETE FROM canary RETURNING *'));
    refused(everyCommand(server.url, 'WITH d AS (DELETE FROM canary RETURNING *) SELECT * FROM d'));
    expect(await canaryRows(open)).toBe(1);
  }, 180_000);

  it('runs the query read-only: a function it calls cannot write', async () => {
    for (const r of everyCommand(server.url, 'SELECT *, zap() AS z FROM iris')) {
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/read-only transaction/);
    }
    expect(await canaryRows(open)).toBe(1);
  }, 180_000);

  it('reads a query with a CTE, a subquery, a trailing semicolon and a trailing comment', () => {
    reads(server.url, 'WITH t AS (SELECT * FROM iris) SELECT * FROM t;\n');
    reads(server.url, 'SELECT * FROM (SELECT * FROM iris) AS q -- every row');
  }, 120_000);
});

const chWhy = clickhouseUnavailable() ?? (haveCorpus ? undefined : 'the UCI corpus is absent');
describe.skipIf(chWhy !== undefined)('--query on ClickHouse', () => {
  let server: ClickHouseHandle;
  let url: string;
  const open = () => ClickHouseEngine.open(url);
  beforeAll(async () => {
    server = await startClickHouse();
    url = `clickhouse://${server.url.replace(/^http:\/\//, '')}/default`;
    const engine = await open();
    try {
      await loadCsv(engine, corpus('iris'), 'iris', ' ENGINE = TinyLog');
      await canary(engine, 'Int32');
    } finally {
      await engine.close();
    }
  }, 120_000);
  afterAll(async () => server?.stop());

  it('refuses a statement smuggled after the query, or given as the query: the canary table stays', async () => {
    refused(everyCommand(url, smuggled('DROP TABLE canary')));
    refused(everyCommand(url, 'INSERT INTO canary SELECT 2'));
    expect(await canaryRows(open)).toBe(1);
  }, 180_000);

  it('reads a query with a subquery, a trailing semicolon and a trailing comment', () => {
    reads(url, 'SELECT * FROM iris;\n');
    reads(url, 'SELECT * FROM (SELECT * FROM iris) -- every row');
  }, 120_000);
});
