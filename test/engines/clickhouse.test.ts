import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroveError } from '../../src/core/errors.js';
import { ClickHouseEngine } from '../../src/engines/clickhouse.js';
import { Params } from '../../src/engines/engine.js';
import type { FitOptions } from '../../src/options/options.js';
import { parseSourceSpec } from '../../src/sources/engine-source.js';
import { assertBuilt, cliPath, grove } from '../helpers/cli.js';
import { parseCsvRows } from '../helpers/csv-rows.js';
import { corpus, haveCorpus } from '../helpers/paths.js';
import { type ClickHouseHandle, clickhouseUnavailable, startClickHouse } from '../helpers/servers/clickhouse.js';
import { writeClashingCsv } from './clashing-names.js';
import { engineModel, memoryModel } from './identical.js';
import { loadCsv } from './load.js';

const why = clickhouseUnavailable() ?? (haveCorpus ? undefined : 'the UCI corpus is absent');
if (why) console.warn(`skipping ClickHouse engine tests: ${why}`);

/** Temporary tables of `engine`'s session (grove's coded rows and level tables). */
const temporaryTables = async (engine: ClickHouseEngine) =>
  Number((await engine.query('SELECT toFloat64(count()) FROM system.tables WHERE is_temporary'))[0][0]);

/** Record the SELECTs `engine` makes temporary tables of (`made`) until `restore()`. */
function recordTempTables(engine: ClickHouseEngine): { made: string[]; restore(): void } {
  const made: string[] = [];
  const tempTable = engine.tempTable.bind(engine);
  engine.tempTable = async (...args) => {
    const created = await tempTable(...args);
    if (created) made.push(args[0]);
    return created;
  };
  return { made, restore: () => void (engine.tempTable = tempTable) };
}

/** clickhouse://host:port/default for a server's HTTP URL. */
const chUrl = (http: string, credentials = '') =>
  `clickhouse://${credentials}${http.replace(/^http:\/\//, '')}/default`;
// TinyLog: one file, read in insertion order (categories' first appearance as in the CSV).
const TINYLOG = ' ENGINE = TinyLog';

const CASES: [string, FitOptions][] = [
  ['iris', { prune: 'none' }],
  ['car', { prune: 'none', criterion: 'info-gain' }],
  ['house-votes-84', { prune: 'pessimistic', missing: 'learned' }],
  // J48's thresholds at training values, subtree raising recounted by the database.
  ['glass', { algorithm: 'c45' }],
];

/** Fractional missing values (the c45 preset): a row whose split value is missing in every child, weighted. */
const FRACTIONAL_CASES: [string, FitOptions][] = [
  ['breast-cancer-wisconsin-original', { algorithm: 'c45' }],
  ['soybean', { algorithm: 'c45' }],
];

