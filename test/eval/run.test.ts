import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Progress } from '../../src/compare/progress.js';
import { CELLS_FILE, CellLog, readCells } from '../../src/compare/store.js';
import type { CompareSettings, DatasetInfo, FoldRecord } from '../../src/eval/results.js';

const settings: CompareSettings = { folds: 3, repeats: 1, seed: 1, models: false };
const info = (name: string, sha256: string): DatasetInfo => ({
  name,
  file: `${name}.csv`,
  rows: 9,
  features: 1,
  numeric: 1,
  categorical: 0,
  classes: 2,
  foldsPlanned: 3,
  sha256,
});
const fold = (dataset: string, f: number): FoldRecord => ({
  dataset,
  config: 'cart',
  repeat: 0,
  fold: f,
  trainRows: 6,
  testRows: 3,
  testAccuracy: 2 / 3,
  trainAccuracy: 1,
  nodes: 3,
  leaves: 2,
  height: 1,
  needlessFeatures: 0,
  fitMs: 1,
  predictMs: 0.1,
});

describe('cells log (--out, --resume)', () => {
  it('keeps every whole line, skips one cut short, and only lines of unchanged data files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'grove-cells-'));
    const datasets = [info('a', 'aaa'), info('b', 'bbb')];
    const log = new CellLog(dir, settings, datasets, []);
    log.append({ algorithm: 'cart' }, { fold: fold('a', 0) });
    log.append({ algorithm: 'cart' }, { fold: fold('b', 1) });
    log.close();
    appendFileSync(join(dir, CELLS_FILE), '{"options":"{}","fold":{"dataset":"a"'); // a hard stop mid-write
    const lines = readCells(dir, settings, datasets);
    expect(lines.map((l) => ('fold' in l ? `${l.fold.dataset}${l.fold.fold}` : ''))).toEqual(['a0', 'b1']);
    expect(lines[0].options).toBe('{"algorithm":"cart"}');
    // b's file changed since: its cells are not reused.
    expect(readCells(dir, settings, [info('a', 'aaa'), info('b', 'changed')]).length).toBe(1);
    expect(() => readCells(dir, { ...settings, seed: 2 }, datasets)).toThrow(
      /cannot resume: that run used --folds 3 --repeats 1 --seed 1/,
    );
    // Rewritten with the kept lines first (what a resumed run does).
    new CellLog(dir, settings, datasets, lines.slice(0, 1)).close();
    expect(readFileSync(join(dir, CELLS_FILE), 'utf8').trimEnd().split('\n')).toHaveLength(2);
  });
});

describe('progress', () => {
  it('without a terminal: plain lines with cells done, share of the estimated work and time left', () => {
    const written: string[] = [];
    const stream = { isTTY: false, write: (s: string) => written.push(s) } as unknown as NodeJS.WriteStream;
    const p = new Progress(3, 10, stream, 0, 'test');
    p.tick(1, 'a');
    p.tick(4, 'b');
    p.tick(5, 'c');
    p.stop();
    expect(written).toHaveLength(3);
    expect(written[1]).toMatch(/^test: 2\/3 cells \(50%\), 0:0\d elapsed, ~0:0\d left\n$/);
    expect(written[2]).toMatch(/^test: 3\/3 cells \(100%\)/);
  });

  it('prints nothing between intervals, but always the last cell', () => {
    const written: string[] = [];
    const stream = { isTTY: false, write: (s: string) => written.push(s) } as unknown as NodeJS.WriteStream;
    const p = new Progress(50, 50, stream, 60_000);
    for (let i = 0; i < 50; i++) p.tick(1, 'x');
    expect(written).toEqual([expect.stringMatching(/^grove compare: 50\/50 cells \(100%\)/)]);
  });
});
