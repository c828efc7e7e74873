/**
 * `grove fit`'s progress drawn on a terminal (a fake one, with a clock that moves on every reading,
 * so the fit "lasts" past the quiet first second): what a bar says for a tree, a pruned tree's
 * folds and a forest, that it is cleared at the end, and that nothing is drawn off a terminal or
 * with --no-progress (`show: false`).
 */
import { describe, expect, it } from 'vitest';
import { fitForestShown, fitShown } from '../../src/cli/fit-progress.js';
import { mulberry32 } from '../../src/core/random.js';
import { type Dataset, datasetFromRows } from '../../src/index.js';
import { fakeTerminal, steppingClock } from '../helpers/fake-terminal.js';

function noisy(n: number, seed: number): Dataset {
  const random = mulberry32(seed);
  const rows = Array.from({ length: n }, () => {
    const y = Math.floor(random() * 3);
    const row: Record<string, unknown> = {};
    for (let f = 0; f < 6; f++) row[`x${f}`] = (f < 2 ? y * 0.5 : 0) + random() * 2;
    row.y = random() < 0.3 ? `c${Math.floor(random() * 3)}` : `c${y}`;
    return row;
  });
  return datasetFromRows(rows, { target: 'y' });
}

const data = noisy(3000, 4);
/** The terminal's text after the bar's last redraw, before it was cleared. */
const lastDraw = (text: string) => text.slice(text.lastIndexOf('grove: '));

describe('grove fit: progress on a terminal', () => {
  it('a tree: the share of rows in finished leaves, nodes and a rate; the same tree', () => {
    const out = fakeTerminal();
    const tree = fitShown(data, { prune: 'none' }, { stream: out, now: steppingClock(500) });
    expect(out.text).toMatch(/grove: growing .* \d+% \| \d+ nodes \| \d+(\.\d+)? nodes\/s/);
    expect(lastDraw(out.text)).toContain(`100% | ${tree.nodes.length} nodes`);
    expect(JSON.stringify(tree.nodes)).toBe(JSON.stringify(fitShown(data, { prune: 'none' }, { show: false }).nodes));
  });

  it("cost-complexity's folds: which tree grows, one bar over all of them", () => {
    const out = fakeTerminal();
    fitShown(data, { ccpFolds: 3 }, { stream: out, now: steppingClock(500) });
    expect(out.text).toMatch(/grove: growing .* \d+% \| tree [1-4] of 4, \d+ nodes/);
    expect(lastDraw(out.text)).toMatch(/100% \| tree 4 of 4, /);
  });

  it('a forest: trees grown of the total and a rate', () => {
    const out = fakeTerminal();
    fitForestShown(data, { forest: 'random-forest', trees: 12, seed: 1 }, { stream: out, now: steppingClock(500) });
    expect(out.text).toMatch(/grove: growing a forest .* \d+% \| \d+ of 12 trees \| [\d.]+ trees\/s/);
    expect(lastDraw(out.text)).toMatch(/100% \| 12 of 12 trees/);
  });

  it('nothing off a terminal, or with --no-progress', () => {
    const pipe = Object.assign(fakeTerminal(), { isTTY: false });
    fitForestShown(data, { trees: 3 }, { stream: pipe, now: steppingClock(1000) });
    fitShown(data, {}, { stream: pipe, now: steppingClock(1000) });
    expect(pipe.text).toBe('');
    const off = fakeTerminal();
    fitShown(data, {}, { stream: off, now: steppingClock(1000), show: false });
    expect(off.text).toBe('');
  });

  it('nothing during the first second', () => {
    const out = fakeTerminal();
    fitShown(data, {}, { stream: out, now: () => 0 });
    expect(out.text).toBe('');
  });
});
