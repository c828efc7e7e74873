import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClickHouseEngine } from '../../src/engines/clickhouse.js';
import { databaseSource } from '../../src/sources/database.js';
import { assertBuilt, grove } from '../helpers/cli.js';
import { corpus, haveCorpus } from '../helpers/paths.js';
import { type ClickHouseHandle, clickhouseUnavailable, startClickHouse } from '../helpers/servers/clickhouse.js';
import { loadCsv } from './load.js';

const why = clickhouseUnavailable() ?? (haveCorpus ? undefined : 'the UCI corpus is absent');
if (why) console.warn(`skipping ClickHouse source tests: ${why}`);

const chUrl = (http: string) => `clickhouse://${http.replace(/^http:\/\//, '')}/default`;

describe.skipIf(why !== undefined)('ClickHouse as a data source: rows streamed as they arrive', () => {
  let server: ClickHouseHandle;
  let url: string;
  let dir: string;
  beforeAll(async () => {
    assertBuilt();
    server = await startClickHouse();
    url = chUrl(server.url);
    dir = mkdtempSync(join(tmpdir(), 'grove-chsrc-'));
    const engine = await ClickHouseEngine.open(url);
    try {
      // TinyLog keeps the rows in insertion order: the CSV file's.
      await loadCsv(engine, corpus('house-votes-84'), 'votes', ' ENGINE = TinyLog');
      await engine.query(
        'CREATE TABLE odd (x Nullable(Float64), name Nullable(String), class String) ENGINE = TinyLog',
      );
      await engine.query(
        "INSERT INTO odd VALUES (1.5, 'a\\tb', 'p'), (NULL, 'x\\ny', 'q'), (2, '\\\\N', 'p'), (3, NULL, 'q'), (4, 'café', 'p')",
      );
    } finally {
      await engine.close();
    }
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('grove predict and fit --engine memory read the table as they read the CSV file', () => {
    const model = join(dir, 'votes.json');
    expect(grove(['fit', corpus('house-votes-84'), '--prune', 'none', '--out', model]).status).toBe(0);
    const fromCsv = grove(['predict', corpus('house-votes-84'), '--model', model, '--proba', '--leaf']);
    const fromCh = grove(['predict', url, '--table', 'votes', '--model', model, '--proba', '--leaf']);
    expect(fromCh.status).toBe(0);
    expect(fromCh.stdout).toBe(fromCsv.stdout);
    const mem = join(dir, 'mem.json');
    const fit = grove(['fit', url, '--table', 'votes', '--engine', 'memory', '--prune', 'none', '--out', mem]);
    expect(fit.status).toBe(0);
    expect(readFileSync(mem, 'utf8')).toBe(readFileSync(model, 'utf8'));
  }, 120_000);

  it('readBatches hands over batches of at most batchRows rows in order; text keeps tabs, newlines and backslashes', async () => {
    const sizes: number[] = [];
    const firsts: number[] = [];
    await databaseSource(url, { table: 'votes' }).readBatches(
      {},
      (data, first) => {
        sizes.push(data.nRows);
        firsts.push(first);
      },
      100,
    );
    expect(sizes).toEqual([100, 100, 100, 100, 35]);
    expect(firsts).toEqual([0, 100, 200, 300, 400]);
    const odd = await databaseSource(url, { table: 'odd' }).read({});
    const x = odd.features.find((f) => f.name === 'x');
    const name = odd.features.find((f) => f.name === 'name');
    expect(x?.kind).toBe('numeric');
    expect(x?.kind === 'numeric' && Array.from(x.values)).toEqual([1.5, Number.NaN, 2, 3, 4]);
    expect(name?.kind).toBe('categorical');
    if (name?.kind !== 'categorical') return;
    const values = Array.from(name.codes, (c) => (c < 0 ? null : name.categories[c]));
    expect(values).toEqual(['a\tb', 'x\ny', '\\N', null, 'café']);
  }, 60_000);

  it('a query that fails after many rows: exit 2, one line with the server message', () => {
    const failing = grove([
      'info',
      url,
      '--query',
      "SELECT intDiv(1, number - 300000) AS x, 'a' AS class FROM system.numbers LIMIT 400000",
    ]);
    expect(failing.status).toBe(2);
    expect(failing.stderr.trim().split('\n')).toHaveLength(1);
    expect(failing.stderr).toMatch(/^grove: ClickHouse \(clickhouse:\/\/.*\): .*[Dd]ivision by zero/);
  }, 60_000);
});
