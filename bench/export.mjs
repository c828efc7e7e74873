#!/usr/bin/env node
/**
 * Export benchmark (issue 20): a tree of about 10,000 leaves (unpruned CART on seeded synthetic
 * data: 8 numeric features, one 12-category feature, 3 noisy classes) exported to ONNX and to SQL
 * in each dialect (export time, wall and CPU; size); then the same rows scored by grove's predict
 * (in-process, labels + probabilities) and by the `--proba` query in DuckDB (embedded, `--rows`
 * rows), PostgreSQL 15 and ClickHouse (throwaway servers from test/helpers/servers, `--server-rows`
 * rows), and by ONNX Runtime (WebAssembly, 10,000 rows). Every engine's labels are compared with
 * grove's. Prints Markdown tables for docs/performance.md.
 *
 *   npm run build && npx vite-node bench/export.mjs [--rows 1000000] [--server-rows 100000] [--train 45000]
 *
 * (vite-node, because the database servers are started by the tests' TypeScript helpers.)
 */
import { DuckDBInstance } from '@duckdb/node-api';
import * as ort from 'onnxruntime-web';
import pg from 'pg';
import { datasetFromRows, fit, treeToOnnx, treeToSql } from '../dist/node.js';
import { clickhouseUnavailable, startClickHouse } from '../test/helpers/servers/clickhouse.ts';
import { postgresUnavailable, startPostgres } from '../test/helpers/servers/postgres.ts';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ROWS = arg('--rows', 1_000_000);
const TRAIN = arg('--train', 45_000);
const SERVER_ROWS = arg('--server-rows', 100_000);
const CATS = Array.from({ length: 12 }, (_, i) => `c${i}`);
const NUMERIC = 8;
const names = [...Array.from({ length: NUMERIC }, (_, j) => `x${j}`), 'cat'];

function generator(seed) {
  let s = seed >>> 0;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/** n rows as columns: numeric Float64Arrays (1% missing), the category strings, noisy labels. */
function makeRows(n, seed) {
  const next = generator(seed);
  const num = Array.from({ length: NUMERIC }, () => new Float64Array(n));
  const cat = new Array(n);
  const label = new Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < NUMERIC; j++) num[j][i] = next() < 0.01 ? NaN : Math.round(next() * 1e6) / 1e6;
    cat[i] = next() < 0.01 ? null : CATS[Math.floor(next() * CATS.length)];
    const signal = num[0][i] + num[1][i] * (cat[i] === 'c3' ? 2 : 1);
    label[i] = next() < 0.35 ? `k${Math.floor(next() * 3)}` : signal > 1.2 ? 'k0' : signal > 0.6 ? 'k1' : 'k2';
  }
  return { num, cat, label, n };
}

function toObjects(r) {
  return Array.from({ length: r.n }, (_, i) => {
    const o = {};
    for (let j = 0; j < NUMERIC; j++) o[`x${j}`] = Number.isNaN(r.num[j][i]) ? null : r.num[j][i];
    o.cat = r.cat[i];
    o.y = r.label[i];
    return o;
  });
}

/** f's wall and CPU seconds (CPU of this process: the exporters are synchronous). */
const time = (f) => {
  const t = performance.now();
  const c = process.cpuUsage();
  const v = f();
  const cpu = process.cpuUsage(c);
  return [v, (performance.now() - t) / 1000, (cpu.user + cpu.system) / 1e6];
};
const out = [];
const log = (line) => {
  out.push(line);
  console.log(line);
};

const train = makeRows(TRAIN, 1);
const data = datasetFromRows(toObjects(train), { target: 'y' });
const [tree, fitS] = time(() => fit(data, { algorithm: 'cart', prune: 'none' }));
const leaves = tree.nodes.filter((n) => !n.children).length;
const height = tree.nodes.reduce((h, n) => Math.max(h, n.depth), 0);
log(
  `model: ${leaves} leaves, ${tree.nodes.length} nodes, height ${height} (fit ${fitS.toFixed(1)} s on ${TRAIN} rows)`,
);
log('');
log('| export | wall (s) | CPU (s) | size |');
log('|---|---|---|---|');
const [onnx, onnxS, onnxCpu] = time(() => treeToOnnx(tree));
log(`| ONNX | ${onnxS.toFixed(3)} | ${onnxCpu.toFixed(3)} | ${(onnx.bytes.length / 1e6).toFixed(2)} MB |`);
const sql = {};
for (const dialect of ['duckdb', 'postgres', 'clickhouse']) {
  for (const proba of [false, true]) {
    const [q, s, cpu] = time(() => treeToSql(tree, { dialect, table: 'rows', proba }).sql);
    if (proba) sql[dialect] = q;
    log(
      `| SQL ${dialect}${proba ? ' --proba' : ''} | ${s.toFixed(3)} | ${cpu.toFixed(3)} | ${(q.length / 1e6).toFixed(2)} MB |`,
    );
  }
}

