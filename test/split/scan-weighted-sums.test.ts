import { afterEach, describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { mulberry32 } from '../../src/core/random.js';
import { gini } from '../../src/criteria/cart.js';
import { infoGain } from '../../src/criteria/gain.js';
import { EntropySums, SquareSums } from '../../src/criteria/incremental.js';
import type { Criterion } from '../../src/criteria/types.js';
import { datasetFromRows } from '../../src/data/encode.js';

// The numeric scan has a loop of its own for weighted entries under Gini and the entropy family
// (src/split/numeric.ts, scanWeightedSums). A subclass of their sums takes the general loop, which
// calls `move` and `value` per entry; both must give the same trees to the last bit.
const random = mulberry32(5);
const rows = Array.from({ length: 500 }, () => {
  const a = Math.round(random() * 40) / 10;
  const b = Math.round(random() * 100);
  const c = random();
  const y = a + b / 30 + (random() < 0.25 ? 2 : 0) > 4 ? (c > 0.4 ? 'p' : 'q') : 'r';
  return [a, b, c, y];
});
const data = datasetFromRows(rows, { columns: ['a', 'b', 'c', 'class'] });

const counts = Float64Array.from(rows, () => Math.floor(random() * 3));
const fractions = Float64Array.from(rows, () => 0.25 + random() * 2);

class GeneralSquares extends SquareSums {}
class GeneralEntropy extends EntropySums {}

const saved: [Criterion, Criterion['incremental']][] = [];
function generalLoop(criterion: Criterion, form: () => SquareSums | EntropySums): void {
  saved.push([criterion, criterion.incremental]);
  (criterion as { incremental: Criterion['incremental'] }).incremental = form;
}
afterEach(() => {
  for (const [criterion, incremental] of saved.splice(0))
    (criterion as { incremental: Criterion['incremental'] }).incremental = incremental;
});

/** The whole tree: each node's rows, class weights and split. */
function grown(criterion: string, sampleWeight: Float64Array, maxFeatures?: number) {
  const tree = fit(data, { algorithm: 'cart', criterion, prune: 'none', sampleWeight, seed: 3, maxFeatures });
  return JSON.stringify(tree.nodes.map((n) => [n.n, n.counts, n.split ?? null]));
}

describe("the numeric scan's weighted loop", () => {
  it.each([
    ['gini', gini, () => new GeneralSquares()],
    ['info-gain', infoGain, () => new GeneralEntropy()],
  ] as const)('%s: the same tree as the general loop, bootstrap counts and fractional weights', (name, crit, form) => {
    for (const w of [counts, fractions]) {
      for (const maxFeatures of [undefined, 2]) {
        const fast = grown(name, w, maxFeatures);
        generalLoop(crit, form);
        const general = grown(name, w, maxFeatures);
        saved.splice(0).forEach(([c, inc]) => {
          (c as { incremental: Criterion['incremental'] }).incremental = inc;
        });
        expect(fast.length).toBeGreaterThan(500);
        expect(general).toBe(fast);
      }
    }
  });
});
