import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/random.js';
import { engineBins } from '../../src/engines/bins.js';
import { DuckDBEngine } from '../../src/engines/duckdb.js';
import type { SqlValue } from '../../src/engines/engine.js';
import { readSchema } from '../../src/engines/schema.js';
import { parseSourceSpec } from '../../src/sources/engine-source.js';
import { binFeature } from '../../src/split/histogram.js';

let engine: DuckDBEngine;
let dir: string;
beforeAll(async () => {
  engine = await DuckDBEngine.open();
  dir = mkdtempSync(join(tmpdir(), 'grove-bucket-bins-'));
});
afterAll(async () => {
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

const random = mulberry32(29);
const n = 20_000;
const column = (f: () => number | null) => Array.from({ length: n }, f);
// null: a missing value (an empty cell).
const COLUMNS: [string, (number | null)[]][] = [
  ['uniform', column(() => random() * 1000)],
  ['normal', column(() => random() + random() + random() - random() * 3)],
  ['ties', column(() => Math.round(random() * 50))],
  ['a category', column(() => Math.floor(random() * 3))],
  ['few values', column(() => Math.floor(random() * 10))],
  ['just over the bins', column(() => Math.floor(random() * 19))],
  ['crowded near zero', column(() => (-Math.log(1 - random())) ** 4)],
  ['one outlier', column(() => (random() < 1e-4 ? 1e15 : random()))],
  ['a heavy tie', column(() => (random() < 0.4 ? 3.5 : random() * 7))],
  ['signed zeros and negatives', column(() => [0, -0, -1.5, random() - 0.5][Math.floor(random() * 4)])],
  ['missing values', column(() => (random() < 0.3 ? null : random() * 100))],
  ['one value', column(() => 42)],
];

describe('bins from bucket counts (DuckDB) are the in-memory bins', () => {
  for (const maxBins of [16, 255]) {
    it(`${maxBins} bins`, async () => {
      const header = [...COLUMNS.map((_, f) => `x${f}`), 'class'].join(',');
      const lines = Array.from({ length: n }, (_, i) =>
        [...COLUMNS.map(([, values]) => values[i] ?? ''), random() < 0.5 ? 'a' : 'b'].join(','),
      );
      const file = join(dir, `bins-${maxBins}.csv`);
      writeFileSync(file, `${header}\n${lines.join('\n')}\n`);
      // One categorical column among the numeric: the next feature's range skips it.
      const schema = await readSchema(engine, (await parseSourceSpec(file)).source, {
        categorical: ['x3'],
      });
      // The rows per value the engine counted: fewer than all values, where buckets close nothing.
      let valueRows = 0;
      const stream = engine.streamNumbers.bind(engine);
      engine.streamNumbers = (sql: string, params: readonly SqlValue[], onChunk) =>
        stream(sql, params, (columns, rows) => {
          if (sql.includes('wanted[b + 1]')) valueRows += rows;
          onChunk(columns, rows);
        });
      try {
        const { binned } = await engineBins({ engine, schema, classWeights: null }, maxBins);
        COLUMNS.forEach(([name, values], f) => {
          if (name === 'a category') {
            expect(binned[f]).toBeNull();
            return;
          }
          const col = Float64Array.from(values, (v) => v ?? Number.NaN);
          const memory = binFeature({ kind: 'numeric', name, values: col }, maxBins);
          const got = binned[f]!;
          expect([name, got.bins, Array.from(got.lo), Array.from(got.hi)]).toEqual([
            name,
            memory.bins,
            Array.from(memory.lo),
            Array.from(memory.hi),
          ]);
        });
      } finally {
        engine.streamNumbers = stream;
      }
      // With many rows a bucket (not so at 255 bins: 16,320 buckets for 20,000 rows).
      const distinct = COLUMNS.reduce((sum, [, values]) => sum + new Set(values.filter((v) => v !== null)).size, 0);
      if (maxBins === 16) expect(valueRows).toBeLessThan(distinct / 2);
    });
  }
});
