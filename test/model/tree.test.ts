import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { GroveError } from '../../src/core/errors.js';
import { listCriteria, registerCriterion } from '../../src/criteria/registry.js';
import type { Dataset } from '../../src/data/dataset.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { loadModel, saveModel } from '../../src/io/model-file.js';
import type { DecisionTree } from '../../src/model/decision-tree.js';
import type { TreeNode } from '../../src/model/node.js';
import { DEFAULTS, resolveOptions } from '../../src/options/options.js';
import { readDataset } from '../../src/sources/file-source.js';
import { corpus, fixture, haveCorpus } from '../helpers/paths.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tennis = await readDataset(fixture('play-tennis.csv'), { target: 'Play' });

/** Every internal node of a tree with its id. */
const internal = (nodes: TreeNode[]) => nodes.filter((n) => n.split);
const leaves = (nodes: TreeNode[]) => nodes.filter((n) => !n.split);
const accuracy = (tree: DecisionTree, data: Dataset) => {
  const p = tree.predictCodes(data);
  let ok = 0;
  for (let i = 0; i < data.nRows; i++) ok += p[i] === data.labels[i] ? 1 : 0;
  return ok / data.nRows;
};

/** Rows with identical features but different labels make 100% training accuracy impossible. */
function hasConflictingDuplicates(data: Dataset): boolean {
  const seen = new Map<string, number>();
  for (let i = 0; i < data.nRows; i++) {
    const key = data.features.map((c) => (c.kind === 'numeric' ? c.values[i] : c.codes[i])).join('|');
    const label = seen.get(key);
    if (label !== undefined && label !== data.labels[i]) return true;
    seen.set(key, data.labels[i]);
  }
  return false;
}

