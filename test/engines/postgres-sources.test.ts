import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresEngine } from '../../src/engines/postgres.js';
import { assertBuilt, cliPath, grove } from '../helpers/cli.js';
import { corpus, haveCorpus } from '../helpers/paths.js';
import type { ServerHandle } from '../helpers/servers/common.js';
import { postgresUnavailable, startPostgres } from '../helpers/servers/postgres.js';
import { loadCsv } from './load.js';

const why = postgresUnavailable() ?? (haveCorpus ? undefined : 'the UCI corpus is absent');
if (why) console.warn(`skipping PostgreSQL source tests: ${why}`);

/** The session's temporary tables left in the cluster (any session's). */
async function temporaryTables(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query("SELECT count(*)::int AS n FROM pg_class WHERE relpersistence = 't'");
    return r.rows[0].n as number;
  } finally {
    await client.end();
  }
}

describe.skipIf(why !== undefined)('PostgreSQL as a data source, and Ctrl-C in an engine fit', () => {
  let server: ServerHandle;
  let dir: string;
  let secretUrl: string;
  beforeAll(async () => {
    assertBuilt();
    server = await startPostgres();
    dir = mkdtempSync(join(tmpdir(), 'grove-pgsrc-'));
    const engine = await PostgresEngine.open(server.url);
    try {
      await loadCsv(engine, corpus('house-votes-84'), 'votes');
      // Enough rows that a fit lasts a while: 6 numeric features, 3 classes.
      const features = Array.from({ length: 6 }, (_, j) => `(hashint4(i * 7 + ${j}) % 100000) / 100.0 AS x${j}`);
      await engine.query(
        `CREATE TABLE big AS SELECT ${features.join(', ')}, 'c' || (abs(hashint4(i)) % 3) AS class ` +
          'FROM generate_series(1, 400000) AS t(i)',
      );
    } finally {
      await engine.close();
    }
    // The cluster trusts every local connection: a password in the URL is accepted and must never show.
    secretUrl = server.url.replace('grove@', 'grove:Sup3rS3cret@');
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('predict, info and fit --engine memory read a table as they read the CSV file; no password shown', () => {
    // Unpruned: cross-validation folds follow the row order, which in a table is the engine's.
    const model = join(dir, 'votes.json');
    expect(grove(['fit', corpus('house-votes-84'), '--prune', 'none', '--out', model]).status).toBe(0);
    const fromCsv = grove(['predict', corpus('house-votes-84'), '--model', model, '--proba']);
    const fromPg = grove(['predict', secretUrl, '--table', 'votes', '--model', model, '--proba']);
    expect(fromPg.status).toBe(0);
    // A table has no row order of its own (PostgreSQL's scan order is not the file's): the same lines.
    const sorted = (text: string) => text.trim().split('\n').sort();
    expect(sorted(fromPg.stdout)).toEqual(sorted(fromCsv.stdout));
    expect(fromPg.stdout.split('\n')[0]).toBe('predicted,democrat,republican');
    const info = grove(['info', secretUrl, '--query', 'SELECT * FROM votes', '--json']);
    expect(info.status).toBe(0);
    expect(JSON.parse(info.stdout).rows).toBe(435);
    const mem = join(dir, 'mem.json');
    const fit = grove(['fit', secretUrl, '--table', 'votes', '--engine', 'memory', '--prune', 'none', '--out', mem]);
    expect(fit.status).toBe(0);
    expect(readFileSync(mem, 'utf8')).toBe(readFileSync(model, 'utf8'));
    const bad = grove(['info', secretUrl, '--table', 'nope']);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    for (const r of [fromPg, info, fit, bad]) expect(r.stdout + r.stderr).not.toContain('Sup3rS3cret');
    expect(readFileSync(mem, 'utf8')).not.toContain('Sup3rS3cret');
  }, 120_000);

  it('Ctrl-C during grove fit --engine postgres: the temporary table is dropped, exit 130, one line', async () => {
    expect(await temporaryTables(server.url)).toBe(0);
    const child = spawn(
      process.execPath,
      [cliPath, 'fit', server.url, '--table', 'big', '--prune', 'none', '--out', join(dir, 'never.json')],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (b) => (stderr += b));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Mid-fit: once the coded rows are in their temporary table.
    const deadline = Date.now() + 90_000;
    while ((await temporaryTables(server.url)) === 0) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no temporary table appeared: ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    const lines = stderr.trim().split('\n');
    expect(lines.at(-1)).toMatch(/^grove: interrupted; the temporary objects in postgres:\/\/.* are removed$/);
    expect(lines.filter((l) => !/^grove: level \d+:/.test(l))).toHaveLength(1);
    expect(await temporaryTables(server.url)).toBe(0);
    expect(readdirSync(dir)).not.toContain('never.json');
  }, 180_000);
});
