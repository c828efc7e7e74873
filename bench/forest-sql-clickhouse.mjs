#!/usr/bin/env node
/**
 * A forest's SQL export in ClickHouse (a throwaway server from test/helpers/servers): the time of
 * one `--proba` query over iris's 150 rows (almost all of it the server analysing the query) per
 * forest, and the time of the query over iris repeated to `--rows` rows (`FORMAT Null`: the
 * scoring), for this build's dist/ and, with `--base DIR`, another build's dist/ in alternating
 * rounds. Every answer's labels and probabilities are checked against that build's own forest.
 *
 *   npx tsc -p tsconfig.json && nice -n 10 npx vite-node bench/forest-sql-clickhouse.mjs \
 *     [--forests 20,0/40,0/50,0/100,0/100,3/100,4] [--rounds 3] [--rows 150000] [--base DIR]
 *
 * A forest is `trees,maxDepth` (0: grown until pure), seed 2, on data/iris.csv. (vite-node,
 * because the server is started by the tests' TypeScript helper.)
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createClient } from '@clickhouse/client';
import { startClickHouse } from '../test/helpers/servers/clickhouse.ts';

const argv = process.argv.slice(2);
const opt = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const ROOT = resolve(import.meta.dirname, '..');
const forests = opt('--forests', '20,0/40,0/50,0/100,0/100,3/100,4')
  .split('/')
  .map((f) => f.split(',').map(Number));
const rounds = Number(opt('--rounds', '3'));
const bigRows = Number(opt('--rows', '150000'));
const builds = [...(opt('--base') ? [['base', resolve(opt('--base'))]] : []), ['this', resolve(ROOT, 'dist')]];
const SETTINGS = {
  max_query_size: '1000000000',
  max_ast_elements: '100000000',
  max_expanded_ast_elements: '100000000',
  max_ast_depth: '100000',
};
const quote = (name) => `\`${name.replaceAll('\\', '\\\\').replaceAll('`', '\\`')}\``;

const server = await startClickHouse();
const client = createClient({ url: server.url, request_timeout: 900_000 });
try {
  const groves = await Promise.all(builds.map(([, dist]) => import(pathToFileURL(resolve(dist, 'node.js')).href)));
  const data = await groves[0].readDataset(resolve(ROOT, 'data/iris.csv'));
  const names = data.features.map((c) => c.name);
  await client.command({
    query: `CREATE TABLE iris (${names.map((n) => `${quote(n)} Nullable(Float64)`).join(', ')}) ENGINE = Memory`,
  });
  const values = Array.from({ length: data.nRows }, (_, i) =>
    Object.fromEntries(data.features.map((c) => [c.name, c.values[i]])),
  );
  await client.insert({ table: 'iris', values, format: 'JSONEachRow' });
  const copies = Math.max(1, Math.round(bigRows / data.nRows));
  await client.command({
    query: `CREATE TABLE iris_big ENGINE = Memory AS SELECT ${names.map(quote).join(', ')} FROM iris ARRAY JOIN range(${copies}) AS k`,
  });

  /** Seconds of one query, its answer parsed (JSONCompact) or discarded (`FORMAT Null`). */
  async function timed(sql, parse) {
    const t0 = performance.now();
    if (parse) {
      const result = await client.query({ query: sql, format: 'JSONCompact', clickhouse_settings: SETTINGS });
      const json = await result.json();
      return [(performance.now() - t0) / 1000, json];
    }
    await client.command({ query: `${sql} FORMAT Null`, clickhouse_settings: SETTINGS });
    return [(performance.now() - t0) / 1000, undefined];
  }

  /** The largest probability difference from grove's, and the labels that differ. */
  function check(forest, json) {
    const columns = json.meta.map((m) => m.name);
    const expected = forest.predictProbaFlat(data);
    const labels = forest.predict(data).map(String);
    const k = forest.classes.length;
    let worst = 0;
    let wrong = 0;
    json.data.forEach((row, i) => {
      if (String(row[columns.indexOf('predicted')]) !== labels[i]) wrong++;
      forest.classes.forEach((c, j) => {
        worst = Math.max(worst, Math.abs(Number(row[columns.lastIndexOf(String(c))]) - expected[i * k + j]));
      });
    });
    return { worst, wrong };
  }

  const results = new Map();
  for (let round = 0; round < rounds; round++) {
    for (const [trees, depth] of forests) {
      for (const [b, [build]] of builds.entries()) {
        const grove = groves[b];
        const forest = grove.fitForest(data, { trees, seed: 2, ...(depth > 0 ? { maxDepth: depth } : {}) });
        const sql = grove.forestToSql(forest, { dialect: 'clickhouse', table: 'iris', proba: true }).sql;
        const [small, json] = await timed(sql, true);
        const { worst, wrong } = check(forest, json);
        const big = grove.forestToSql(forest, { dialect: 'clickhouse', table: 'iris_big', proba: true }).sql;
        const [scoring] = await timed(big, false);
        const key = `${trees},${depth}|${build}`;
        const r = results.get(key) ?? { trees, depth, build, small: [], scoring: [], worst: 0, wrong: 0 };
        r.small.push(small);
        r.scoring.push(scoring);
        r.worst = Math.max(r.worst, worst);
        r.wrong += wrong;
        r.kb = sql.length / 1024;
        r.nodes = forest.trees.reduce((a, t) => a + t.nodes.length, 0);
        results.set(key, r);
        console.error(`round ${round + 1} ${key}: ${small.toFixed(2)} s, ${scoring.toFixed(2)} s`);
      }
    }
  }
  const range = (xs) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;
  console.log(
    `| forest (iris) | nodes | build | query KB | 150 rows, s | ${data.nRows * copies} rows, s | labels differing | largest probability difference |`,
  );
  console.log('|---|--:|---|--:|--:|--:|--:|--:|');
  for (const r of results.values())
    console.log(
      `| ${r.trees} trees, ${r.depth > 0 ? `depth ${r.depth}` : 'until pure'} | ${r.nodes} | ${r.build} | ${r.kb.toFixed(0)} | ` +
        `${range(r.small)} | ${range(r.scoring)} | ${r.wrong} | ${r.worst.toExponential(1)} |`,
    );
} finally {
  await client.close();
  await server.stop();
}