describe('growing', () => {
  it('is deterministic: two fits give the same model file', () => {
    const a = JSON.stringify(fit(tennis, { algorithm: 'cart' }).toJSON());
    const b = JSON.stringify(fit(tennis, { algorithm: 'cart' }).toJSON());
    expect(a).toBe(b);
  });

  it('breaks ties by column order: of two identical columns the first is used', () => {
    const rows = [1, 2, 3, 4, 5, 6].map((x) => ({ a: x, b: x, y: x <= 3 ? 'lo' : 'hi' }));
    const tree = fit(datasetFromRows(rows, { target: 'y' }));
    expect(tree.nodes[0].split).toEqual({ kind: 'numeric', feature: 0, thresholds: [3.5] });
  });

  it('uses the midpoint of successive distinct values as threshold', () => {
    const rows = [0, 0, 1, 4, 4].map((x, i) => ({ x, y: i < 3 ? 'a' : 'b' }));
    const tree = fit(datasetFromRows(rows, { target: 'y' }));
    expect(tree.nodes[0].split).toMatchObject({ thresholds: [2.5] });
  });

  it('does not reuse a categorical attribute below a multiway split on it', () => {
    const car = datasetFromRows(
      Array.from({ length: 40 }, (_, i) => ({
        a: ['p', 'q', 'r'][i % 3],
        b: ['s', 't'][(i >> 2) % 2],
        y: (i * 7) % 5 < 2 ? 'x' : 'z',
      })),
      { target: 'y' },
    );
    const tree = fit(car, { algorithm: 'id3' });
    const walk = (id: number, used: Set<number>) => {
      const node = tree.nodes[id];
      if (!node.split) return;
      expect(used.has(node.split.feature)).toBe(false);
      const next = new Set(used).add(node.split.feature);
      node.children!.forEach((c) => walk(c, next));
    };
    walk(0, new Set());
  });

  it('respects maxDepth, minSamplesLeaf, minSamplesSplit, purity and minGain', async () => {
    const data = await readDataset(fixture('taxable-income.csv'), { target: 'Cheat' });
    expect(fit(data, { maxDepth: 1 }).stats().height).toBeLessThanOrEqual(1);
    for (const node of leaves(fit(data, { minSamplesLeaf: 3 }).nodes)) expect(node.n).toBeGreaterThanOrEqual(3);
    for (const node of internal(fit(data, { minSamplesSplit: 5 }).nodes)) expect(node.n).toBeGreaterThanOrEqual(5);
    for (const node of internal(fit(data, { purity: 0.75, prune: 'none' }).nodes)) {
      expect(Math.max(...node.counts) / node.counts.reduce((a, b) => a + b)).toBeLessThan(0.75);
    }
    const gains = internal(fit(data, { minGain: 0.05, prune: 'none' }).nodes).map((n) => n.improvement!);
    expect(gains.length).toBeGreaterThan(0);
    for (const g of gains) expect(g).toBeGreaterThanOrEqual(0.05);
  });

  it('zaki preset stops at n ≤ η = 5 and purity ≥ π = 0.95', () => {
    const tree = fit(tennis, { algorithm: 'zaki' });
    for (const node of internal(tree.nodes)) {
      expect(node.n).toBeGreaterThan(5);
      expect(Math.max(...node.counts) / node.n).toBeLessThan(0.95);
    }
    expect(tree.options).toMatchObject({
      criterion: 'info-gain',
      categoricalSplit: 'binary',
      minSamplesSplit: 6,
      purity: 0.95,
    });
  });

  it('limits binary subsets to |V| ≤ l when there are more than two classes', () => {
    const rows = Array.from({ length: 60 }, (_, i) => ({ v: 'abcdef'[i % 6], y: ['r', 's', 't'][Math.floor(i / 20)] }));
    const tree = fit(datasetFromRows(rows, { target: 'y' }), { maxSubsetSize: 1, maxDepth: 1, prune: 'none' });
    const split = tree.nodes[0].split!;
    expect(split.kind).toBe('subset');
    if (split.kind === 'subset') expect(split.left).toHaveLength(1);
  });

  it('gives a one-leaf tree for a single class', async () => {
    const tree = fit(await readDataset(fixture('one-class.csv')));
    expect(tree.nodes).toHaveLength(1);
    expect(tree.predict([{}], { allowMissingKeys: true })).toEqual([tree.classes[0]]);
  });

  it('weighting every row by 2 grows the same tree as duplicating every row', async () => {
    const rows = readFileSync(fixture('taxable-income.csv'), 'utf8').trim().split('\n');
    const doubled = datasetFromRows(
      [...rows.slice(1), ...rows.slice(1)].map((r) => r.split(',')),
      { columns: rows[0].split(','), target: 'Cheat' },
    );
    const base = await readDataset(fixture('taxable-income.csv'), { target: 'Cheat' });
    for (const criterion of [
      'gini',
      'info-gain',
      'gain-ratio',
      'chi-square',
      'dcsm',
      'chandra-varghese',
      'hellinger',
    ]) {
      const weighted = fit(base, { criterion, prune: 'none', sampleWeight: new Float64Array(base.nRows).fill(2) });
      const dup = fit(doubled, { criterion, prune: 'none' });
      expect(weighted.nodes.map((n) => [n.split, n.counts])).toEqual(dup.nodes.map((n) => [n.split, n.counts]));
    }
  });

  it('refuses bad options with a message naming the option', () => {
    expect(() => fit(tennis, { algorithm: 'c5' })).toThrow(/unknown algorithm 'c5'/);
    expect(() => fit(tennis, { criterion: 'twoing', categoricalSplit: 'multiway' })).toThrow(/binary splits only/);
    expect(() => fit(tennis, { maxDepth: -1 })).toThrow(/maxDepth/);
    expect(() => fit(tennis, { purity: 0 })).toThrow(/purity/);
    expect(() => fit(tennis, { minSamplesLeaf: 0 })).toThrow(/minSamplesLeaf/);
    expect(() => fit(tennis, { sampleWeight: [1, 2] })).toThrow(/sampleWeight/);
    expect(() => fit(tennis, { criterion: 'nope' })).toThrow(GroveError);
  });

  it('uses a custom criterion registered in a few lines', () => {
    registerCriterion({
      name: 'misclassification',
      better: 'lower',
      formula: 'Σ_v (n_v/n)(1 - max_k p_vk)',
      source: 'test',
      evaluate(t) {
        let err = 0;
        for (let b = 0; b < t.branches; b++) {
          let max = 0;
          for (let c = 0; c < t.classes; c++) max = Math.max(max, t.counts[b * t.classes + c]);
          err += t.branchTotals[b] - max;
        }
        return t.total > 0 ? err / t.total : 0;
      },
    });
    const tree = fit(tennis, { criterion: 'misclassification', prune: 'none' });
    expect(tree.options.criterion).toBe('misclassification');
    expect(accuracy(tree, tennis)).toBe(1);
  });
});

