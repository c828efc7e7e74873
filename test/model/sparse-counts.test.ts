/**
 * Many classes (issue 18 item 13): a TreeStore keeps its nodes' class weights sparse above
 * `TreeStore.sparseAbove` classes (NodeCounts). Both layouts must read the same numbers and give
 * the same trees, model files and probabilities; the pruners' per-node reach of test rows
 * (`reachOfMajority`) must equal what routing per class gives.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { tableFromCounts } from '../../src/criteria/index.js';
import { getCriterion } from '../../src/criteria/registry.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { leafErrors, total } from '../../src/model/compact.js';
import { majorityClass } from '../../src/model/node.js';
import { NodeCounts } from '../../src/model/node-counts.js';
import { TreeStore } from '../../src/model/store.js';
import { reachOfMajority, routeRows } from '../../src/prune/recount.js';

const DEFAULT_SPARSE_ABOVE = TreeStore.sparseAbove;
afterEach(() => {
  TreeStore.sparseAbove = DEFAULT_SPARSE_ABOVE;
});

function random(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed / 2 ** 32;
  };
}

/** `classes` classes, numeric and categorical features, some values missing (`missing` 0.05) or none. */
function data(classes: number, rows: number, missing = 0.05) {
  const next = random(classes);
  return datasetFromRows(
    Array.from({ length: rows }, (_, i) => {
      const c = i % classes;
      return {
        a: next() < missing ? '' : String(c + next() * 9),
        b: ((c * 7) % 13) + next() * 4,
        g: next() < missing ? '' : `v${(c + Math.floor(next() * 3)) % 6}`,
        y: `k${c}`,
      };
    }),
  );
}

/** The fitted model's file and probabilities, the store's counts dense (`sparse` false) or sparse. */
function fitWith(sparse: boolean, ds: ReturnType<typeof data>, options: Parameters<typeof fit>[1]) {
  TreeStore.sparseAbove = sparse ? 0 : 1e9;
  const tree = fit(ds, options);
  TreeStore.sparseAbove = DEFAULT_SPARSE_ABOVE;
  return { model: JSON.stringify(tree.toJSON()), proba: tree.predictProba(ds) };
}

describe('NodeCounts, dense and sparse', () => {
  it('read the same totals, majority, errors and vectors, and copy across layouts', () => {
    const k = 9;
    const next = random(3);
    const vectors = Array.from({ length: 40 }, (_, i) =>
      Array.from({ length: k }, () => (next() < 0.6 ? 0 : i % 3 === 0 ? 1 : next() * 5)),
    );
    vectors.push(new Array(k).fill(0), [0, 2, 0, 2, 0, 0, 0, 0, 0]);
    const dense = new NodeCounts(k, false, 4);
    const sparse = new NodeCounts(k, true, 4);
    for (const [layout, counts] of [
      ['dense', dense],
      ['sparse', sparse],
    ] as const) {
      counts.resize(vectors.length);
      vectors.forEach((v, id) => counts.set(id, v));
      counts.set(5, vectors[6]); // set again: a node's run is replaced
      vectors.forEach((v0, id) => {
        const v = id === 5 ? vectors[6] : v0;
        expect(counts.vector(id), `${layout} ${id}`).toEqual(v);
        expect(counts.total(id)).toBe(total(v));
        expect(counts.majority(id)).toBe(majorityClass(v));
        expect(counts.leafErrors(id)).toBe(leafErrors(v));
        const seen: number[] = [];
        counts.forEach(id, (c, w) => seen.push(c, w));
        expect(seen).toEqual(v.flatMap((w, c) => (w !== 0 ? [c, w] : [])));
      });
    }
    const back = NodeCounts.fromData(sparse.data(vectors.length));
    for (const [to, from] of [
      [new NodeCounts(k, true, vectors.length), dense],
      [new NodeCounts(k, false, vectors.length), back],
      [new NodeCounts(k, true, vectors.length), back],
    ] as const)
      for (let id = 0; id < vectors.length; id++) {
        to.copy(id, from, id);
        expect(to.vector(id)).toEqual(from.vector(id));
      }
  });
});

describe('a fit with sparse and with dense class counts', () => {
  it.each([
    ['exact, unpruned', 40, { prune: 'none' }],
    ['exact, default preset (cost-complexity, 10-fold CV)', 40, {}],
    ['exact, weighted classes, fixed α', 40, { classWeight: 'balanced', ccpAlpha: 0.002 }],
    ['histogram, default preset', 40, { bins: 16 }],
    ['c45 (error-based pruning, fractional missing values)', 40, { algorithm: 'c45' }],
    ['three classes, default preset', 3, {}],
    ['three classes, reduced-error pruning', 3, { prune: 'reduced-error' }],
  ] as const)('%s: the same model file and probabilities', (_, classes, options) => {
    const ds = data(classes, 400);
    const dense = fitWith(false, ds, options);
    const sparse = fitWith(true, ds, options);
    expect(sparse.model).toBe(dense.model);
    expect(sparse.proba).toEqual(dense.proba);
    expect(JSON.parse(dense.model).nodes.length).toBeGreaterThan(3);
  });
});

describe('routing test rows for cross-validation', () => {
  it('reachOfMajority equals the per-class sums of routeRows, bit for bit', () => {
    const ds = data(40, 400);
    const tree = fit(ds, { prune: 'none', missing: 'fractional', algorithm: 'c45' });
    const nodes = tree.nodes;
    const weights = Float64Array.from({ length: ds.nRows }, (_, i) => 0.3 + (i % 7) * 0.41);
    const rows = Array.from({ length: 200 }, (_, i) => 2 * i + 1);
    const opts = { missing: 'fractional', shares: 'stored' } as const;
    const perClass = routeRows(nodes, ds, weights, rows, opts).counts;
    const reach = reachOfMajority(nodes, ds, weights, rows, opts);
    nodes.forEach((node, id) => {
      expect(reach.total[id]).toBe(total(perClass[id]));
      expect(reach.majority[id]).toBe(perClass[id][majorityClass(node.counts)]);
    });
    expect(nodes.length).toBeGreaterThan(10);
  });
});

describe('histogram mode over many classes', () => {
  it('scans only the classes present and still scores each split on its children', () => {
    // No missing values: with them a split's score also weighs the rows whose branch is unknown.
    const ds = data(60, 1200, 0);
    const weights = Array.from({ length: ds.nRows }, (_, i) => 1 + (i % 3) * 0.7);
    for (const criterion of ['gini', 'info-gain', 'dcsm'] as const) {
      const tree = fit(ds, { prune: 'none', criterion, bins: 32, minSamplesLeaf: 5, sampleWeight: weights });
      const measure = getCriterion(criterion);
      const nodes = tree.nodes;
      let splits = 0;
      for (const node of nodes) {
        if (!node.children || node.split?.kind !== 'numeric') continue;
        splits++;
        const expected = measure.evaluate(tableFromCounts(node.children.map((c) => nodes[c].counts)));
        expect(Math.abs(node.score! - expected)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(expected)));
      }
      expect(splits).toBeGreaterThan(20);
    }
  });
});