// The rows to score, and grove's own scoring of them.
const rows = makeRows(ROWS, 2);
const columns = [
  ...rows.num.map((values, j) => ({ kind: 'numeric', name: `x${j}`, values })),
  (() => {
    const codes = Int32Array.from(rows.cat, (c) => (c === null ? -1 : CATS.indexOf(c)));
    return { kind: 'categorical', name: 'cat', codes, categories: CATS };
  })(),
];
const scoreData = { features: columns, labels: new Int32Array(ROWS), classes: [], targetName: 'y', nRows: ROWS };
const [groveCodes, groveS, groveCpu] = time(() => {
  const codes = tree.predictCodes(scoreData);
  tree.predictProbaFlat(scoreData);
  return codes;
});
log('');
log("| scoring (labels + probabilities) | rows | time (s) | rows/s | labels equal to grove's | CPU (s), in-process |");
log('|---|---|---|---|---|---|');
log(
  `| grove predict (API, \`predictCodes\` + \`predictProbaFlat\`) | ${ROWS.toLocaleString('en')} | ${groveS.toFixed(2)} | ${Math.round(ROWS / groveS).toLocaleString('en')} | — | ${groveCpu.toFixed(2)} |`,
);

/** Count of `labels` (in row order from `from`) equal to grove's. */
const agreeing = (labels, from = 0) =>
  labels.reduce((a, l, i) => a + (String(l) === String(tree.classes[groveCodes[from + i]]) ? 1 : 0), 0);
/** A row as an object for the servers' JSON loaders. */
const rowObject = (i) => {
  const o = { id: i };
  for (let j = 0; j < NUMERIC; j++) o[`x${j}`] = Number.isNaN(rows.num[j][i]) ? null : rows.num[j][i];
  o.cat = rows.cat[i];
  return o;
};

// DuckDB: load the rows, then materialise the query (labels and probabilities).
const instance = await DuckDBInstance.create(':memory:');
const db = await instance.connect();
await db.run(
  `CREATE TABLE rows (id INTEGER, ${names.map((n) => `"${n}" ${n === 'cat' ? 'VARCHAR' : 'DOUBLE'}`).join(', ')})`,
);
const appender = await db.createAppender('rows');
for (let i = 0; i < ROWS; i++) {
  appender.appendInteger(i);
  for (let j = 0; j < NUMERIC; j++) {
    const v = rows.num[j][i];
    if (Number.isNaN(v)) appender.appendNull();
    else appender.appendDouble(v);
  }
  if (rows.cat[i] === null) appender.appendNull();
  else appender.appendVarchar(rows.cat[i]);
  appender.endRow();
}
appender.closeSync();
let t = performance.now();
await db.run(`CREATE TABLE plan_only AS ${sql.duckdb} LIMIT 0`);
const planS = (performance.now() - t) / 1000;
t = performance.now();
const duckCpu0 = process.cpuUsage();
await db.run(`CREATE TABLE scored AS ${sql.duckdb}`);
const duckS = (performance.now() - t) / 1000;
const duckCpu = process.cpuUsage(duckCpu0);
const duckLabels = (await db.runAndReadAll('SELECT predicted FROM scored ORDER BY id')).getRowsJS().map((r) => r[0]);
log(
  `| DuckDB ${'`CREATE TABLE … AS`'} the --proba query (planning ${planS.toFixed(1)} s included) | ${ROWS.toLocaleString('en')} | ${duckS.toFixed(2)} | ${Math.round(ROWS / duckS).toLocaleString('en')} | ${agreeing(duckLabels).toLocaleString('en')} | ${((duckCpu.user + duckCpu.system) / 1e6).toFixed(2)} (DuckDB's threads) |`,
);
db.closeSync();
instance.closeSync();