describe('prediction', () => {
  const tree = fit(tennis, { algorithm: 'id3' });

  it('accepts a dataset, objects and arrays alike', () => {
    const fromData = tree.predict(tennis);
    const objects = Array.from({ length: tennis.nRows }, (_, i) =>
      Object.fromEntries(
        tennis.features.map((c) => [c.name, c.kind === 'categorical' ? c.categories[c.codes[i]] : c.values[i]]),
      ),
    );
    const arrays = objects.map((o) => tree.features.map((f) => o[f.name]));
    expect(tree.predict(objects)).toEqual(fromData);
    expect(tree.predict(arrays)).toEqual(fromData);
  });

  it('sends a missing or unseen value down the majority branch (missing: majority)', () => {
    const root = tree.nodes[0];
    expect(tree.options.missing).toBe('majority');
    // Sunny and Rain both hold 5 of 14 rows; the first heaviest branch (Sunny) takes missing values.
    const outlook = tree.features[0].categories!;
    expect(root.split).toMatchObject({ kind: 'multiway', feature: 0 });
    const sunnyBranch = (root.split as { values: number[] }).values.indexOf(outlook.indexOf('Sunny'));
    expect(root.missingBranch).toBe(sunnyBranch);
    const viaSunny = tree.predictProba([{ Outlook: 'Sunny', Temperature: 'Hot', Humidity: 'High', Wind: 'Weak' }])[0];
    expect(tree.predictProba([{ Outlook: null, Temperature: 'Hot', Humidity: 'High', Wind: 'Weak' }])[0]).toEqual(
      viaSunny,
    );
    expect(tree.predictProba([{ Outlook: 'Fog', Temperature: 'Hot', Humidity: 'High', Wind: 'Weak' }])[0]).toEqual(
      viaSunny,
    );
  });

  it('mixes the branches by their training weight under missing: fractional (C4.5)', () => {
    const frac = fit(tennis, { algorithm: 'id3', missing: 'fractional' });
    expect(frac.nodes[0].missingBranch).toBeUndefined();
    const row = (outlook: string | null) => ({
      Outlook: outlook,
      Temperature: 'Hot',
      Humidity: 'High',
      Wind: 'Strong',
    });
    const [sunny, overcast, rain] = ['Sunny', 'Overcast', 'Rain'].map((o) => frac.predictProba([row(o)])[0]);
    // Branch weights 5/14, 4/14, 5/14 (Sunny, Overcast, Rain).
    const expected = sunny.map((_, c) => (5 / 14) * sunny[c] + (4 / 14) * overcast[c] + (5 / 14) * rain[c]);
    const mixed = frac.predictProba([row(null)])[0];
    mixed.forEach((p, c) => expect(p).toBeCloseTo(expected[c], 12));
    expect(frac.predict([row(null)])).toEqual([frac.classes[mixed.indexOf(Math.max(...mixed))]]);
  });

  it('keeps numeric class labels as numbers', () => {
    const data = datasetFromRows(
      [
        [1, 10],
        [2, 10],
        [3, 20],
        [4, 20],
      ],
      { columns: ['x', 'y'] },
    );
    const t = fit(data);
    expect(t.classes).toEqual([10, 20]);
    expect(t.predict([[1.5], [3.5]])).toEqual([10, 20]);
  });

  it('gives probabilities that sum to 1', () => {
    for (const p of tree.predictProba(tennis)) expect(p.reduce((a, b) => a + b)).toBeCloseTo(1, 12);
  });
});

