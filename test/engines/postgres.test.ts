import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresEngine } from '../../src/engines/postgres.js';
import type { FitOptions } from '../../src/options/options.js';
import { parseSourceSpec } from '../../src/sources/engine-source.js';
import { postgresDialect } from '../../src/sql/index.js';
import { assertBuilt, grove } from '../helpers/cli.js';
import { corpus, haveCorpus } from '../helpers/paths.js';
import type { ServerHandle } from '../helpers/servers/common.js';
import { postgresUnavailable, startPostgres } from '../helpers/servers/postgres.js';
import { BIN_EDGES, BIN_VALUES, searchBothWays } from './bin-cases.js';
import { writeClashingCsv } from './clashing-names.js';
import { engineModel, memoryModel } from './identical.js';
import { CLUSTER_THRESHOLD, writeClusterCsv } from './j48-cluster.js';
import { loadCsv } from './load.js';

const why = postgresUnavailable() ?? (haveCorpus ? undefined : 'the UCI corpus is absent');
if (why) console.warn(`skipping PostgreSQL engine tests: ${why}`);

const CASES: [string, FitOptions][] = [
  ['iris', { prune: 'none' }],
  ['car', { prune: 'none', categoricalSplit: 'multiway', criterion: 'gain-ratio' }],
  ['house-votes-84', { prune: 'pessimistic', missing: 'learned' }],
  ['breast-cancer-wisconsin-original', { prune: 'cost-complexity', ccpAlpha: 0.01, classWeight: { '2': 1, '4': 3 } }],
  // J48's thresholds at training values, subtree raising recounted by the database.
  ['glass', { algorithm: 'c45' }],
  ['vehicle', { algorithm: 'c45' }],
  // Fractional missing values: a row whose split value is missing in every child, weighted.
  ['breast-cancer-wisconsin-original', { algorithm: 'c45' }],
  ['soybean', { algorithm: 'c45' }],
];

describe.skipIf(why !== undefined)('in-database training with PostgreSQL', () => {
  let server: ServerHandle;
  let engine: PostgresEngine;
  let dir: string;
  beforeAll(async () => {
    server = await startPostgres();
    engine = await PostgresEngine.open(server.url);
    dir = mkdtempSync(join(tmpdir(), 'grove-pg-test-'));
  }, 120_000);
  afterAll(async () => {
    await engine?.close();
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  for (const [i, [name, options]] of CASES.entries()) {
    it(`${name} ${JSON.stringify(options)}: the in-memory histogram tree`, async () => {
      // A table per case: a data set may come twice.
      const table = `${name} ${i}`;
      await loadCsv(engine, corpus(name), table);
      const spec = await parseSourceSpec(server.url, { table });
      expect(await engineModel(engine, spec.source, options)).toBe(await memoryModel(corpus(name), options));
    }, 120_000);
  }

  it('bin codes by list search (edges as one array parameter) equal the nested-CASE search, for every edge case', async () => {
    for (const edges of BIN_EDGES) {
      const { byList, byCase, from } = await searchBothWays(engine, postgresDialect, 'double precision', edges);
      if (edges.length > 1) expect(from).toMatch(/\(\$\d+::double precision\[\]\)\[/);
      expect(byList).toEqual(byCase);
      expect(byList.length).toBe(BIN_VALUES.length);
    }
  });

  it('glass with each family of nodes counted in a batch of its own (tables of counts): the in-memory tree', async () => {
    await loadCsv(engine, corpus('glass'), 'glass batched');
    const spec = await parseSourceSpec(server.url, { table: 'glass batched' });
    const options: FitOptions = { prune: 'none', criterion: 'info-gain' };
    expect(await engineModel(engine, spec.source, options, {}, 1)).toBe(await memoryModel(corpus('glass'), options));
  }, 120_000);

  it('columns named y, w, v0, rn, node, grove_y…, a weight column grove_w, class weights: the in-memory tree', async () => {
    const files = writeClashingCsv(dir);
    await loadCsv(engine, files.plain, 'clashing');
    await loadCsv(engine, files.weighted, 'clashing weighted');
    const options: FitOptions = { prune: 'none', maxDepth: 6, classWeight: { A: 2, B: 1, C: 3 } };
    const plain = await parseSourceSpec(server.url, { table: 'clashing' });
    expect(await engineModel(engine, plain.source, options)).toBe(await memoryModel(files.plain, options));
    const balanced: FitOptions = { prune: 'none', maxDepth: 6, classWeight: 'balanced' };
    const weighted = await parseSourceSpec(server.url, { table: 'clashing weighted' });
    expect(await engineModel(engine, weighted.source, balanced, { target: 'label', weight: 'grove_w' })).toBe(
      await memoryModel(files.plain, balanced, files.weights),
    );
  }, 120_000);

  it('c45: training values within 1e-6 below a threshold, scanned in row order as J48 scans them: the in-memory tree', async () => {
    const csv = writeClusterCsv(dir);
    await loadCsv(engine, csv, 'cluster');
    const spec = await parseSourceSpec(server.url, { table: 'cluster' });
    const model = await engineModel(engine, spec.source, { algorithm: 'c45' });
    expect(model).toBe(await memoryModel(csv, { algorithm: 'c45' }));
    expect(JSON.parse(model).nodes[0].split.thresholds).toEqual([CLUSTER_THRESHOLD]);
  }, 120_000);

  it('grove fit postgres://… --table gives the model of --bins 255; a query with no rows is refused', async () => {
    assertBuilt();
    await loadCsv(engine, corpus('iris'), 'iris cli');
    const a = join(dir, 'mem.json');
    const b = join(dir, 'pg.json');
    expect(grove(['fit', corpus('iris'), '--bins', '255', '--prune', 'none', '--out', a]).status).toBe(0);
    const r = grove(['fit', server.url, '--table', 'iris cli', '--prune', 'none', '--out', b]);
    expect(r.stderr).toMatch(/level 0: 1 open nodes, 150 rows/);
    expect(r.status).toBe(0);
    expect(readFileSync(b, 'utf8')).toBe(readFileSync(a, 'utf8'));
    const empty = grove([
      'fit',
      server.url,
      '--query',
      'SELECT * FROM "iris cli" WHERE false',
      '--prune',
      'none',
      '--out',
      b,
    ]);
    expect(empty.status).toBe(2);
    expect(empty.stderr).toMatch(/no data rows/);
    const table = grove(['fit', server.url, '--table', 'no_such_table', '--prune', 'none', '--out', b]);
    expect(table.status).toBe(2);
    expect(table.stderr).toMatch(/no_such_table/);
  }, 120_000);
});

describe('PostgreSQL: an unreachable server', () => {
  it('is a one-line error within seconds, exit 2, without the password', () => {
    assertBuilt();
    const started = Date.now();
    const r = grove([
      'fit',
      'postgres://me:s3cret-pw@127.0.0.1:1/db',
      '--table',
      't',
      '--prune',
      'none',
      '--out',
      '/tmp/x.json',
    ]);
    expect(r.status).toBe(2);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.stderr).toMatch(/^grove: PostgreSQL \(postgres:\/\/me@127\.0\.0\.1:1\/db\): .*ECONNREFUSED/);
    expect(r.stderr).not.toContain('s3cret-pw');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
