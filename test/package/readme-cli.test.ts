/**
 * Every `grove` command of the README's shell examples, run in order in one new directory (so
 * `iris.json` from one line is there for the next) with `grove` the built CLI, on the shipped data
 * and small files made to the names the examples use. A line that needs what a test machine may
 * lack (a database server, the UCI corpus, Graphviz) is skipped with the reason printed.
 */
import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cliPath, repoRoot } from '../helpers/cli.js';
import { dataDir, haveCorpus } from '../helpers/paths.js';
import { readmeBlocks, userProject } from './readme-helpers.js';

const hasDot = spawnSync('dot', ['-V']).status === 0;

/** Why a line cannot run here, or undefined. */
function skipReason(line: string): string | undefined {
  if (/postgres:\/\/|clickhouse:\/\//.test(line))
    return 'needs a PostgreSQL or ClickHouse server (test/engines runs these sources on throwaway servers)';
  if (line.includes(dataDir) && !haveCorpus) return `needs the UCI corpus (${dataDir} not found)`;
  if (line.includes('out/cmp/') && !haveCorpus) return 'needs the comparison on the UCI corpus above';
  if (/\|\s*dot\b/.test(line) && !hasDot) return 'needs Graphviz (dot) on PATH';
  return undefined;
}

/** The README's `grove` lines (without `npx`), with the README line each is on. */
function groveLines(): { line: number; command: string }[] {
  const out: { line: number; command: string }[] = [];
  for (const block of readmeBlocks().filter((b) => b.lang === 'sh')) {
    block.text.split('\n').forEach((text, i) => {
      const m = /^\s*(?:npx\s+)?(grove\s.*)$/.exec(text);
      if (m?.[1] === undefined) return;
      // A trailing comment is prose; `--open` would start a browser.
      // The corpus is ../shared/datasets beside a clone, or $GROVE_DATA_DIR.
      const command = m[1]
        .replace(/\s+#\s.*$/, '')
        .replace(/\s--open\b/, '')
        .replace('../shared/datasets', dataDir);
      out.push({ line: block.line + 1 + i, command });
    });
  }
  return out;
}

let dir = '';

beforeAll(async () => {
  assertBuilt();
  dir = userProject();
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'bin/grove'), `#!/bin/sh\nexec "${process.execPath}" "${cliPath}" "$@"\n`);
  chmodSync(join(dir, 'bin/grove'), 0o755);
  mkdirSync(join(dir, 'test/fixtures'), { recursive: true });
  copyFileSync(resolve(repoRoot, 'test/fixtures/play-tennis.csv'), join(dir, 'test/fixtures/play-tennis.csv'));
  copyFileSync(resolve(repoRoot, 'data/iris.csv'), join(dir, 'iris.csv'));
  const sales = ['tenure,plan,churn'];
  for (let i = 0; i < 60; i++) sales.push(`${i},${['basic', 'pro', 'team'][i % 3]},${i % 4 === 0 ? 'yes' : 'no'}`);
  writeFileSync(join(dir, 'new.csv.gz'), gzipSync(`${sales.join('\n')}\n`));
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(join(dir, 'shop.duckdb'));
  const c = await db.connect();
  const iris = join(dir, 'iris.csv');
  await c.run(`COPY (SELECT * FROM read_csv('${iris}')) TO '${join(dir, 'iris.parquet')}' (FORMAT parquet)`);
  await c.run(`COPY (SELECT * FROM read_csv('${iris}')) TO '${join(dir, 'big.parquet')}' (FORMAT parquet)`);
  await c.run(
    `COPY (SELECT * FROM read_csv('${join(dir, 'new.csv.gz')}')) TO '${join(dir, 'sales.parquet')}' (FORMAT parquet)`,
  );
  await c.run(
    `CREATE TABLE orders AS SELECT tenure, plan, churn AS churned FROM read_csv('${join(dir, 'new.csv.gz')}')`,
  );
  c.closeSync();
  db.closeSync();
}, 60_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the README's grove commands", () => {
  it('run, in order, each exiting 0', async () => {
    const lines = groveLines();
    expect(lines.length).toBeGreaterThan(20);
    const failed: string[] = [];
    const env = { ...process.env, PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`, NO_COLOR: '1' };
    for (const { line, command } of lines) {
      const why = skipReason(command);
      if (why !== undefined) {
        console.warn(`README.md:${line}: skipped (${why}): ${command}`);
        continue;
      }
      // Asynchronously: the test worker keeps answering vitest while a command runs.
      await promisify(execFile)('/bin/sh', ['-c', command], { cwd: dir, env, timeout: 300_000 }).catch(
        (err: { code?: unknown; stderr?: string }) =>
          failed.push(`README.md:${line}: ${command}: exit ${String(err.code)}: ${(err.stderr ?? '').slice(0, 400)}`),
      );
    }
    expect(failed).toEqual([]);
    expect(readFileSync(join(dir, 'predictions.csv'), 'utf8').split('\n')[0]).toMatch(/^predicted,/);
  }, 1_200_000);

  it('the ONNX examples score the exported iris tree, feeding every input', async () => {
    const blocks = readmeBlocks().filter((b) => /onnxruntime/.test(b.text));
    const js = blocks.find((b) => b.lang === 'js');
    expect(js).toBeDefined();
    // Node's fetch reads no files: this one reads the model file the example fetches.
    const prelude = [
      "import { readFileSync as __read } from 'node:fs';",
      "import * as __ort from 'onnxruntime-web';",
      '__ort.env.wasm.numThreads = 1;',
      'globalThis.fetch = async (path) => new Response(__read(path));',
    ];
    writeFileSync(join(dir, 'readme-onnx.mjs'), `${prelude.join('\n')}\n${js?.text ?? ''}\n`);
    const r = await promisify(execFile)(process.execPath, ['readme-onnx.mjs'], { cwd: dir, timeout: 120_000 });
    expect(r.stdout).toContain('Iris-setosa');
    const python = blocks.find((b) => b.lang === 'python');
    expect(python).toBeDefined();
    if (spawnSync('python3', ['-c', 'import numpy, onnxruntime']).status !== 0) {
      console.warn(`README.md:${python?.line}: skipped (needs python3 with numpy and onnxruntime)`);
      return;
    }
    writeFileSync(join(dir, 'readme-onnx.py'), `${python?.text ?? ''}\nprint(label)\n`);
    const p = await promisify(execFile)('python3', ['readme-onnx.py'], { cwd: dir, timeout: 120_000 });
    expect(p.stdout).toContain('Iris-setosa');
  }, 300_000);
});
