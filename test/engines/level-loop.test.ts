import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/random.js';
import { DuckDBEngine } from '../../src/engines/duckdb.js';
import { fitInEngine } from '../../src/engines/fit.js';
import type { LevelReport } from '../../src/engines/level-loop.js';
import type { FitOptions } from '../../src/options/options.js';
import { parseSourceSpec } from '../../src/sources/engine-source.js';
import { engineModel, memoryModel } from './identical.js';

let engine: DuckDBEngine;
let dir: string;
let csv: string;
beforeAll(async () => {
  engine = await DuckDBEngine.open();
  dir = mkdtempSync(join(tmpdir(), 'grove-level-loop-'));
  csv = join(dir, 'rows.csv');
  // 600 rows, 3 features, 3 classes that depend on them with noise: a tree of several levels.
  const random = mulberry32(35);
  const lines = ['a,b,c,class'];
  for (let i = 0; i < 600; i++) {
    const [a, b, c] = [random(), random(), Math.floor(random() * 5)];
    const y = random() < 0.15 ? Math.floor(random() * 3) : a + b > 1 ? (c < 2 ? 0 : 1) : 2;
    lines.push(`${a.toFixed(3)},${b.toFixed(3)},${c},k${y}`);
  }
  writeFileSync(csv, `${lines.join('\n')}\n`);
});
afterAll(async () => {
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** grove's tables in the engine (temporary or not). */
const grovesTables = async () =>
  Number(
    (
      await engine.query("SELECT count(*) FROM duckdb_tables() WHERE table_name LIKE 'grove\\_rows\\_%' ESCAPE '\\'")
    )[0][0],
  );

const options: FitOptions = { prune: 'none', maxDepth: 6 };

describe('the level loop in DuckDB', () => {
  it('grows memory’s tree in one batch and in batches of one node, reports each level, leaves no table', async () => {
    const { source } = await parseSourceSpec(csv);
    const memory = await memoryModel(csv, options);
    expect(await engineModel(engine, source, options)).toBe(memory);
    expect(await engineModel(engine, source, options, {}, 1)).toBe(memory);
    const levels: LevelReport[] = [];
    await fitInEngine(engine, { source, onLevel: (r) => levels.push(r) }, options);
    expect(levels.map((r) => r.level)).toEqual(levels.map((_, i) => i));
    expect(levels.length).toBeGreaterThan(3);
    expect(levels[0]).toMatchObject({ openNodes: 1, rows: 600 });
    expect(await grovesTables()).toBe(0);
  });

  it('a query that fails in a later level: its error is reported and every table is dropped', async () => {
    const { source } = await parseSourceSpec(csv);
    const stream = engine.streamNumbers.bind(engine);
    let calls = 0;
    let tablesAtFailure = 0;
    engine.streamNumbers = async (...args) => {
      if (++calls === 8) {
        tablesAtFailure = await grovesTables();
        throw new Error('disk full');
      }
      return stream(...args);
    };
    try {
      await expect(fitInEngine(engine, { source, batchCells: 1 }, options)).rejects.toThrow('disk full');
    } finally {
      engine.streamNumbers = stream;
    }
    expect(tablesAtFailure).toBeGreaterThan(0);
    expect(await grovesTables()).toBe(0);
  });
});
