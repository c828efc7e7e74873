import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { mulberry32 } from '../../src/core/random.js';
import { DuckDBEngine } from '../../src/engines/duckdb.js';
import { fitInEngine } from '../../src/engines/fit.js';
import type { FitOptions } from '../../src/options/options.js';
import { parseSourceSpec } from '../../src/sources/engine-source.js';
import { readDataset } from '../../src/sources/file-source.js';
import { type Dialect, duckdbDialect } from '../../src/sql/index.js';
import { assertBuilt, grove } from '../helpers/cli.js';
import { corpus, haveCorpus } from '../helpers/paths.js';
import { writeClashingCsv } from './clashing-names.js';
import { engineModel, memoryModel } from './identical.js';

let engine: DuckDBEngine;
let dir: string;
beforeAll(async () => {
  engine = await DuckDBEngine.open();
  dir = mkdtempSync(join(tmpdir(), 'grove-indb-'));
});
afterAll(async () => {
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** grove's tables in any of the engine's databases (temporary or in its work database). */
const grovesTables = async () =>
  Number(
    (
      await engine.query("SELECT count(*) FROM duckdb_tables() WHERE table_name LIKE 'grove\\_rows\\_%' ESCAPE '\\'")
    )[0][0],
  );

const none: FitOptions = { prune: 'none' };
const CASES: [string, FitOptions][] = [
  ['iris', none], // numeric
  ['glass', { ...none, criterion: 'info-gain' }], // numeric, many distinct values
  ['car', { ...none, criterion: 'gain-ratio', categoricalSplit: 'multiway' }], // categorical multiway
  ['mushroom', { ...none, criterion: 'twoing' }], // categorical subsets, missing values
  ['house-votes-84', { ...none, missing: 'learned', criterion: 'chi-square' }], // missing values, learned
  ['breast-cancer-wisconsin-original', { prune: 'pessimistic', criterion: 'g-statistic' }],
  ['haberman', { prune: 'error-based', criterion: 'normalized-gain', maxDepth: 6 }],
  ['pima-indians-diabetes', { prune: 'cost-complexity', ccpAlpha: 0.005, criterion: 'average-gain', bins: 32 }],
  ['balance-scale', { ...none, criterion: 'dcsm', classWeight: { L: 2, R: 3 } }],
  ['wine', { ...none, criterion: 'chandra-varghese', minSamplesLeaf: 3 }],
  ['glass', { ...none, criterion: 'hellinger', minSamplesLeaf: 2 }], // six imbalanced classes (9 to 76 rows)
];

describe.skipIf(!haveCorpus)('in-database training with DuckDB gives the in-memory histogram tree', () => {
  for (const [name, options] of CASES) {
    it(`${name} ${JSON.stringify(options)}`, async () => {
      const spec = await parseSourceSpec(corpus(name));
      const mem = await memoryModel(corpus(name), options);
      expect(await engineModel(engine, spec.source, options)).toBe(mem);
    });
  }

  it('a sample-weight column (whole numbers, zeros among them) gives the tree of sampleWeight', async () => {
    const text = readFileSync(corpus('vehicle'), 'utf8').trimEnd().split('\n');
    const weights = new Float64Array(text.length - 1);
    const rows = text.map((line, i) => {
      if (i === 0) return `${line},wt`;
      weights[i - 1] = (i * 7) % 4;
      return `${line},${weights[i - 1]}`;
    });
    const file = join(dir, 'vehicle-weighted.csv');
    writeFileSync(file, `${rows.join('\n')}\n`);
    const data = await readDataset(corpus('vehicle'));
    const mem = JSON.stringify(fit(data, { bins: 255, prune: 'none', sampleWeight: weights }).toJSON());
    const spec = await parseSourceSpec(file);
    const target = data.targetName;
    expect(await engineModel(engine, spec.source, none, { weight: 'wt', target })).toBe(mem);
  });
});

describe.skipIf(!haveCorpus)('in-database training with DuckDB: the level tables are temporary and removed', () => {
  it('none is left after a fit, nor after one stopped between levels', async () => {
    const spec = await parseSourceSpec(corpus('glass'));
    let levels: number[] = [];
    await fitInEngine(engine, { source: spec.source, onLevel: ({ level }) => void levels.push(level) }, none);
    expect(levels.length).toBeGreaterThan(3);
    expect(await grovesTables()).toBe(0);

    const stop = new AbortController();
    levels = [];
    const stopped = fitInEngine(
      engine,
      {
        source: spec.source,
        signal: stop.signal,
        onLevel: ({ level }) => {
          levels.push(level);
          if (level === 2) stop.abort();
        },
      },
      none,
    );
    await expect(stopped).rejects.toThrow(/interrupted/);
    expect(levels).toEqual([0, 1, 2]);
    expect(await grovesTables()).toBe(0);
  });
});

describe('in-database training with DuckDB: names and values never become SQL', () => {
  it('a column named a"b; DROP TABLE x and values with quotes train as in memory', async () => {
    const file = join(dir, 'evil.csv');
    const lines = ['"a""b; DROP TABLE x",\'c\'\'--,y'];
    for (let i = 0; i < 60; i++) lines.push(`${i % 7},"it's ${i % 3}""; --",${i % 7 > 2 ? "q'1" : '"p""0"'}`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    const spec = await parseSourceSpec(file);
    const mem = await memoryModel(file, none);
    expect(mem).toContain('a\\"b; DROP TABLE x');
    expect(await engineModel(engine, spec.source, none)).toBe(mem);
  });
});

describe('in-database training with DuckDB: NaN is a missing value', () => {
  it('a Parquet file with NaN cells gives the tree of the same rows with empty cells in memory', async () => {
    const random = mulberry32(5);
    const rows = Array.from({ length: 600 }, () => {
      const a = random() < 0.2 ? null : Math.round(random() * 400) / 4;
      const b = random() < 0.1 ? null : random();
      return { a, b, y: (a ?? 50) + 40 * (b ?? 0.5) > 70 ? 'hi' : 'lo' };
    });
    const csv = join(dir, 'nan.csv');
    writeFileSync(csv, `a,b,y\n${rows.map((r) => `${r.a ?? ''},${r.b ?? ''},${r.y}`).join('\n')}\n`);
    const parquet = join(dir, 'nan.parquet');
    const cell = (v: number | null) => (v === null ? "CAST('NaN' AS DOUBLE)" : `CAST('${v}' AS DOUBLE)`);
    const values = rows.map((r) => `(${cell(r.a)}, ${cell(r.b)}, '${r.y}')`).join(', ');
    await engine.query(`COPY (SELECT * FROM (VALUES ${values}) AS t(a, b, y)) TO '${parquet}' (FORMAT PARQUET)`);
    const options: FitOptions = { prune: 'none', missing: 'learned' };
    const spec = await parseSourceSpec(parquet);
    expect(await engineModel(engine, spec.source, options)).toBe(await memoryModel(csv, options));
  });
});

describe('in-database training with DuckDB: a delimited file is read as in memory', () => {
  it("a CSV file of ';' is sniffed (with the reader's note) or read with the delimiter given", async () => {
    const rows = Array.from(
      { length: 40 },
      (_, i) => `${(i * 7) % 13};${i % 3 === 0 ? 'r' : 'g'};${i % 13 < 6 ? 'n' : 'p'}`,
    );
    const file = join(dir, 'semicolons.csv');
    writeFileSync(file, `x;colour;label\n${rows.join('\n')}\n`);
    const notes: string[] = [];
    const sniffed = await parseSourceSpec(file, {}, { onWarning: (m) => notes.push(m) });
    expect(notes).toEqual([
      `${file}: no comma in the header: read with ';' as the delimiter (sniffed; --delimiter sets it)`,
    ]);
    const mem = await memoryModel(file, none);
    expect(mem).toContain('"colour"');
    expect(await engineModel(engine, sniffed.source, none)).toBe(mem);
    const bars = join(dir, 'bars.csv');
    writeFileSync(bars, `x|colour|label\n${rows.map((r) => r.replaceAll(';', '|')).join('\n')}\n`);
    const given = await parseSourceSpec(bars, {}, { delimiter: '|', onWarning: (m) => notes.push(m) });
    expect(notes).toHaveLength(1);
    expect(await engineModel(engine, given.source, none)).toBe(mem.replaceAll(file, bars));
  });

  it("cells missing by the readers' tokens (NA, null, ?) or by --na are missing; latin1 text is decoded", async () => {
    const lines = Array.from({ length: 60 }, (_, i) => {
      const x = i % 7 === 0 ? 'NA' : i % 9 === 0 ? '?' : String((i * 37) % 50);
      const colour = i % 11 === 0 ? 'null' : i % 4 === 0 ? 'rot' : 'grün';
      return `${x},${colour},${(i * 37) % 50 < 25 === (i % 4 === 0) ? 'ja' : 'nein'}`;
    });
    const file = join(dir, 'tokens.csv');
    writeFileSync(file, Buffer.from(`x,colour,label\n${lines.join('\n')}\n`, 'latin1'));
    const same = async (read: { naTokens?: string[] }) => {
      const data = await readDataset(file, { encoding: 'latin1', ...read });
      const mem = JSON.stringify(fit(data, { bins: 255, ...none }).toJSON());
      const spec = await parseSourceSpec(file, {}, { encoding: 'latin1', ...read });
      expect(await engineModel(engine, spec.source, none)).toBe(mem);
      return mem;
    };
    // By default x is numeric (NA and ? missing) and `null` is a missing colour, as in memory.
    const byDefault = await same({});
    expect(byDefault).toContain('grün');
    expect(byDefault).not.toContain('"null"');
    // With --na NA only, ? and null are values: x turns categorical.
    expect(await same({ naTokens: ['', 'NA'] })).toContain('"null"');
    await expect(parseSourceSpec(file, {}, { encoding: 'windows-1252' })).rejects.toThrow(
      /--encoding: DuckDB does not read windows-1252 text/,
    );
  });

  it('--na and --encoding on a database source: exit 2, one line', () => {
    assertBuilt();
    const r = grove([
      'fit',
      `duckdb:${join(dir, 'none.duckdb')}`,
      '--table',
      't',
      '--na',
      'NA',
      '--out',
      join(dir, 'm'),
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe('grove: --na and --encoding say how a data file is read, not a database source');
  });
});

describe('in-database training refuses what it cannot push down', () => {
  const refusals: [FitOptions, RegExp][] = [
    [{ algorithm: 'cmbsv' }, /C-MBSV/],
    [{ prune: 'reduced-error' }, /reduced-error/],
    [{ prune: 'cost-complexity' }, /cross-validation.*ccpAlpha/],
  ];
  for (const [options, message] of refusals) {
    it(JSON.stringify(options), async () => {
      const spec = await parseSourceSpec(join(dir, 'never-read.csv'));
      await expect(fitInEngine(engine, { source: spec.source }, options)).rejects.toThrow(message);
    });
  }
});

describe.skipIf(!haveCorpus)('grove fit --engine duckdb', () => {
  beforeAll(() => assertBuilt());

  it('writes the model of --bins 255 in memory, with one progress line per level', () => {
    const a = join(dir, 'mem.json');
    const b = join(dir, 'duck.json');
    expect(grove(['fit', corpus('iris'), '--bins', '255', '--prune', 'none', '--out', a]).status).toBe(0);
    const r = grove(['fit', corpus('iris'), '--engine', 'duckdb', '--prune', 'none', '--out', b]);
    expect(r.status).toBe(0);
    expect(readFileSync(b, 'utf8')).toBe(readFileSync(a, 'utf8'));
    expect(r.stderr).toMatch(/level 0: 1 open nodes, 150 rows, [\d.]+ s/);
  });

  it('trains on a table of a DuckDB database file, --table and --query', async () => {
    const db = join(dir, 'iris.duckdb');
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const inst = await DuckDBInstance.create(db);
    const conn = await inst.connect();
    await conn.run(`CREATE TABLE "my ""iris""" AS SELECT * FROM read_csv('${corpus('iris')}', all_varchar = true)`);
    conn.closeSync();
    inst.closeSync();
    const a = join(dir, 'mem2.json');
    const b = join(dir, 'table.json');
    const c = join(dir, 'query.json');
    expect(grove(['fit', corpus('iris'), '--bins', '255', '--prune', 'none', '--out', a]).status).toBe(0);
    expect(grove(['fit', `duckdb:${db}`, '--table', 'my "iris"', '--prune', 'none', '--out', b]).status).toBe(0);
    expect(readFileSync(b, 'utf8')).toBe(readFileSync(a, 'utf8'));
    const q = grove([
      'fit',
      `duckdb:${db}`,
      '--query',
      'SELECT * FROM "my ""iris""" WHERE 1 = 0',
      '--prune',
      'none',
      '--out',
      c,
    ]);
    expect(q.status).toBe(2);
    expect(q.stderr).toMatch(/no data rows/);
  });

  it('bad inputs: unknown table and column, a non-numeric column declared numeric; exit 2, one line', () => {
    const out = join(dir, 'bad.json');
    const unknownColumn = grove([
      'fit',
      corpus('iris'),
      '--engine',
      'duckdb',
      '--target',
      'nope',
      '--prune',
      'none',
      '--out',
      out,
    ]);
    expect(unknownColumn.status).toBe(2);
    expect(unknownColumn.stderr).toMatch(/unknown target column 'nope'/);
    const numeric = grove([
      'fit',
      corpus('car'),
      '--engine',
      'duckdb',
      '--numeric',
      'buying',
      '--prune',
      'none',
      '--out',
      out,
    ]);
    expect(numeric.status).toBe(2);
    expect(numeric.stderr).toMatch(/column 'buying'.*expected a number, found '/);
    const table = grove([
      'fit',
      `duckdb:${join(dir, 'iris.duckdb')}`,
      '--table',
      'nope',
      '--prune',
      'none',
      '--out',
      out,
    ]);
    expect(table.status).toBe(2);
    expect(table.stderr).toMatch(/nope/);
    for (const r of [unknownColumn, numeric, table]) expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe.skipIf(!haveCorpus)('in-database training with DuckDB: what the temporary tables hold', () => {
  /**
   * A level's rows as `run` leaves them: a temporary table made (its SELECT) or an UPDATE of one's
   * node column (its statement), and the rows then in a node (node ≥ 0).
   */
  interface Written {
    name: string;
    sql: string;
    rows: number;
    /** The distinct nodes of those rows. */
    nodes: number;
  }

  /** Each temporary table `engine` makes during `run` and each UPDATE of one, in order. */
  async function recordTables(run: () => Promise<unknown>): Promise<Written[]> {
    const made: Written[] = [];
    const tempTable = engine.tempTable.bind(engine);
    const query = engine.query.bind(engine);
    const record = async (name: string, sql: string, inNodes: boolean) => {
      const where = inNodes ? 'WHERE node >= 0' : '';
      const nodes = inNodes ? 'count(DISTINCT node)' : '0';
      const [[rows, distinct]] = await query(
        `SELECT CAST(count(*) AS DOUBLE), CAST(${nodes} AS DOUBLE) FROM ${name} ${where}`,
      );
      made.push({ name, sql, rows: Number(rows), nodes: Number(distinct) });
    };
    engine.tempTable = async (...args) => {
      const created = await tempTable(...args);
      await record(created.name, args[0], args[0].startsWith('SELECT CAST(slot'));
      // What the clean-up checks count sees each table grove makes.
      expect(await grovesTables()).toBeGreaterThan(0);
      return created;
    };
    engine.query = async (...args) => {
      const result = await query(...args);
      const updated = /^UPDATE (.+?) SET node = /.exec(args[0]);
      if (updated) await record(updated[1], args[0], true);
      return result;
    };
    try {
      await run();
    } finally {
      engine.tempTable = tempTable;
      engine.query = query;
    }
    return made;
  }

  /**
   * The rule for a level's rows: its table's node column updated in place while at least half the
   * table's rows are in the level's nodes; else a new table of those rows only, made from it.
   */
  function expectUpdatesWhileHalfIsOpen(made: Written[]): void {
    const tableRows = new Map<string, number>([[made[0].name, made[0].rows]]);
    for (let i = 1; i < made.length; i++) {
      const { name, sql, rows } = made[i];
      if (sql.startsWith('UPDATE ')) {
        expect(name).toBe(made[i - 1].name);
        expect(2 * rows).toBeGreaterThanOrEqual(tableRows.get(name)!);
      } else {
        expect(sql).toContain(made[i - 1].name);
        expect(2 * rows).toBeLessThan(tableRows.get(made[i - 1].name)!);
        tableRows.set(name, rows);
      }
    }
  }

  it('rows of weight 1 are stored without w; a level updates the node column while half the rows are open, then writes the open rows anew; the tree is memory’s', async () => {
    const spec = await parseSourceSpec(corpus('iris'));
    let model = '';
    const made = await recordTables(async () => void (model = await engineModel(engine, spec.source, none)));
    expect(model).toBe(await memoryModel(corpus('iris'), none));
    // The coded rows: node (every row at the root), y, c0 …
    expect(made[0].sql).toMatch(/^SELECT CAST\(0 AS SMALLINT\) AS node, \* FROM \(SELECT y, CAST\(/);
    expect(made[0].rows).toBe(150);
    // Level 1 (one split, the root's) reads the coded rows with the root's step as their node; level
    // 2 stores its nodes in their node column, the 50 setosa rows of the root's leaf at −1.
    expect(made[1].sql).toMatch(/^UPDATE .+ SET node = CASE lf\[CAST\(CASE WHEN 0 = 0 THEN CASE WHEN c\d+ /);
    expect(made[1].rows).toBe(100);
    // Then leaves are reached: fewer than 75 rows open, a new table of them.
    expect(made[2].sql).toMatch(/^SELECT CAST\(slot AS SMALLINT\) AS node, y, c0, /);
    expectUpdatesWhileHalfIsOpen(made);
    expect(made.at(-1)!.rows).toBeLessThan(50);
  });

  it('at the depth limit a level holds only the counted nodes’ rows; the tree is memory’s', async () => {
    const spec = await parseSourceSpec(corpus('glass'));
    const levels = async (maxDepth: number) => {
      let model = '';
      const options: FitOptions = { ...none, maxDepth };
      const made = await recordTables(async () => void (model = await engineModel(engine, spec.source, options)));
      expect(model).toBe(await memoryModel(corpus('glass'), options));
      return made;
    };
    // Level 2's rows (level 1 has none of its own), with and without level 3 below it.
    const [, last] = await levels(3);
    const [, inner] = await levels(4);
    expect(last.rows).toBeGreaterThan(0);
    expect(last.rows).toBeLessThan(inner.rows);
  });

  it('a level of more nodes than the node column holds writes a new table, as do the levels after it; the tree is memory’s', async () => {
    const spec = await parseSourceSpec(corpus('glass'));
    const narrow = engine as { dialect: Dialect };
    narrow.dialect = { ...duckdbDialect, nodeColumn: { type: 'SMALLINT', max: 1 } };
    let model = '';
    let made: Written[];
    try {
      made = await recordTables(async () => void (model = await engineModel(engine, spec.source, none)));
    } finally {
      narrow.dialect = duckdbDialect;
    }
    expect(model).toBe(await memoryModel(corpus('glass'), none));
    // A level of two nodes or more: a new table, its node column of the narrowest type, not updated.
    const many = made.slice(1).filter(({ nodes }) => nodes > 1);
    expect(many.length).toBeGreaterThan(2);
    for (const { sql } of many) expect(sql).toMatch(/^SELECT CAST\(slot AS UTINYINT\) AS node, /);
  });

  it('a level counted in batches reads its counts from tables of counts made in one pass; the tree is memory’s', async () => {
    const spec = await parseSourceSpec(corpus('glass'));
    const options: FitOptions = { ...none, criterion: 'info-gain' };
    let model = '';
    // One cell per batch at most: every family of nodes is a batch of its own.
    const made = await recordTables(async () => void (model = await engineModel(engine, spec.source, options, {}, 1)));
    expect(model).toBe(await memoryModel(corpus('glass'), options));
    const counts = made.filter(({ sql }) => /GROUP BY node, y, c\d+\) AS counts$/.test(sql));
    // One table per code column (9 features) for each level of more than one family.
    expect(counts.length).toBeGreaterThanOrEqual(2 * 9);
    expect(counts.length % 9).toBe(0);
    expect(await grovesTables()).toBe(0);
  });

  it('Ctrl-C while the tables of counts are made leaves no table behind', async () => {
    const spec = await parseSourceSpec(corpus('glass'));
    const stop = new AbortController();
    const tempTable = engine.tempTable.bind(engine);
    let counts = 0;
    engine.tempTable = async (...args) => {
      if (/GROUP BY node, y, c\d+\) AS counts$/.test(args[0]) && ++counts === 3) stop.abort();
      return tempTable(...args);
    };
    try {
      const fitted = fitInEngine(engine, { source: spec.source, signal: stop.signal, batchCells: 1 }, none);
      await expect(fitted).rejects.toThrow(/interrupted/);
    } finally {
      engine.tempTable = tempTable;
    }
    expect(counts).toBe(3);
    expect(await grovesTables()).toBe(0);
  });

  it('weighted rows keep their w column in every table', async () => {
    const spec = await parseSourceSpec(corpus('balance-scale'));
    const options: FitOptions = { ...none, classWeight: { L: 2, R: 3 } };
    const made = await recordTables(() => engineModel(engine, spec.source, options));
    expect(made[0].sql).toMatch(/^SELECT CAST\(0 AS SMALLINT\) AS node, \* FROM \(SELECT y, w, /);
    const tables = made.slice(1).filter(({ sql }) => !sql.startsWith('UPDATE '));
    expect(tables.length).toBeGreaterThan(0);
    expect(tables.length).toBeLessThan(made.length - 1);
    for (const { sql } of tables) expect(sql).toMatch(/^SELECT CAST\(slot AS SMALLINT\) AS node, y, w, c0, /);
    expectUpdatesWhileHalfIsOpen(made);
  });
});

describe.skipIf(!haveCorpus)('in-database training with DuckDB: columns named like grove’s own aliases', () => {
  it('a feature named y with balanced class weights gives the in-memory tree', async () => {
    const [header, ...rest] = readFileSync(corpus('iris'), 'utf8').trimEnd().split('\n');
    const file = join(dir, 'iris-y.csv');
    writeFileSync(file, `${['y', ...header.split(',').slice(1)].join(',')}\n${rest.join('\n')}\n`);
    const options: FitOptions = { ...none, classWeight: 'balanced' };
    const spec = await parseSourceSpec(file);
    expect(await engineModel(engine, spec.source, options)).toBe(await memoryModel(file, options));
  });

  it('features named y, w, v0, rn, node, grove_y…, a weight column grove_w, class weights: the in-memory tree', async () => {
    const files = writeClashingCsv(dir);
    for (const options of [
      { ...none, maxDepth: 6 },
      { ...none, maxDepth: 6, classWeight: { A: 2, B: 1, C: 3 } },
    ]) {
      const plain = await parseSourceSpec(files.plain);
      expect(await engineModel(engine, plain.source, options)).toBe(await memoryModel(files.plain, options));
    }
    const options: FitOptions = { ...none, maxDepth: 6, classWeight: 'balanced' };
    const weighted = await parseSourceSpec(files.weighted);
    expect(await engineModel(engine, weighted.source, options, { target: 'label', weight: 'grove_w' })).toBe(
      await memoryModel(files.plain, options, files.weights),
    );
  });
});