describe('model files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'grove-model-'));

  it('save → load → predict gives identical predictions and probabilities', async () => {
    for (const [data, algorithm] of [
      [tennis, 'id3'],
      [tennis, 'cart'],
      [await readDataset(fixture('taxable-income.csv')), 'c45'],
    ] as const) {
      const tree = fit(data, { algorithm });
      const path = join(dir, `${algorithm}.json`);
      saveModel(tree, path);
      const loaded = loadModel(path);
      expect(loaded.predict(data)).toEqual(tree.predict(data));
      expect(loaded.predictProba(data)).toEqual(tree.predictProba(data));
      expect(loaded.toJSON()).toEqual(JSON.parse(JSON.stringify(tree.toJSON())));
    }
  });

  it('refuses corrupt or foreign files with a one-line GroveError', () => {
    const good = fit(tennis, { algorithm: 'cart', prune: 'none' }).toJSON();
    const cases: Array<[string, unknown, RegExp]> = [
      ['foreign.json', { name: 'grove', version: '0.1.0' }, /not a grove model/],
      ['version.json', { ...good, version: 99 }, /unsupported grove model version 99/],
      [
        'child.json',
        { ...good, nodes: good.nodes.map((n, i) => (i === 0 ? { ...n, children: [999, 1000] } : n)) },
        /out of range/,
      ],
      [
        'counts.json',
        { ...good, nodes: good.nodes.map((n, i) => (i === 0 ? { ...n, counts: [1] } : n)) },
        /class counts/,
      ],
      [
        'feature.json',
        { ...good, nodes: good.nodes.map((n, i) => (i === 0 ? { ...n, split: { ...n.split, feature: 42 } } : n)) },
        /no feature 42/,
      ],
      ['missing.json', { ...good, classes: undefined }, /classes/],
      [
        'orphans.json',
        {
          ...good,
          nodes: good.nodes.map((n, i) =>
            i === good.nodes.findIndex((m, j) => j > 0 && m.split)
              ? { ...n, split: undefined, children: undefined }
              : n,
          ),
        },
        /not reachable/,
      ],
    ];
    for (const [name, value, message] of cases) {
      const path = join(dir, name);
      writeFileSync(path, JSON.stringify(value));
      expect(() => loadModel(path)).toThrow(message);
      try {
        loadModel(path);
      } catch (err) {
        expect(err).toBeInstanceOf(GroveError);
        expect((err as Error).message).toContain(path);
        expect((err as Error).message).not.toContain('\n');
      }
    }
    const truncated = join(dir, 'truncated.json');
    writeFileSync(truncated, JSON.stringify(good).slice(0, 100));
    expect(() => loadModel(truncated)).toThrow(/not valid JSON/);
  });
});

describe('statistics', () => {
  it('counts nodes, leaves, height, needless features, and importances that sum to 1', () => {
    const tree = fit(tennis, { algorithm: 'id3' });
    const s = tree.stats();
    expect(s).toMatchObject({
      nodes: 8,
      leaves: 5,
      height: 2,
      featuresUsed: ['Outlook', 'Humidity', 'Wind'],
      needlessFeatures: ['Temperature'],
    });
    expect(Object.values(s.importances).reduce((a, b) => a + b)).toBeCloseTo(1, 12);
    expect(s.importances.Temperature).toBe(0);
    // By hand: Outlook's gain 0.2467 at the root; Humidity and Wind each gain H(2/5) = 0.97095
    // on 5 of 14 rows.
    const h = (p: number) => -p * Math.log2(p) - (1 - p) * Math.log2(1 - p);
    const rootGain = h(9 / 14) - (5 / 14) * h(2 / 5) - (5 / 14) * h(3 / 5);
    const child = (5 / 14) * h(2 / 5);
    expect(s.importances.Outlook).toBeCloseTo(rootGain / (rootGain + 2 * child), 12);
    expect(s.importances.Wind).toBeCloseTo(child / (rootGain + 2 * child), 12);
  });
});

