/**
 * Float32 numeric columns (the readers' `float32` option): half the memory, and trees that are
 * exact for the rounded values, i.e. the same trees as float64 columns holding those values.
 */

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { GroveError } from '../../src/core/errors.js';
import { mulberry32 } from '../../src/core/random.js';
import type { Dataset, NumericColumn } from '../../src/data/dataset.js';
import { encodeTable } from '../../src/data/encode.js';
import { readDataset } from '../../src/sources/file-source.js';
import { grove } from '../helpers/cli.js';

function table(n: number, seed: number): { header: string[]; rows: string[][] } {
  const random = mulberry32(seed);
  const rows = Array.from({ length: n }, () => {
    const a = random() * 3;
    const b = random() - 0.5;
    const c = random();
    const y = a + b > 1.6 ? 'p' : c < 0.2 ? 'q' : 'r';
    // Missing values and ties (rounded to 2 decimals) included.
    return [random() < 0.05 ? '' : a.toFixed(2), String(b), String(c), y];
  });
  return { header: ['a', 'b', 'c', 'y'], rows };
}

/** The same data with float64 columns holding the float32-rounded values. */
function widened(data: Dataset): Dataset {
  return {
    ...data,
    features: data.features.map((col) =>
      col.kind === 'numeric' ? { ...col, values: Float64Array.from(col.values) } : col,
    ),
  };
}

describe('float32 columns', () => {
  const { header, rows } = table(1500, 7);
  const data32 = encodeTable(header, rows, { float32: true });
  const data64 = encodeTable(header, rows);

  it('stores numeric columns as Float32Array, rounded to float32', () => {
    const a32 = data32.features[1] as NumericColumn;
    const a64 = data64.features[1] as NumericColumn;
    expect(a32.values).toBeInstanceOf(Float32Array);
    expect(a64.values).toBeInstanceOf(Float64Array);
    for (let i = 0; i < 20; i++) expect(a32.values[i]).toBe(Math.fround(a64.values[i]));
    expect(Number.isNaN((data32.features[0] as NumericColumn).values[rows.findIndex((r) => r[0] === '')])).toBe(true);
  });

  for (const [name, options] of [
    ['cart (exact)', { algorithm: 'cart', prune: 'none' }],
    ['cart (histogram)', { algorithm: 'cart', prune: 'none', bins: 64 }],
    ['c45 (fractional missing values)', { algorithm: 'c45' }],
    ['gini, learned missing directions', { criterion: 'gini', prune: 'none', missing: 'learned' }],
  ] as const) {
    it(`grows the same tree as float64 columns with the rounded values: ${name}`, () => {
      const t32 = fit(data32, options);
      const t64 = fit(widened(data32), options);
      expect(t32.nodes.length).toBeGreaterThan(3);
      expect(JSON.stringify(t32.nodes)).toBe(JSON.stringify(t64.nodes));
      const test = encodeTable(header, table(700, 8).rows, { float32: true });
      expect(Array.from(t32.predictCodes(test))).toEqual(Array.from(t64.predictCodes(widened(test))));
    });
  }

  it('refuses a number that overflows float32, naming the row and column', () => {
    const bad = [
      ['1', '0', '0', 'p'],
      ['1e39', '0', '0', 'q'],
    ];
    expect(() => encodeTable(header, bad, { float32: true, numeric: ['a'] })).toThrow(GroveError);
    expect(() => encodeTable(header, bad, { float32: true, numeric: ['a'] })).toThrow(/row 3.*a|a.*row 3/);
    expect(() => encodeTable(header, bad, { numeric: ['a'] })).not.toThrow();
  });

  it('grove fit --float32 reads numeric columns as float32', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'grove-f32-'));
    const csv = join(dir, 'd.csv');
    writeFileSync(csv, `${[header.join(','), ...rows.map((r) => r.join(','))].join('\n')}\n`);
    const out = join(dir, 'm.json');
    const r = grove(['fit', csv, '--float32', '--prune', 'none', '--out', out]);
    expect(r.status).toBe(0);
    const viaCli = JSON.parse(readFileSync(out, 'utf8')).nodes;
    expect(JSON.stringify(viaCli)).toBe(
      JSON.stringify(fit(await readDataset(csv, { float32: true }), { prune: 'none' }).nodes),
    );
  });
});
