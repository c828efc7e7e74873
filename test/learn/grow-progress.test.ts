/**
 * `fit`'s onProgress: batches of nodes with counts that never go back, ending at the tree's node
 * count with all the weight settled; the same tree as without it; on worker threads too. Runs
 * against dist/ (the workers load compiled modules; `npm test` builds first).
 */
import { describe, expect, it } from 'vitest';
import type { FitProgress } from '../../dist/algorithms/fit.js';
import { mulberry32 } from '../../dist/core/random.js';
import { type Dataset, datasetFromRows, type FitOptions, fit } from '../../dist/node.js';
import { probed } from '../helpers/parallel-probe.js';

/** n rows of 10 numeric features, 2 informative, 3 classes with 30 % label noise: big unpruned trees. */
function noisy(n: number, seed: number): Dataset {
  const random = mulberry32(seed);
  const rows = Array.from({ length: n }, () => {
    const y = Math.floor(random() * 3);
    const row: Record<string, unknown> = {};
    for (let f = 0; f < 10; f++) row[`x${f}`] = (f < 2 ? y * 0.5 : 0) + random() * 2;
    row.y = random() < 0.3 ? `c${Math.floor(random() * 3)}` : `c${y}`;
    return row;
  });
  return datasetFromRows(rows, { target: 'y' });
}

const data = noisy(8000, 3);

/** What onProgress heard during a fit, and the model. */
function heard(options: FitOptions, rows = data) {
  const events: FitProgress[] = [];
  const model = fit(rows, options, { onProgress: (p) => events.push({ ...p }) });
  return { events, model };
}

/** Counts never go back within a tree, and each tree ends with its weight settled. */
function expectMonotone(events: FitProgress[], trees: number): void {
  for (let i = 1; i < events.length; i++) {
    const [a, b] = [events[i - 1], events[i]];
    expect(b.tree).toBeGreaterThanOrEqual(a.tree);
    if (b.tree !== a.tree) continue;
    expect(b.nodes).toBeGreaterThanOrEqual(a.nodes);
    expect(b.settled).toBeGreaterThanOrEqual(a.settled);
    expect(b.settled).toBeLessThanOrEqual(b.weight);
  }
  const lasts = events.filter((e, i) => i === events.length - 1 || events[i + 1].tree !== e.tree);
  expect(lasts.map((e) => e.tree)).toEqual(Array.from({ length: trees }, (_, i) => i + 1));
  for (const e of lasts) {
    expect(e.settled).toBe(e.weight);
    expect(e.trees).toBe(trees);
  }
}

describe("fit's onProgress", () => {
  it.each([
    ['exact', {}],
    ['histogram', { bins: 32 }],
  ] as const)('%s mode: batches of nodes up to the whole tree, the same tree as without it', (_, mode) => {
    const options: FitOptions = { prune: 'none', threads: 1, ...mode };
    const { events, model } = heard(options);
    expect(model.nodes.length).toBeGreaterThan(1000);
    // Batches, not a call per node.
    expect(events.length).toBeGreaterThan(2);
    expect(events.length).toBeLessThan(model.nodes.length / 100);
    expectMonotone(events, 1);
    expect(events.at(-1)!.nodes).toBe(model.nodes.length);
    expect(events.at(-1)!.weight).toBe(data.nRows);
    expect(JSON.stringify(model.nodes)).toBe(JSON.stringify(fit(data, options).nodes));
  });

  it.each([
    ['exact', {}],
    ['histogram', { bins: 32 }],
  ] as const)('%s mode on 2 threads: the subtrees workers grow are counted too', (_, mode) => {
    const options: FitOptions = { prune: 'none', threads: 2, ...mode };
    const run = probed(() => heard(options));
    expect(run.tasks).toBeGreaterThan(2);
    const { events, model } = run.result;
    expectMonotone(events, 1);
    expect(events.at(-1)!.nodes).toBe(model.nodes.length);
    expect(JSON.stringify(model.nodes)).toBe(JSON.stringify(fit(data, { ...options, threads: 1 }).nodes));
  });

  it("cost-complexity's cross-validation: each fold's tree in turn", () => {
    const { events } = heard({ algorithm: 'cart', ccpFolds: 3, threads: 1 });
    expectMonotone(events, 4);
  });

  it('C-MBSV trees: their nodes, the same tree as without it', () => {
    const small = noisy(1500, 5);
    const { events, model } = heard({ algorithm: 'cmbsv' }, small);
    expectMonotone(events, 1);
    expect(events.at(-1)!.nodes).toBe(model.nodes.length);
    expect(JSON.stringify(model.nodes)).toBe(JSON.stringify(fit(small, { algorithm: 'cmbsv' }).nodes));
  });
});