// Read only when present: a skipped describe still runs its body to collect the tests.
const uciSets = haveCorpus
  ? await Promise.all(['iris', 'wine', 'car'].map(async (name) => [name, await readDataset(corpus(name))] as const))
  : [];

describe.skipIf(!haveCorpus)('every measure on UCI data', () => {
  const sets = uciSets;
  for (const criterion of listCriteria()
    .map((c) => c.name)
    .filter((n) => n !== 'misclassification')) {
    for (const [name, data] of sets) {
      for (const categoricalSplit of ['binary', 'multiway'] as const) {
        const isCategorical = data.features.some((c) => c.kind === 'categorical');
        if (!isCategorical && categoricalSplit === 'multiway') continue;
        if (criterion === 'twoing' && categoricalSplit === 'multiway') continue;
        it(`${criterion} (${categoricalSplit}) on ${name}: unpruned training accuracy is 1.0`, () => {
          const tree = fit(data, { criterion, categoricalSplit, prune: 'none' });
          expect(hasConflictingDuplicates(data)).toBe(false);
          expect(accuracy(tree, data)).toBe(1);
          expect(tree.stats().leaves).toBeGreaterThan(1);
        });
      }
    }
  }
});

describe('argsortNumeric', () => {
  it('orders ascending, missing last, ties by row index (checked against a comparator sort)', async () => {
    const { argsortNumeric } = await import('../../src/learn/grow.js');
    const { mulberry32 } = await import('../../src/core/random.js');
    const random = mulberry32(3);
    const value = (): number => {
      const u = random();
      if (u < 0.1) return NaN;
      if (u < 0.2) return random() < 0.5 ? -0 : 0;
      if (u < 0.25) return random() < 0.5 ? Infinity : -Infinity;
      if (u < 0.6) return Math.round(random() * 50) - 25; // ties
      return (random() - 0.5) * 10 ** Math.floor(random() * 80 - 40); // tiny to huge, both signs
    };
    // float64 columns sort 64-bit keys, float32 columns 32-bit ones: both against the comparator.
    for (const [n, float32] of [0, 1, 2, 17, 1000, 70000].flatMap(
      (n) =>
        [
          [n, false],
          [n, true],
        ] as const,
    )) {
      const x = (float32 ? Float32Array : Float64Array).from({ length: n }, value);
      const expected = Array.from({ length: n }, (_, i) => i).sort((a, b) => {
        const na = Number.isNaN(x[a]);
        const nb = Number.isNaN(x[b]);
        if (na || nb) return na === nb ? a - b : na ? 1 : -1;
        return x[a] - x[b] || a - b;
      });
      expect(Array.from(argsortNumeric(x))).toEqual(expected);
    }
  });

  it('orders values sharing high words (ordered by the low words, or by the full sort) as a comparator sort', async () => {
    const { argsortNumeric } = await import('../../src/split/argsort.js');
    const { mulberry32 } = await import('../../src/core/random.js');
    const random = mulberry32(7);
    const n = 20000;
    const bases = Float64Array.from({ length: 5000 }, () => Math.round(random() * 1e6) / 7);
    // Distinct values but for 20 pairs of rows next to each other, each of one high word, the later row's lower.
    const pairs = Float64Array.from({ length: n }, () => random() * 1e6);
    for (let i = 1; i < n; i += 1000) pairs[i + 1] = pairs[i] * (1 - 2 ** -40);
    // Rows in threes of one high word, each three's low words descending (too many moves for the sample to see).
    const threes = Float64Array.from({ length: n }, () => 0);
    for (let i = 0; i < n; i += 3) {
      const v = random() * 1e6;
      for (let j = 0; j < 3 && i + j < n; j++) threes[i + j] = v * (1 + (2 - j) * 2 ** -40);
    }
    const columns = [
      pairs,
      threes,
      // Long runs: too many moves, so the full 64-bit sort.
      Float64Array.from({ length: n }, (_, i) => bases[i % 50] + random() * 2 ** -30),
      // Every value within 2^-20 of 1: one high word.
      Float64Array.from({ length: n }, () => 1 + random() * 2 ** -21),
    ];
    for (const x of columns) {
      const expected = Array.from({ length: n }, (_, i) => i).sort((a, b) => x[a] - x[b] || a - b);
      expect(Array.from(argsortNumeric(x))).toEqual(expected);
    }
  });

  it('sortedKeys gives the values in argsortNumeric’s order, as keys (keyValue reads them back)', async () => {
    const { argsortNumeric } = await import('../../src/split/argsort.js');
    const { keyValue, sortedKeys } = await import('../../src/split/radix-keys.js');
    const { SortWork } = await import('../../src/split/sort-work.js');
    const { mulberry32 } = await import('../../src/core/random.js');
    const random = mulberry32(11);
    const work = new SortWork();
    // 8-bit digits below 16,384 rows, 11/11/10 above; integers skip digits every key shares.
    for (const [n, float32, ints] of [
      [0, false, false],
      [500, false, false],
      [500, true, false],
      [20000, false, false],
      [20000, true, true],
      [20000, false, true],
    ] as const) {
      const x = (float32 ? Float32Array : Float64Array).from({ length: n }, () =>
        random() < 0.05 ? NaN : ints ? Math.floor(random() * 300) - 100 : (random() - 0.5) * 1e6,
      );
      const expected = Array.from(argsortNumeric(x), (i) => x[i]);
      const { hi, lo } = sortedKeys(x, work);
      expect(lo === null).toBe(float32);
      const got = Array.from(hi, (h, i) => (h === 0xffffffff ? NaN : lo ? keyValue(h, lo[i]) : keyValue(h)));
      expect(got).toEqual(expected);
    }
  });

  it('orders small integer columns (the radix route) and small non-integer ones (the rank route) alike, with scratch reuse', async () => {
    const { argsortNumeric } = await import('../../src/learn/grow.js');
    const { SortWork } = await import('../../src/split/sort-work.js');
    const { mulberry32 } = await import('../../src/core/random.js');
    const random = mulberry32(5);
    const work = new SortWork();
    for (const n of [3000, 40, 9000]) {
      const ints = Float64Array.from({ length: n }, () => Math.floor(random() * 30) - 10);
      const halves = ints.map((v) => v / 2); // the same order, now with non-integers
      const expected = Array.from({ length: n }, (_, i) => i).sort((a, b) => ints[a] - ints[b] || a - b);
      expect(Array.from(argsortNumeric(ints, work))).toEqual(expected);
      expect(Array.from(argsortNumeric(halves, work))).toEqual(expected);
    }
  });
});

