/**
 * A fit inside a database reports each level: on a terminal a bar of the rows already in leaves
 * (cleared at the end), in a pipe one line per level, nothing with --no-progress; the level-0 row
 * count is kept for the summary line in every case.
 */
import { describe, expect, it } from 'vitest';
import { engineProgress } from '../../src/cli/engine-progress.js';
import { fakeTerminal, steppingClock } from '../helpers/fake-terminal.js';

const levels = [
  { level: 0, openNodes: 1, rows: 1000, seconds: 0.5 },
  { level: 1, openNodes: 2, rows: 600, seconds: 1.5 },
  { level: 2, openNodes: 3, rows: 150, seconds: 2.5 },
];

describe('engineProgress', () => {
  it('on a terminal: a bar of the rows in leaves, the level and the open nodes', () => {
    const out = fakeTerminal();
    const p = engineProgress('duckdb', { stream: out, now: steppingClock(700) });
    for (const r of levels) p.onLevel(r);
    expect(out.text).toMatch(/grove: growing in duckdb .* 40% \| level 1: 2 open nodes, 600 rows left/);
    p.stop(); // the last redraw, then the bar is cleared
    expect(out.text).toMatch(/85% \| level 2: 3 open nodes, 150 rows left/);
    expect(out.text).not.toMatch(/grove: level/);
    expect(p.rows()).toBe(1000);
  });

  it('in a pipe: one line per level; with --no-progress nothing, the row count still kept', () => {
    const pipe = Object.assign(fakeTerminal(), { isTTY: false });
    const p = engineProgress('postgres', { stream: pipe, now: steppingClock(700) });
    for (const r of levels) p.onLevel(r);
    expect(pipe.text.split('\n')).toEqual([
      'grove: level 0: 1 open nodes, 1000 rows, 0.5 s',
      'grove: level 1: 2 open nodes, 600 rows, 1.5 s',
      'grove: level 2: 3 open nodes, 150 rows, 2.5 s',
      '',
    ]);
    const off = fakeTerminal();
    const q = engineProgress('clickhouse', { stream: off, now: steppingClock(700), show: false });
    for (const r of levels) q.onLevel(r);
    expect(off.text).toBe('');
    expect(q.rows()).toBe(1000);
  });
});
