import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../../src/io/model-file.js';
import { databaseSource, openSource } from '../../src/sources/index.js';
import { assertBuilt, grove } from '../helpers/cli.js';
import { corpus, haveCorpus } from '../helpers/paths.js';

let dir: string;
let db: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'grove-dbsrc-'));
  db = join(dir, 'uci.duckdb');
  if (!haveCorpus) return;
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const inst = await DuckDBInstance.create(db);
  const conn = await inst.connect();
  for (const name of ['iris', 'house-votes-84'])
    await conn.run(`CREATE TABLE "${name}" AS SELECT * FROM read_csv('${corpus(name)}', all_varchar = true)`);
  conn.closeSync();
  inst.closeSync();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!haveCorpus)('a DuckDB database as a data source', () => {
  beforeAll(() => assertBuilt());

  it('grove fit duckdb:… --table T --engine memory reads the rows into memory: the model of the CSV file', () => {
    for (const name of ['iris', 'house-votes-84']) {
      const a = join(dir, `${name}-csv.json`);
      const b = join(dir, `${name}-db.json`);
      expect(grove(['fit', corpus(name), '--out', a]).status).toBe(0);
      const r = grove(['fit', `duckdb:${db}`, '--table', name, '--engine', 'memory', '--out', b]);
      expect(r.stderr).not.toMatch(/level 0/); // grown in memory, not in the engine
      expect(r.status).toBe(0);
      expect(readFileSync(b, 'utf8')).toBe(readFileSync(a, 'utf8'));
    }
  });

  it('grove predict reads the table in batches and writes the predictions of the CSV file', () => {
    const model = join(dir, 'votes.json');
    expect(grove(['fit', corpus('house-votes-84'), '--out', model]).status).toBe(0);
    const fromCsv = grove(['predict', corpus('house-votes-84'), '--model', model, '--proba', '--leaf']);
    const fromDb = grove([
      'predict',
      `duckdb:${db}`,
      '--table',
      'house-votes-84',
      '--model',
      model,
      '--proba',
      '--leaf',
    ]);
    expect(fromDb.status).toBe(0);
    expect(fromDb.stdout).toBe(fromCsv.stdout);
    expect(fromDb.stdout.trim().split('\n')).toHaveLength(436);
    const out = join(dir, 'pred.csv');
    const q = grove([
      'predict',
      `duckdb:${db}`,
      '--query',
      'SELECT * FROM "house-votes-84" LIMIT 100',
      '--model',
      model,
      '--out',
      out,
    ]);
    expect(q.status).toBe(0);
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(101);
  });

  it('readBatches hands over batches of at most batchRows rows, in order, with the same predictions', async () => {
    const model = join(dir, 'votes2.json');
    expect(grove(['fit', corpus('house-votes-84'), '--out', model]).status).toBe(0);
    const tree = loadModel(model);
    const options = {
      noTarget: true,
      ignoreUnknownColumns: true,
      categorical: tree.features.map((f) => f.name),
    };
    const whole = await openSource(corpus('house-votes-84')).read(options);
    const expected = Array.from(tree.predictCodes(whole));
    const got: number[] = [];
    const sizes: number[] = [];
    await databaseSource(`duckdb:${db}`, { table: 'house-votes-84' }).readBatches(
      options,
      (data, first) => {
        expect(first).toBe(got.length);
        sizes.push(data.nRows);
        got.push(...tree.predictCodes(data));
      },
      100,
    );
    expect(sizes).toEqual([100, 100, 100, 100, 35]);
    expect(got).toEqual(expected);
  });

  it('grove info and grove score read the table as they read the CSV file', () => {
    const csv = JSON.parse(grove(['info', corpus('iris'), '--json']).stdout);
    const r = grove(['info', `duckdb:${db}`, '--table', 'iris', '--json']);
    expect(r.status).toBe(0);
    const fromDb = JSON.parse(r.stdout);
    expect(fromDb.source).toBe(`duckdb:${db}`);
    for (const key of ['rows', 'columns', 'target', 'classes', 'bytes']) expect(fromDb[key]).toEqual(csv[key]);
    const s1 = grove(['score', corpus('iris'), '--json']);
    const s2 = grove(['score', `duckdb:${db}`, '--table', 'iris', '--json']);
    expect(s2.status).toBe(0);
    expect(s2.stdout).toBe(s1.stdout);
  });

  it('bad inputs: no --table/--query, --table on a file, an unknown table; exit 2, one line', () => {
    const none = grove(['info', `duckdb:${db}`]);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/--table NAME or --query/);
    const file = grove(['info', corpus('iris'), '--table', 'x']);
    expect(file.status).toBe(2);
    expect(file.stderr).toMatch(/--table and --query name rows inside a database/);
    const unknown = grove(['predict', `duckdb:${db}`, '--table', 'nope', '--model', join(dir, 'votes.json')]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/nope/);
    for (const r of [none, file, unknown]) expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