describe('resolveOptions', () => {
  it('gives every result one hidden class in V8, however many fits a process runs', () => {
    // Object spreads gave each call a class of its own from the 9th call on, and the grower's
    // optimised code deoptimised on every later fit. Checked in a child process (natives syntax), on dist/.
    const script = `
      const { resolveOptions } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist', 'options', 'options.js')).href)});
      const same = new Function('a', 'b', 'return %HaveSameMap(a, b)');
      const first = resolveOptions({ criterion: 'dcsm', prune: 'none' });
      let all = true;
      for (let i = 0; i < 40; i++) all = same(first, resolveOptions({ criterion: 'dcsm', prune: 'none' })) && all;
      console.log(JSON.stringify({ all, algorithm: first.algorithm, criterion: first.criterion }));`;
    const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(JSON.parse(out)).toEqual({ all: true, algorithm: 'cart', criterion: 'dcsm' });
  });

  it('keeps every option given', () => {
    const given = { maxDepth: 3, bins: 16, classWeight: 'balanced' as const, knnK: 3, ccpAlpha: 0.01 };
    const resolved = resolveOptions(given);
    for (const [k, v] of Object.entries(given)) expect(resolved[k as keyof typeof resolved]).toEqual(v);
    expect(Object.keys(resolved)).toEqual(expect.arrayContaining(Object.keys(DEFAULTS)));
  });
});
