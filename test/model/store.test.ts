import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { DecisionTree } from '../../src/model/decision-tree.js';
import { TreeStore } from '../../src/model/store.js';
import { readDataset } from '../../src/sources/file-source.js';
import { corpus, haveCorpus } from '../helpers/paths.js';

/** A store with a root split into two, whose right child splits three ways (categorical). */
function smallStore(): TreeStore {
  const s = TreeStore.root(2);
  s.setStats(0, [6, 4], 10, 0);
  const a = s.split(0, { kind: 'numeric', feature: 1, thresholds: [2.5] }, 0.3, 0.1, -1, 2);
  s.setStats(a, [5, 0], 5, 1);
  s.setStats(a + 1, [1, 4], 5, 1);
  const b = s.split(a + 1, { kind: 'multiway', feature: 0, values: [0, 2, 3] }, 0.2, 0.05, 1, 3);
  for (let i = 0; i < 3; i++) s.setStats(b + i, [i === 0 ? 1 : 0, i === 0 ? 0 : 2], i === 0 ? 1 : 2, 2);
  return s;
}

describe('TreeStore', () => {
  it('makes the node objects growers used to build, key for key', () => {
    const nodes = smallStore().toNodes();
    expect(JSON.stringify(nodes)).toBe(
      JSON.stringify([
        {
          counts: [6, 4],
          n: 10,
          depth: 0,
          split: { kind: 'numeric', feature: 1, thresholds: [2.5] },
          score: 0.3,
          improvement: 0.1,
          children: [1, 2],
        },
        { counts: [5, 0], n: 5, depth: 1 },
        {
          counts: [1, 4],
          n: 5,
          depth: 1,
          split: { kind: 'multiway', feature: 0, values: [0, 2, 3] },
          score: 0.2,
          improvement: 0.05,
          missingBranch: 1,
          children: [3, 4, 5],
        },
        { counts: [1, 0], n: 1, depth: 2 },
        { counts: [0, 2], n: 2, depth: 2 },
        { counts: [0, 2], n: 2, depth: 2 },
      ]),
    );
  });

  it('compacts a finished tree into narrower arrays that read back the same, and then cannot grow', () => {
    const s = smallStore();
    const before = JSON.stringify(s.toNodes());
    s.compact();
    expect(JSON.stringify(s.toNodes())).toBe(before);
    expect(s.depth).toBeInstanceOf(Uint8Array);
    expect(s.missingBranch).toBeInstanceOf(Int8Array);
    expect(s.counts.dense).toBeInstanceOf(Float32Array);
    expect(s.n.length).toBe(s.size);
    expect(() => s.add(3)).toThrow();
    // A weight float32 cannot hold keeps the counts in float64.
    const w = smallStore();
    w.setStats(1, [0.1, 0], 5, 1);
    w.compact();
    expect(w.counts.dense).toBeInstanceOf(Float64Array);
    expect(w.counts.vector(1)).toEqual([0.1, 0]);
  });

  it('keeps score, improvement and threshold for split nodes only once compacted, when every split is binary', () => {
    const s = TreeStore.root(2);
    s.setStats(0, [6, 4], 10, 0);
    const a = s.split(0, { kind: 'numeric', feature: 1, thresholds: [2.5] }, 0.3, 0.1, -1, 2);
    s.setStats(a, [5, 0], 5, 1);
    s.setStats(a + 1, [1, 4], 5, 1);
    const b = s.split(a + 1, { kind: 'numeric', feature: 0, thresholds: [-1.25] }, 0.2, 0.05, 0, 2);
    s.setStats(b, [1, 0], 1, 2);
    s.setStats(b + 1, [0, 4], 4, 2);
    const before = JSON.stringify(s.toNodes());
    const fields = (t: TreeStore) => {
      const d = t.data();
      return [d.score, d.improvement, d.threshold].map((a) => Array.from(a));
    };
    const full = fields(s);
    s.compact();
    expect(s.score.length).toBe(2);
    expect(s.threshold.length).toBe(2);
    expect(JSON.stringify(s.toNodes())).toBe(before);
    expect(s.thresholdOf(a + 1)).toBe(-1.25);
    expect(s.scoreOf(b)).toBe(0);
    const back = TreeStore.fromData(s.data());
    expect(JSON.stringify(back.toNodes())).toBe(before);
    expect(fields(s)).toEqual(full); // posted with one entry per node again
    // A multiway split keeps one entry per node.
    const m = smallStore();
    m.compact();
    expect(m.score.length).toBe(m.size);
  });

  it('places a subtree grown apart and renumbers it as one thread would have', () => {
    // The top: root split, both children deferred (blank); then each child's subtree alone.
    const top = TreeStore.root(2);
    top.setStats(0, [6, 4], 10, 0);
    top.split(0, { kind: 'numeric', feature: 0, thresholds: [1] }, 0.5, 0.2, -1, 2);
    const left = TreeStore.root(2, 1);
    left.setStats(0, [5, 1], 6, 1);
    const l = left.split(0, { kind: 'numeric', feature: 1, thresholds: [7] }, 0.4, 0.1, -1, 2);
    left.setStats(l, [5, 0], 5, 2);
    left.setStats(l + 1, [0, 1], 1, 2);
    const right = TreeStore.root(2, 1);
    right.setStats(0, [1, 3], 4, 1);
    // Place right first (ids come out of order), then left; renumbering restores depth-first order.
    top.place(2, right);
    top.place(1, left);
    const nodes = top.renumberDepthFirst().toNodes();
    expect(nodes.map((v) => [v.counts, v.children ?? null])).toEqual([
      [
        [6, 4],
        [1, 2],
      ],
      [
        [5, 1],
        [3, 4],
      ],
      [[1, 3], null],
      [[5, 0], null],
      [[0, 1], null],
    ]);
  });

  it.skipIf(!haveCorpus)(
    'a store-backed fitted tree gives the stats, predictions and nodes of its saved model',
    async () => {
      const data = await readDataset(corpus('credit-g'));
      const tree = fit(data, { algorithm: 'cart', prune: 'none' });
      // A store-backed tree against the same tree loaded from its file (an array of nodes).
      const stats = tree.stats();
      const proba = tree.predictProbaFlat(data);
      const copy = DecisionTree.fromJSON(JSON.parse(JSON.stringify(tree.toJSON())));
      expect(stats).toEqual(copy.stats());
      expect(Array.from(proba)).toEqual(Array.from(copy.predictProbaFlat(data)));
      expect(stats.nodes).toBeGreaterThan(50);
      expect(tree.nodes).toEqual(copy.nodes);
    },
  );
});
