import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { growCmbsv } from '../../src/algorithms/cmbsv/grow.js';
import { cmbsvSplit } from '../../src/algorithms/cmbsv/index.js';
import { fit } from '../../src/algorithms/fit.js';
import { GroveError } from '../../src/core/errors.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { treeToDot } from '../../src/export/dot.js';
import { rulesToText, treeToRules } from '../../src/export/rules.js';
import { treeToText } from '../../src/export/text.js';
import { DecisionTree } from '../../src/model/decision-tree.js';
import { validateModel } from '../../src/model/schema.js';
import { TreeStore } from '../../src/model/store.js';
import { resolveOptions } from '../../src/options/options.js';
import { readDataset } from '../../src/sources/file-source.js';
import { repoRoot } from '../helpers/cli.js';

const glass = await readDataset(resolve(repoRoot, 'data/glass.csv'));
const rowsOf = (spec: Array<[string, number[]]>) => spec.flatMap(([y, xs]) => xs.map((x) => ({ x, y })));

/** Three classes: a on [0, 1], b at 2 and 2.1 only, c on [4, 5] — room for an empty region between b and c. */
const gapped = datasetFromRows(
  rowsOf([
    ['a', [0, 0.25, 0.5, 0.75, 1]],
    ['b', [2, 2.1]],
    ['c', [4, 4.25, 4.5, 4.75, 5]],
  ]),
  { target: 'y' },
);