describe.skipIf(why !== undefined)('in-database training with ClickHouse', () => {
  let server: ClickHouseHandle;
  let engine: ClickHouseEngine;
  let dir: string;
  beforeAll(async () => {
    server = await startClickHouse();
    engine = await ClickHouseEngine.open(chUrl(server.url));
    dir = mkdtempSync(join(tmpdir(), 'grove-ch-test-'));
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  for (const [i, [name, options]] of [...CASES, ...FRACTIONAL_CASES].entries()) {
    it(`${name} ${JSON.stringify(options)}: the in-memory histogram tree`, async () => {
      // A table per case: a data set may come twice.
      const table = `${name} "t" ${i}`;
      await loadCsv(engine, corpus(name), table, TINYLOG);
      const spec = await parseSourceSpec(chUrl(server.url), { table });
      expect(await engineModel(engine, spec.source, options)).toBe(await memoryModel(corpus(name), options));
      expect(await temporaryTables(engine)).toBe(0);
    }, 120_000);
  }

  it('car with each family of nodes counted in a batch of its own, from a table (tables of counts) and through a view: the in-memory tree', async () => {
    await loadCsv(engine, corpus('car'), 'car_batched', TINYLOG);
    const q = engine.dialect.quote;
    await engine.query(`CREATE VIEW ${q('car_batched_view')} AS SELECT * FROM ${q('car_batched')}`);
    const options: FitOptions = { prune: 'none', criterion: 'info-gain' };
    const mem = await memoryModel(corpus('car'), options);
    const made = new Map<string, string[]>();
    for (const table of ['car_batched', 'car_batched_view']) {
      const recorded = recordTempTables(engine);
      try {
        const spec = await parseSourceSpec(chUrl(server.url), { table });
        expect(await engineModel(engine, spec.source, options, {}, 1)).toBe(mem);
      } finally {
        recorded.restore();
      }
      made.set(table, recorded.made);
    }
    // From the table, levels of several batches are counted once into a table of counts; through
    // the view (no temporary tables), each batch is one query over the source.
    expect(
      made.get('car_batched')!.filter((s) => /GROUP BY node, y, f, code\) AS counts$/.test(s)).length,
    ).toBeGreaterThan(1);
    expect(made.get('car_batched_view')).toEqual([]);
    expect(await temporaryTables(engine)).toBe(0);
  }, 120_000);

  /** The SELECT of each temporary table `engine` makes during `run`, and its rows. */
  async function recordTables(run: () => Promise<void>): Promise<{ select: string; rows: number }[]> {
    const made: { select: string; rows: number }[] = [];
    const tempTable = engine.tempTable.bind(engine);
    engine.tempTable = async (...args) => {
      const created = await tempTable(...args);
      if (created) {
        const [[rows]] = await engine.query(`SELECT toFloat64(count()) FROM ${created.name}`);
        made.push({ select: args[0], rows: Number(rows) });
      }
      return created;
    };
    try {
      await run();
    } finally {
      engine.tempTable = tempTable;
    }
    return made;
  }

  it('iris: rows in leaves leave the level tables (the filter reads the slot before its unsigned cast)', async () => {
    await loadCsv(engine, corpus('iris'), 'iris_levels', TINYLOG);
    const spec = await parseSourceSpec(chUrl(server.url), { table: 'iris_levels' });
    const made = await recordTables(async () => {
      expect(await engineModel(engine, spec.source, { prune: 'none' })).toBe(
        await memoryModel(corpus('iris'), { prune: 'none' }),
      );
    });
    expect(made[0].rows).toBe(150);
    expect(made.length).toBeGreaterThan(3);
    expect(made.at(-1)!.rows).toBeLessThan(50);
  }, 120_000);

  it('car: a level of several parents looks each row’s next node up in array literals, no CASE over the parents; the in-memory tree', async () => {
    await loadCsv(engine, corpus('car'), 'car_steps', TINYLOG);
    const spec = await parseSourceSpec(chUrl(server.url), { table: 'car_steps' });
    const options: FitOptions = { prune: 'none', criterion: 'info-gain' };
    const made = await recordTables(async () => {
      expect(await engineModel(engine, spec.source, options)).toBe(await memoryModel(corpus('car'), options));
    });
    const levels = made.map(({ select }) => select).filter((sql) => sql.startsWith('SELECT CAST(slot AS '));
    expect(levels.length).toBeGreaterThan(3);
    for (const sql of levels) {
      // One WHEN at most: a chain's step (its one parent), read from the level before.
      expect(sql.match(/WHEN node = /g)?.length ?? 0).toBeLessThanOrEqual(1);
      // The child's slot at (parent, code): the code of the parent's feature among the row's codes.
      expect(sql).toMatch(/ AS slot, y, /);
      expect(sql).toMatch(/\[c0, c1, c2, c3, c4, c5\]\[toUInt32\(\[[-\d, ]+\]\[toUInt32\(node\) \+ 1\]\) \+ 1\]/);
    }
  }, 120_000);

  // A view may hide a Distributed table: grove makes no temporary table and walks down the tree.
  const VIEW_CASES: [string, FitOptions][] = [
    ...CASES.slice(1),
    ['balance-scale', { prune: 'none', criterion: 'dcsm', classWeight: { L: 2, R: 3 } }],
  ];
  for (const [name, options] of VIEW_CASES) {
    it(`${name} ${JSON.stringify(options)} through a view (no temporary tables: the walk): the in-memory histogram tree`, async () => {
      const table = `${name}_walked`;
      await loadCsv(engine, corpus(name), table, TINYLOG);
      const q = engine.dialect.quote;
      await engine.query(`CREATE VIEW ${q(`${table}_view`)} AS SELECT * FROM ${q(table)}`);
      const { made, restore } = recordTempTables(engine);
      try {
        const spec = await parseSourceSpec(chUrl(server.url), { table: `${table}_view` });
        expect(await engineModel(engine, spec.source, options)).toBe(await memoryModel(corpus(name), options));
      } finally {
        restore();
      }
      expect(made).toEqual([]);
    }, 120_000);
  }

  it('fractional missing values through a view (no temporary tables) are refused, naming the options', async () => {
    const [name, options] = FRACTIONAL_CASES[0];
    const table = `${name}_fractional`;
    await loadCsv(engine, corpus(name), table, TINYLOG);
    const q = engine.dialect.quote;
    await engine.query(`CREATE VIEW ${q(`${table}_view`)} AS SELECT * FROM ${q(table)}`);
    const spec = await parseSourceSpec(chUrl(server.url), { table: `${table}_view` });
    await expect(engineModel(engine, spec.source, options)).rejects.toThrow(
      /^missing fractional \(rows with a missing value split across branches\) needs temporary tables, .*use missing majority or learned/,
    );
  }, 120_000);

  // Columns named like grove's aliases (an alias wins over a column on ClickHouse), categories
  // with missing values, sample and class weights: over a table and through a view (the walk).
  const CLASHING: [string, FitOptions, boolean][] = [
    ['unweighted', { prune: 'none', maxDepth: 6 }, false],
    ['a weight column and balanced class weights', { prune: 'none', maxDepth: 6, classWeight: 'balanced' }, true],
    ['class weights', { prune: 'pessimistic', maxDepth: 6, classWeight: { A: 2, B: 1, C: 3 } }, false],
  ];
  for (const [what, options, weighted] of CLASHING) {
    it(`columns named y, w, v0, rn, node, grove_y… (${what}): the in-memory tree, from a table and through a view`, async () => {
      const files = writeClashingCsv(dir);
      const table = `clashing_${what.replace(/\W+/g, '_')}`;
      await loadCsv(engine, weighted ? files.weighted : files.plain, table, TINYLOG);
      await engine.query(`CREATE VIEW ${table}_view AS SELECT * FROM ${table}`);
      const columns = weighted ? { target: 'label', weight: 'grove_w' } : {};
      const mem = await memoryModel(files.plain, options, weighted ? files.weights : undefined);
      const spec = await parseSourceSpec(chUrl(server.url), { table });
      expect(await engineModel(engine, spec.source, options, columns)).toBe(mem);
      const { made, restore } = recordTempTables(engine);
      try {
        const view = await parseSourceSpec(chUrl(server.url), { table: `${table}_view` });
        expect(await engineModel(engine, view.source, options, columns)).toBe(mem);
      } finally {
        restore();
      }
      expect(made).toEqual([]);
    }, 120_000);
  }

  it('a Merge table: no temporary table (the walk), the in-memory histogram tree', async () => {
    const options: FitOptions = { prune: 'none' };
    await loadCsv(engine, corpus('iris'), 'iris_merged', TINYLOG);
    await engine.query("CREATE TABLE `iris merge` AS iris_merged ENGINE = Merge(default, '^iris_merged$')");
    const { made, restore } = recordTempTables(engine);
    try {
      const spec = await parseSourceSpec(chUrl(server.url), { query: 'SELECT * FROM default.`iris merge`' });
      expect(await engineModel(engine, spec.source, options)).toBe(await memoryModel(corpus('iris'), options));
    } finally {
      restore();
    }
    expect(made).toEqual([]);
  }, 120_000);

  it('views named t, src, node, rows that the source does not read leave temporary tables on', async () => {
    const options: FitOptions = { prune: 'none' };
    await loadCsv(engine, corpus('iris'), 'iris_alone', TINYLOG);
    for (const view of ['t', 'src', 'node', 'rows', 'coded', 'typed'])
      await engine.query(`CREATE VIEW ${view} AS SELECT 1 AS x`);
    const { made, restore } = recordTempTables(engine);
    try {
      const spec = await parseSourceSpec(chUrl(server.url), { query: 'SELECT * FROM iris_alone AS t' });
      expect(await engineModel(engine, spec.source, options)).toBe(await memoryModel(corpus('iris'), options));
    } finally {
      restore();
    }
    expect(made.length).toBeGreaterThan(1); // the coded rows and the level tables
    expect(await temporaryTables(engine)).toBe(0);
  }, 120_000);

  it('a session that may not create tables (allow_ddl = 0): the walk, the in-memory histogram tree', async () => {
    const options: FitOptions = { prune: 'none', criterion: 'info-gain' };
    await loadCsv(engine, corpus('car'), 'car_no_ddl', TINYLOG);
    const limited = await ClickHouseEngine.open(chUrl(server.url));
    await limited.query('SET allow_ddl = 0');
    const { made, restore } = recordTempTables(limited);
    try {
      const spec = await parseSourceSpec(chUrl(server.url), { table: 'car_no_ddl' });
      expect(await engineModel(limited, spec.source, options)).toBe(await memoryModel(corpus('car'), options));
    } finally {
      restore();
    }
    expect(made).toEqual([]);
  }, 120_000);

  it('interrupt() stops the running query (KILL QUERY by its id); the session stays usable', async () => {
    const other = await ClickHouseEngine.open(chUrl(server.url));
    await other.query('SET max_block_size = 1');
    // 40 rows of 0.5 s each: 20 s unless stopped.
    const running = other.query('SELECT sleepEachRow(0.5) FROM numbers(40)');
    const failed = running.then(
      () => undefined,
      (e: Error) => e,
    );
    await new Promise((done) => setTimeout(done, 1000));
    await other.interrupt();
    expect((await failed)?.message).toMatch(/Code: 394\b.*cancelled/);
    expect(await other.query('SELECT 1')).toEqual([[1]]);
  }, 60_000);

  it('Ctrl-C during grove fit --engine clickhouse: the running query is killed, exit 130, one line', async () => {
    assertBuilt();
    await loadCsv(engine, corpus('iris'), 'iris_slow', TINYLOG);
    // Every scan of the source sleeps 15 ms a row (2.25 s for iris): a query is running when Ctrl-C comes.
    const query = 'SELECT * FROM iris_slow WHERE sleepEachRow(0.015) = 0';
    const running = async () =>
      Number(
        (
          await engine.query(
            "SELECT toFloat64(count()) FROM system.processes WHERE query LIKE '%sleepEachRow(0.015)%' AND query NOT LIKE '%system.processes%'",
          )
        )[0][0],
      );
    const args = [cliPath, 'fit', chUrl(server.url), '--query', query, '--prune', 'none'];
    const child = spawn(process.execPath, [...args, '--out', join(dir, 'never.json')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (b) => (stderr += b));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const deadline = Date.now() + 60_000;
    while ((await running()) === 0) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no query of grove's was seen: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr.trim().split('\n').at(-1)).toMatch(
      /^grove: interrupted; the temporary objects in clickhouse:\/\/.* are removed$/,
    );
    expect(await running()).toBe(0); // killed, not left to finish
    expect(readdirSync(dir)).not.toContain('never.json');
  }, 120_000);

  it('a query beyond the default max_query_size (256 KiB) passes: grove sets a larger one on each request', async () => {
    const sql = `SELECT toFloat64(length('${'x'.repeat(300_000)}'))`;
    expect(await engine.query(sql)).toEqual([[300_000]]);
    // Without grove's setting the same server refuses it: the setting is what lets it through.
    const res = await fetch(server.url, { method: 'POST', body: sql });
    expect(res.ok).toBe(false);
    expect(await res.text()).toMatch(/Max query size exceeded/);
    // Beyond grove's own limit: refused before it is sent, with a message naming the limit.
    const huge = engine.query(`SELECT length('${'x'.repeat(64 << 20)}')`);
    await expect(huge).rejects.toBeInstanceOf(GroveError);
    await expect(huge).rejects.toThrow(/over the max_query_size grove sets \(64 MiB\).*--max-depth/);
  });

  it('bin edges as hexadecimal float literals: the server reads back every double exactly', async () => {
    const values = [
      0,
      -0,
      5e-324,
      -5e-324,
      2.225073858507201e-308,
      2.2250738585072014e-308,
      0.1,
      0.30000000000000004,
      1 / 3,
      3.804,
      -1e300,
      1.7976931348623157e308,
      123456789012345680000,
      Infinity,
      -Infinity,
    ];
    const list = engine.dialect.doubleList!(values, () => '');
    const rows = await engine.query(`SELECT hex(reinterpretAsString(x)) FROM (SELECT arrayJoin(${list}) AS x)`);
    // reinterpretAsString drops trailing zero bytes.
    const bytes = values.map((v) => {
      const b = Buffer.alloc(8);
      b.writeDoubleLE(v);
      return b
        .toString('hex')
        .toUpperCase()
        .replace(/(00)+$/, '');
    });
    expect(rows.map((r) => r[0])).toEqual(bytes);
  });

  it('grove fit clickhouse://… gives the model of --bins 255; a wrong password is refused without showing it', async () => {
    assertBuilt();
    await loadCsv(engine, corpus('iris'), 'iris_cli', TINYLOG);
    const a = join(dir, 'mem.json');
    const b = join(dir, 'ch.json');
    expect(grove(['fit', corpus('iris'), '--bins', '255', '--prune', 'none', '--out', a]).status).toBe(0);
    const r = grove(['fit', chUrl(server.url), '--table', 'iris_cli', '--prune', 'none', '--out', b]);
    expect(r.stderr).toMatch(/level 0: 1 open nodes, 150 rows/);
    expect(readFileSync(b, 'utf8')).toBe(readFileSync(a, 'utf8'));
    const wrong = grove(['fit', chUrl(server.url, 'default:Wr0ng-s3cret@'), '--table', 'iris_cli', '--out', b]);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(
      /^grove: ClickHouse \(clickhouse:\/\/default@127\.0\.0\.1:\d+\/default\): .*(password|Authentication)/,
    );
    expect(wrong.stderr).not.toContain('Wr0ng-s3cret');
    expect(wrong.stderr.trim().split('\n')).toHaveLength(1);
  }, 120_000);
});

describe.skipIf(why !== undefined)('ClickHouse: a Distributed table over two shards', () => {
  let shards: ClickHouseHandle;
  beforeAll(async () => {
    shards = await startClickHouse({ shards: 2, logQueries: true });
  }, 120_000);
  afterAll(async () => {
    await shards?.stop();
  }, 60_000);

  it('trains over the Distributed table (no temporary table of its rows) and gives the tree of the same rows in one table', async () => {
    const name = 'iris'; // numeric features: no dictionary whose order depends on how shards interleave
    const [first, second] = await Promise.all(shards.urls.map((u) => ClickHouseEngine.open(chUrl(u))));
    await loadCsv(first, corpus(name), 'whole', TINYLOG);
    const { header, rows } = parseCsvRows(readFileSync(corpus(name), 'utf8'));
    const d = first.dialect;
    const columns = header.map((h) => `${d.quote(h)} String`).join(', ');
    for (const [s, engine] of [first, second].entries()) {
      await engine.query(`CREATE TABLE part (${columns})${TINYLOG}`);
      const p = new Params(d);
      const mine = rows.filter((_, i) => i % 2 === s);
      await engine.query(
        `INSERT INTO part VALUES ${mine.map((r) => `(${r.map((c) => p.add(c)).join(', ')})`).join(', ')}`,
      );
    }
    await first.query('CREATE TABLE spread AS part ENGINE = Distributed(grove, default, part)');
    const [count] = await first.query('SELECT toFloat64(count()) FROM spread');
    expect(count[0]).toBe(rows.length);
    const options: FitOptions = { prune: 'none', criterion: 'gini', maxDepth: 4 };
    // The rows of a Distributed table are never copied into a temporary table.
    const { made } = recordTempTables(first);
    const one = await engineModel(
      first,
      (await parseSourceSpec(chUrl(shards.url), { table: 'whole' })).source,
      options,
    );
    const spread = await engineModel(
      first,
      (await parseSourceSpec(chUrl(shards.url), { table: 'spread' })).source,
      options,
    );
    expect(spread).toBe(one);
    // The second shard aggregated its own rows: each of grove's queries over the Distributed table
    // reached it as the whole SELECT over its local table with the GROUP BY (not its rows).
    await second.query('SYSTEM FLUSH LOGS');
    const answered = await second.query(
      'SELECT query, toFloat64(read_rows), toFloat64(result_rows) FROM system.query_log ' +
        "WHERE type = 2 AND is_initial_query = 0 AND initial_query_id LIKE 'grove-%' AND query LIKE '%part%'",
    );
    const shardRows = rows.length / 2;
    const levels = answered.filter(([q]) => String(q).includes('arrayJoin'));
    expect(levels.length).toBeGreaterThan(2); // the root's and deeper levels' counts
    for (const [q, read, result] of levels) {
      expect(String(q)).toMatch(/FROM default\.part\b[\s\S]*GROUP BY/);
      expect(read).toBe(shardRows);
      // Grouped on the shard: fewer rows than the (row, feature) pairs its arrayJoin makes.
      expect(result).toBeLessThan((read as number) * (header.length - 1));
    }
    // The root's class totals: the shard answered 3 rows (one per class) for its 75.
    const totals = answered.filter(([q]) => /^SELECT multiIf\([\s\S]*GROUP BY `?grove_y`?$/.test(String(q).trim()));
    expect(totals.map(([, read, result]) => [read, result])).toEqual([[shardRows, 3]]);
    // No query the shard answered for grove sent its rows as they are: each grouped or aggregated them.
    for (const [q, , result] of answered)
      expect(result === 1 || /\b(GROUP BY|DISTINCT)\b/.test(String(q)), String(q).slice(0, 200)).toBe(true);
    expect(made.length).toBeGreaterThan(0); // the single table's coded rows and level tables
    expect(made.every((select) => !select.includes('spread'))).toBe(true);
    // The table function cluster() reads the shards' tables: no temporary table either.
    const before = made.length;
    const viaCluster = await engineModel(
      first,
      (await parseSourceSpec(chUrl(shards.url), { query: "SELECT * FROM cluster('grove', default, part)" })).source,
      options,
    );
    expect(viaCluster).toBe(one);
    expect(made.length).toBe(before);
    expect(await temporaryTables(first)).toBe(0);
    expect(one).toBe(await memoryModel(corpus(name), options));
  }, 300_000);

  it('a deep tree (max-depth 14, 16 bins) over the Distributed table: the tree of one table', async () => {
    const [first, second] = await Promise.all(shards.urls.map((u) => ClickHouseEngine.open(chUrl(u))));
    // Labels that are noise: the tree grows until its leaves are pure, too small or at the depth limit.
    const rowsOf = (where: string) =>
      'SELECT (cityHash64(number) % 997) / 7 AS x, (cityHash64(number, 1) % 991) / 3 AS z, ' +
      `toString(cityHash64(number, 2) % 3) AS label FROM numbers(400) WHERE ${where}`;
    for (const [s, engine] of [first, second].entries())
      await engine.query(`CREATE TABLE noisy ENGINE = TinyLog AS ${rowsOf(`number % 2 = ${s}`)}`);
    await first.query(`CREATE TABLE noisy_whole ENGINE = TinyLog AS ${rowsOf('1')}`);
    await first.query('CREATE TABLE noisy_spread AS noisy ENGINE = Distributed(grove, default, noisy)');
    const options: FitOptions = { prune: 'none', maxDepth: 14, bins: 16 };
    const one = await engineModel(
      first,
      (await parseSourceSpec(chUrl(shards.url), { table: 'noisy_whole' })).source,
      options,
    );
    const spread = await engineModel(
      first,
      (await parseSourceSpec(chUrl(shards.url), { table: 'noisy_spread' })).source,
      options,
    );
    expect(spread).toBe(one);
    const depth = (JSON.parse(one) as { nodes: { depth?: number }[] }).nodes.reduce(
      (deepest, n) => Math.max(deepest, n.depth ?? 0),
      0,
    );
    expect(depth).toBeGreaterThan(10);
  }, 300_000);
});
