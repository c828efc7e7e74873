import { describe, expect, it } from 'vitest';
import { type FitContext, fit, fitInSteps, planFit } from '../../src/algorithms/fit.js';
import type { FitOptions } from '../../src/options/types.js';
import type { GrownPrunerInput } from '../../src/prune/pruner.js';
import { getPruner, registerPruner } from '../../src/prune/registry.js';
import { readDataset } from '../../src/sources/file-source.js';
import { fixture } from '../helpers/paths.js';

const data = await readDataset(fixture('tutorial-30.csv'));

/** What `onGrown` heard during `fit(data, options)`, and the model fit returned. */
function heard(options: FitOptions) {
  const events: Parameters<NonNullable<FitContext['onGrown']>>[0][] = [];
  const model = fit(data, options, { onGrown: (e) => events.push(e) });
  return { events, model };
}

describe("fit's onGrown: the trees grown while pruning is to come", () => {
  it('cost-complexity by CV: the tree before pruning, then one tree per fold', () => {
    const { events, model } = heard({ algorithm: 'cart', ccpFolds: 5 });
    expect(events.map((e) => [e.grown, e.total, e.tree !== undefined])).toEqual([
      [1, 6, true],
      [2, 6, false],
      [3, 6, false],
      [4, 6, false],
      [5, 6, false],
      [6, 6, false],
    ]);
    // The first tree is the unpruned tree, which the returned model is pruned from.
    const before = events[0].tree!;
    expect(before.toJSON().nodes).toEqual(fit(data, { algorithm: 'cart', prune: 'none' }).toJSON().nodes);
    expect(before.stats().leaves).toBe(model.pruning!.leavesBefore);
    // The model is the one fit makes without listening.
    expect(model.toJSON()).toEqual(fit(data, { algorithm: 'cart', ccpFolds: 5 }).toJSON());
  });

  it('a pruner that grows once (error-based): one event with the tree; nothing when unpruned', () => {
    const c45 = heard({ algorithm: 'c45' });
    expect(c45.events.map((e) => [e.grown, e.total])).toEqual([[1, 1]]);
    expect(c45.events[0].tree!.stats().leaves).toBe(c45.model.pruning!.leavesBefore);
    expect(heard({ algorithm: 'cart', prune: 'none' }).events).toEqual([]);
    expect(heard({ algorithm: 'cart', ccpAlpha: 0.01 }).events.map((e) => e.total)).toEqual([1]);
  });
});

describe('fitInSteps: the tree pruning cuts, then the pruning', () => {
  const configs: FitOptions[] = [
    { algorithm: 'cart', ccpFolds: 3 },
    { algorithm: 'c45' },
    { prune: 'reduced-error' },
    { prune: 'none' },
  ];
  for (const options of configs)
    it(`grows before prune() is called, then gives fit's model: ${JSON.stringify(options)}`, () => {
      const grown: number[] = [];
      const steps = fitInSteps(planFit(data, options, { onGrown: (e) => grown.push(e.grown) }));
      expect(grown).toEqual(options.prune === 'none' ? [] : [1]);
      const model = steps.prune();
      expect(JSON.stringify(model.toJSON())).toBe(JSON.stringify(fit(data, options).toJSON()));
      if (options.ccpFolds) expect(grown).toEqual([1, 2, 3, 4]);
    });
});

describe('fitInSteps: nothing is pruned before prune() is called', () => {
  /** A registered copy of pruner `base` that counts its calls. */
  function counting(base: string) {
    const p = getPruner(base);
    const counter = { name: `counting-${base}`, calls: 0 };
    registerPruner(
      {
        ...p,
        name: counter.name,
        prune: (input) => {
          counter.calls++;
          return p.prune(input);
        },
        ...(p.pruneGrown
          ? {
              pruneGrown: (input: GrownPrunerInput) => {
                counter.calls++;
                return p.pruneGrown!(input);
              },
            }
          : {}),
      },
      { replace: true },
    );
    return counter;
  }
  const configs: Array<[string, FitOptions]> = [
    ['error-based', { algorithm: 'c45' }],
    ['cost-complexity', { algorithm: 'cart', ccpFolds: 3 }],
    ['reduced-error', {}],
  ];
  for (const [base, options] of configs)
    it(`${base}: the pruner runs once, in prune()`, () => {
      const counter = counting(base);
      const steps = fitInSteps(planFit(data, { ...options, prune: counter.name }));
      expect(counter.calls).toBe(0);
      const model = steps.prune();
      expect(counter.calls).toBe(1);
      expect(model.toJSON().nodes).toEqual(fit(data, { ...options, prune: base }).toJSON().nodes);
    });
});