describe('the paper’s structural claims (Algorithm 1, eq. 14)', () => {
  it('two classes → one threshold, two branches', () => {
    const data = datasetFromRows(
      rowsOf([
        ['lo', [1, 2, 3, 4]],
        ['hi', [7, 8, 9]],
      ]),
      { target: 'y' },
    );
    const tree = fit(data, { algorithm: 'cmbsv' });
    expect(tree.nodes[0].split).toMatchObject({ kind: 'numeric', feature: 0 });
    expect(tree.nodes[0].split!.kind === 'numeric' && tree.nodes[0].split!.thresholds).toHaveLength(1);
    expect(tree.nodes[0].children).toHaveLength(2);
    const t = (tree.nodes[0].split as { thresholds: number[] }).thresholds[0];
    expect(t).toBeGreaterThan(4);
    expect(t).toBeLessThan(7);
    expect(tree.predict([{ x: 0 }, { x: 10 }])).toEqual(['lo', 'hi']);
  });

  it('three well-separated classes → three thresholds (n(n−1)/2), four branches, one level', () => {
    const data = datasetFromRows(
      rowsOf([
        ['a', [0, 0.5, 1]],
        ['b', [2, 2.5, 3]],
        ['c', [4, 4.5, 5]],
      ]),
      { target: 'y' },
    );
    const s = cmbsvSplit(data);
    expect(s.pairs).toHaveLength(3);
    expect(s.split).toEqual({ kind: 'numeric', feature: 0, thresholds: [1.5, 2.5, 3.5] });
    const tree = fit(data, { algorithm: 'cmbsv' });
    expect(tree.nodes[0].children).toHaveLength(4);
    expect(tree.stats().height).toBe(1);
    expect(tree.nodes.filter((n) => n.unclassified)).toHaveLength(0);
    expect(tree.predict([{ x: 0.2 }, { x: 2.2 }, { x: 2.9 }, { x: 4.8 }])).toEqual(['a', 'b', 'b', 'c']);
  });

  it('an empty branch between non-empty ones becomes an unclassified region', () => {
    const s = cmbsvSplit(gapped);
    // t_ab, t_ac, t_bc sorted: the interval between t_ac and t_bc holds no training row.
    expect(s.split!.kind === 'numeric' && s.split!.thresholds).toHaveLength(3);
    expect(s.branchSizes).toEqual([5, 2, 0, 5]);
    expect(s.unclassified).toEqual([2]);
    const tree = fit(gapped, { algorithm: 'cmbsv' });
    const region = tree.nodes[tree.nodes[0].children![2]];
    expect(region).toMatchObject({ unclassified: true, n: 0, counts: [0, 0, 0] });
    expect(region.split).toBeUndefined();
    const t = (tree.nodes[0].split as { thresholds: number[] }).thresholds;
    const inside = (t[1] + t[2]) / 2;
    // Reported as unclassified: null from predict, -1 from predictCodes, all-zero probabilities.
    expect(tree.predict([{ x: inside }, { x: 0.3 }])).toEqual([null, 'a']);
    expect(Array.from(tree.predictCodes([{ x: inside }]))).toEqual([-1]);
    expect(tree.predictProba([{ x: inside }])).toEqual([[0, 0, 0]]);
  });

  it('k-NN labels rows in an unclassified region from the parent node’s training rows', () => {
    const tree = fit(gapped, { algorithm: 'cmbsv', unclassified: 'knn' });
    const region = tree.nodes[tree.nodes[0].children![2]];
    expect(region.knn?.rows).toHaveLength(12); // every row of the root
    const t = (tree.nodes[0].split as { thresholds: number[] }).thresholds;
    expect(t[1]).toBeCloseTo(2.5, 12); // the region is (2.5, 3.3]
    expect(t[2]).toBeCloseTo(3.3, 12);
    // k = 1 (default): 2.6 is nearest to b's 2.1, 3.29 to c's 4.
    expect(tree.predict([{ x: 2.6 }, { x: 3.29 }])).toEqual(['b', 'c']);
    expect(tree.predictProba([{ x: 2.6 }])).toEqual([[0, 1, 0]]);
    // k = 3 at x = 3: 2.1 (b), 2 (b), 4 (c) → b with 2/3 of the votes.
    expect(tree.predict([{ x: 3 }], { knnK: 3 })).toEqual(['b']);
    expect(tree.predictProba([{ x: 3 }], { knnK: 3 })[0]).toEqual([0, 2 / 3, 1 / 3]);
    // k = 12: every row votes, a and c tie 5–5 → the class whose member is nearer (c's 4 vs a's 1).
    expect(tree.predict([{ x: 3 }], { knnK: 12 })).toEqual(['c']);
    // Asking for no k-NN reports the row as unclassified again; rows elsewhere are unaffected.
    expect(tree.predict([{ x: 3 }, { x: 4.5 }], { unclassified: 'none' })).toEqual([null, 'c']);
  });

  it('only one non-empty branch → the node is a leaf with its majority class (Fig. 8)', () => {
    // Positives at 0 and 2, negatives at 1 (twice): w = 0, no threshold.
    const data = datasetFromRows(
      rowsOf([
        ['p', [0, 2]],
        ['n', [1, 1, 1]],
      ]),
      { target: 'y' },
    );
    const tree = fit(data, { algorithm: 'cmbsv' });
    expect(tree.nodes).toHaveLength(1);
    expect(tree.predict([{ x: 0 }])).toEqual(['n']);
    // 54 rows of one class and 2 of another at the same value: the feature cannot split.
    const piled = datasetFromRows(
      [...Array.from({ length: 54 }, () => ({ x: 3, y: 'one' })), { x: 3, y: 'two' }, { x: 3, y: 'two' }],
      { target: 'y' },
    );
    expect(fit(piled, { algorithm: 'cmbsv' }).nodes).toHaveLength(1);
  });

  it('pure branches are leaves; impure ones are split again on their own rows', () => {
    const data = datasetFromRows(
      [
        ...[0, 1, 2].map((x, i) => ({ x, z: [1, 1, 0][i], y: 'a' })),
        ...[5, 6].map((x) => ({ x, z: 0, y: 'b' })),
        ...[5, 6].map((x) => ({ x, z: 1, y: 'c' })),
      ],
      { target: 'y' },
    );
    const tree = fit(data, { algorithm: 'cmbsv' });
    const s = tree.stats();
    expect(tree.predict(data)).toEqual(Array.from(data.labels, (c) => data.classes[c]));
    expect(s.featuresUsed).toEqual(['x', 'z']);
    // Root: x separates a from {b, c}; t_ab = t_ac = 3.5 count once, and b, c share their x values
    // (no t_bc). The {b, c} branch is split again, on its own rows, by z.
    expect(tree.nodes[0].split).toEqual({ kind: 'numeric', feature: 0, thresholds: [3.5] });
    expect(tree.nodes[tree.nodes[0].children![1]].split).toMatchObject({ feature: 1 });
    for (const node of tree.nodes)
      if (!node.split && !node.unclassified) expect(node.counts.filter((c) => c > 0)).toHaveLength(1);
  });

  it('rows with a missing value on the split feature follow the heaviest branch', () => {
    const data = datasetFromRows(
      [
        ...rowsOf([
          ['lo', [1, 2, 3]],
          ['hi', [8, 9]],
        ]),
        { x: null, y: 'lo' },
      ],
      { target: 'y' },
    );
    const tree = fit(data, { algorithm: 'cmbsv' });
    expect(tree.nodes[0].missingBranch).toBe(0);
    expect(tree.nodes[tree.nodes[0].children![0]].n).toBe(4);
    expect(tree.predict([{ x: null }])).toEqual(['lo']);
  });

  it('unordered categorical features split multiway (chi-square association); ordered ones on their rank', () => {
    const rows = [
      { size: 'S', color: 'red', y: 'no' },
      { size: 'S', color: 'blue', y: 'no' },
      { size: 'M', color: 'red', y: 'no' },
      { size: 'L', color: 'blue', y: 'yes' },
      { size: 'XL', color: 'red', y: 'yes' },
      { size: 'XL', color: 'blue', y: 'yes' },
    ];
    const data = datasetFromRows(rows, { target: 'y' });
    const plain = fit(data, { algorithm: 'cmbsv' });
    expect(plain.nodes[0].split).toMatchObject({ kind: 'multiway', feature: 0 }); // size: V = 1, color: V = 0
    const ordered = fit(data, { algorithm: 'cmbsv', orderedCategories: { size: ['S', 'M', 'L', 'XL'] } });
    expect(ordered.features[0]).toEqual({ name: 'size', kind: 'numeric', levels: ['S', 'M', 'L', 'XL'] });
    expect(ordered.nodes[0].split).toMatchObject({ kind: 'numeric', feature: 0 });
    const t = (ordered.nodes[0].split as { thresholds: number[] }).thresholds;
    expect(t).toHaveLength(1);
    expect(t[0]).toBeGreaterThan(2); // between M (2) and L (3)
    expect(t[0]).toBeLessThan(3);
    expect(ordered.predict([{ size: 'M', color: 'red' }, { size: 'L', color: 'red' }, ['XL', 'blue']])).toEqual([
      'no',
      'yes',
      'yes',
    ]);
    const copy = DecisionTree.fromJSON(JSON.parse(JSON.stringify(ordered.toJSON())));
    expect(copy.predict(data)).toEqual(ordered.predict(data));
    expect(() => fit(data, { algorithm: 'cmbsv', orderedCategories: { size: ['S', 'M', 'L'] } })).toThrow(/XL/);
  });

  it('validates its options', () => {
    expect(() => fit(gapped, { algorithm: 'cmbsv', svmC: 0 })).toThrow(/svmC/);
    expect(() => fit(gapped, { algorithm: 'cmbsv', knnK: 0 })).toThrow(/knnK/);
    expect(() => fit(gapped, { algorithm: 'cmbsv', missing: 'fractional' })).toThrow(/majority/);
    expect(() => fit(gapped, { algorithm: 'cmbsv', labelCoding: 'binary' as never })).toThrow(/labelCoding/);
  });

  it('is deterministic', () => {
    const a = JSON.stringify(fit(glass, { algorithm: 'cmbsv', unclassified: 'knn' }).toJSON());
    const b = JSON.stringify(fit(glass, { algorithm: 'cmbsv', unclassified: 'knn' }).toJSON());
    expect(a).toBe(b);
  });
});