const pgWhy = postgresUnavailable();
if (pgWhy) log(`| PostgreSQL | skipped: ${pgWhy} | | | | |`);
else {
  const server = await startPostgres();
  const client = new pg.Client({ connectionString: server.url });
  try {
    await client.connect();
    await client.query(
      `CREATE TABLE rows (id INTEGER, ${names.map((n) => `"${n}" ${n === 'cat' ? 'TEXT' : 'DOUBLE PRECISION'}`).join(', ')})`,
    );
    for (let from = 0; from < SERVER_ROWS; from += 20_000) {
      const objs = Array.from({ length: Math.min(20_000, SERVER_ROWS - from) }, (_, k) => rowObject(from + k));
      await client.query('INSERT INTO rows SELECT * FROM json_populate_recordset(NULL::rows, $1)', [
        JSON.stringify(objs),
      ]);
    }
    t = performance.now();
    await client.query(`CREATE TABLE scored AS ${sql.postgres}`);
    const s = (performance.now() - t) / 1000;
    const r = await client.query({ text: 'SELECT predicted FROM scored ORDER BY id', rowMode: 'array' });
    log(
      `| PostgreSQL 15 ${'`CREATE TABLE … AS`'} the --proba query | ${SERVER_ROWS.toLocaleString('en')} | ${s.toFixed(2)} | ${Math.round(SERVER_ROWS / s).toLocaleString('en')} | ${agreeing(r.rows.map((x) => x[0])).toLocaleString('en')} | (server) |`,
    );
  } catch (e) {
    log(`| PostgreSQL 15 | failed: ${String(e.message).split('\n')[0]} | | | | |`);
  } finally {
    await client.end().catch(() => {});
    await server.stop();
  }
}
const chWhy = clickhouseUnavailable();
if (chWhy) log(`| ClickHouse | skipped: ${chWhy} | | | | |`);
else {
  const server = await startClickHouse();
  const q = async (query, settings = {}) => {
    const res = await fetch(`${server.url}/?${new URLSearchParams(settings)}`, { method: 'POST', body: query });
    const text = await res.text();
    if (!res.ok) throw new Error(text.slice(0, 300));
    return text;
  };
  try {
    await q(
      `CREATE TABLE rows (id UInt32, ${names.map((n) => `\`${n}\` Nullable(${n === 'cat' ? 'String' : 'Float64'})`).join(', ')}) ENGINE = Memory`,
    );
    for (let from = 0; from < SERVER_ROWS; from += 50_000) {
      const lines = [];
      for (let i = from; i < Math.min(from + 50_000, SERVER_ROWS); i++) lines.push(JSON.stringify(rowObject(i)));
      await q(`INSERT INTO rows FORMAT JSONEachRow\n${lines.join('\n')}`);
    }
    const settings = {
      max_query_size: '1000000000',
      max_ast_elements: '100000000',
      max_expanded_ast_elements: '100000000',
      max_ast_depth: '100000',
    };
    // The query's analysis is a fixed cost (docs/export.md): time it on no rows, then on all.
    t = performance.now();
    await q(`SELECT count() FROM (${sql.clickhouse}) WHERE 0`, settings);
    const analysisS = (performance.now() - t) / 1000;
    t = performance.now();
    await q(`CREATE TABLE scored ENGINE = Memory AS ${sql.clickhouse}`, settings);
    const s = (performance.now() - t) / 1000;
    const labels = (await q('SELECT predicted FROM scored ORDER BY id FORMAT TabSeparated')).trim().split('\n');
    log(
      `| ClickHouse 18.16 ${'`CREATE TABLE … AS`'} the --proba query (analysis alone: ${analysisS.toFixed(1)} s) | ${SERVER_ROWS.toLocaleString('en')} | ${s.toFixed(2)} | ${Math.round(SERVER_ROWS / s).toLocaleString('en')} | ${agreeing(labels).toLocaleString('en')} | (server) |`,
    );
  } catch (e) {
    log(`| ClickHouse 18.16 | failed: ${String(e.message).split('\n')[0].slice(0, 160)} | | | | |`);
  } finally {
    await server.stop();
  }
}

// ONNX Runtime on the first 10,000 rows (its inputs are float32: labels compared as they come).
const SMALL = Math.min(10_000, ROWS);
ort.env.wasm.numThreads = 1;
{
  t = performance.now();
  const session = await ort.InferenceSession.create(onnx.bytes);
  const feeds = {};
  for (let j = 0; j < NUMERIC; j++)
    feeds[`x${j}`] = new ort.Tensor('float32', Float32Array.from(rows.num[j].subarray(0, SMALL)), [SMALL, 1]);
  feeds.cat = new ort.Tensor(
    'string',
    rows.cat.slice(0, SMALL).map((c) => c ?? ''),
    [SMALL, 1],
  );
  const result = await session.run(feeds);
  const s = (performance.now() - t) / 1000;
  log(
    `| ONNX Runtime (web, WebAssembly, 1 thread; session creation included; inputs rounded to float32) | ${SMALL.toLocaleString('en')} | ${s.toFixed(2)} | ${Math.round(SMALL / s).toLocaleString('en')} | ${agreeing(Array.from(result.label.data)).toLocaleString('en')} | |`,
  );
}