describe('C-MBSV trees everywhere else', () => {
  const tree = fit(gapped, { algorithm: 'cmbsv', unclassified: 'knn' });

  it('JSON round trip (with k-NN data) predicts identically, and the file is validated', () => {
    const json = JSON.parse(JSON.stringify(tree.toJSON()));
    expect(json.options.algorithm).toBe('cmbsv');
    expect(json.options.cmbsv).toMatchObject({
      unclassified: 'knn',
      knnK: 1,
      svmC: 1,
      labelCoding: 'ordinal',
      correlationCentring: true,
    });
    const copy = DecisionTree.fromJSON(json);
    const probe = Array.from({ length: 61 }, (_, i) => ({ x: -0.5 + i * 0.1 }));
    expect(copy.predict(probe)).toEqual(tree.predict(probe));
    expect(copy.predictProba(probe)).toEqual(tree.predictProba(probe));
    expect(copy.predict(probe, { unclassified: 'none' })).toContain(null);
    const region = json.nodes.findIndex((n: { unclassified?: boolean }) => n.unclassified);
    const bad = structuredClone(json);
    bad.nodes[region].knn.rows[0] = [1, 2];
    expect(() => validateModel(bad)).toThrow(/knn\.rows\.0/);
    const bad2 = structuredClone(json);
    bad2.nodes[0].unclassified = true;
    expect(() => validateModel(bad2)).toThrow(/unclassified region must be a leaf/);
  });

  it('text, rules and DOT show the multi-branch intervals and the unclassified region', () => {
    const text = treeToText(tree);
    expect(text).toMatch(/^x <= [\d.]+: a \(5\)$/m);
    expect(text).toMatch(/^[\d.]+ < x <= [\d.]+: b \(2\)$/m);
    expect(text).toMatch(/^[\d.]+ < x <= [\d.]+: unclassified region \(k-NN over 12 rows\)$/m);
    expect(text).toMatch(/^x > [\d.]+: c \(5\)$/m);
    const rules = treeToRules(tree);
    expect(rules.filter((r) => r.unclassified)).toHaveLength(1);
    expect(rulesToText(tree)).toMatch(/IF [\d.]+ < x <= [\d.]+ THEN unclassified region/);
    const dot = treeToDot(tree);
    expect(dot).toContain('style=dashed, label="unclassified region (k-NN over 12 rows)"');
    expect(dot).toMatch(/-> n\d+ \[label="[\d.]+ < x <= [\d.]+"\]/);
    const plain = fit(gapped, { algorithm: 'cmbsv' });
    expect(treeToText(plain)).toMatch(/: unclassified region$/m);
  });

  it('statistics: height and needless features', () => {
    const data = datasetFromRows(
      rowsOf([
        ['a', [0, 0.5, 1]],
        ['b', [2, 2.5, 3]],
        ['c', [4, 4.5, 5]],
      ]).map((r, i) => ({ noise: i % 2, ...r })),
      { target: 'y' },
    );
    const s = fit(data, { algorithm: 'cmbsv' }).stats();
    expect(s.height).toBe(1);
    expect(s.featuresUsed).toEqual(['x']);
    expect(s.needlessFeatures).toEqual(['noise']);
    expect(s.leaves).toBe(4);
  });

  it('post-pruning applies to multi-branch trees and keeps them valid', () => {
    const full = fit(glass, { algorithm: 'cmbsv', unclassified: 'knn' });
    expect(full.nodes.some((n) => n.split?.kind === 'numeric' && n.split.thresholds.length > 1)).toBe(true);
    expect(full.nodes.some((n) => n.unclassified)).toBe(true);
    for (const prune of ['pessimistic', 'error-based', 'cost-complexity'] as const) {
      const pruned = fit(glass, { algorithm: 'cmbsv', unclassified: 'knn', prune, ccpFolds: 5 });
      expect(pruned.pruning?.method).toBe(prune);
      expect(pruned.stats().leaves).toBeLessThan(full.stats().leaves);
      const copy = DecisionTree.fromJSON(JSON.parse(JSON.stringify(pruned.toJSON())));
      expect(copy.predict(glass)).toEqual(pruned.predict(glass));
      // Whatever survives is still a C-MBSV tree: regions stay leaves with their k-NN data.
      for (const n of copy.nodes) if (n.unclassified) expect(n.split === undefined && n.knn !== undefined).toBe(true);
    }
  });
});

describe('a C-MBSV tree grown elsewhere in pieces', () => {
  it('with k-NN regions (which the pieces cannot make) is refused with an E_MODEL GroveError, not a plain Error', () => {
    const opts = resolveOptions({ algorithm: 'cmbsv', unclassified: 'knn' });
    const weights = new Float64Array(gapped.nRows).fill(1);
    let thrown: unknown;
    try {
      growCmbsv(gapped, opts, weights, TreeStore.root(gapped.classes.length));
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(GroveError);
    expect((thrown as GroveError).code).toBe('E_MODEL');
    expect((thrown as GroveError).message).toContain("unclassified 'knn'");
  });
});
