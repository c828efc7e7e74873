/**
 * Golden values from the papers, reproduced through the scanners and the grower (not only the
 * criteria): the tutorial's play-tennis, 30-row and CART tables, and Zaki's sepal-length table.
 * The tutorial truncates to 3 decimals (0.2467 is printed 0.246), so `truncated` compares that way.
 */
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import type { Dataset } from '../../src/data/dataset.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { scoreAttributes } from '../../src/learn/score.js';
import { readDataset } from '../../src/sources/file-source.js';
import { fixture } from '../helpers/paths.js';

const truncated = (x: number | null) => Math.floor((x ?? NaN) * 1000 + 1e-9) / 1000;
const rounded = (x: number | null) => Math.round((x ?? NaN) * 1000) / 1000;
const scoreOf = (report: ReturnType<typeof scoreAttributes>, name: string) =>
  report.attributes.find((a) => a.name === name)!;

const tennis = await readDataset(fixture('play-tennis.csv'), { target: 'Play' });

describe('metrics tutorial: play tennis (ID3)', () => {
  const data = tennis;

  it('information gain of every attribute at the root', () => {
    const r = scoreAttributes(data, { criterion: 'info-gain', categoricalSplit: 'multiway' });
    expect(truncated(scoreOf(r, 'Outlook').score)).toBe(0.246);
    expect(truncated(scoreOf(r, 'Temperature').score)).toBe(0.029);
    expect(truncated(scoreOf(r, 'Humidity').score)).toBe(0.151);
    expect(truncated(scoreOf(r, 'Wind').score)).toBe(0.048);
    expect(r.best).toBe('Outlook');
    expect(r.better).toBe('higher');
  });

  it('information gain inside Outlook = Sunny', async () => {
    const rows = await readDataset(fixture('play-tennis.csv'), { target: 'Play' });
    const outlook = rows.features[0];
    if (outlook.kind !== 'categorical') throw new Error('Outlook should be categorical');
    const sunny = outlook.categories.indexOf('Sunny');
    const keep = Array.from(outlook.codes.keys()).filter((i) => outlook.codes[i] === sunny);
    const sub = datasetFromRows(
      keep.map((i) => ({
        Temperature: cat(rows, 1, i),
        Humidity: cat(rows, 2, i),
        Wind: cat(rows, 3, i),
        Play: String(rows.classes[rows.labels[i]]),
      })),
      { target: 'Play' },
    );
    const r = scoreAttributes(sub, { criterion: 'info-gain', categoricalSplit: 'multiway' });
    expect(truncated(scoreOf(r, 'Temperature').score)).toBe(0.57);
    expect(truncated(scoreOf(r, 'Humidity').score)).toBe(0.97);
    expect(truncated(scoreOf(r, 'Wind').score)).toBe(0.019);
    expect(r.best).toBe('Humidity');
  });

  it('the fitted ID3 tree is the tutorial tree: Outlook; Sunny → Humidity; Rain → Wind', () => {
    const tree = fit(data, { algorithm: 'id3' });
    const names = tree.features.map((f) => f.name);
    const root = tree.nodes[0];
    expect(names[root.split!.feature]).toBe('Outlook');
    const outlookValues = tree.features[root.split!.feature].categories!;
    const childFor = (value: string) => {
      const split = root.split!;
      if (split.kind !== 'multiway') throw new Error('expected a multiway root');
      return tree.nodes[root.children![split.values.indexOf(outlookValues.indexOf(value))]];
    };
    expect(names[childFor('Sunny').split!.feature]).toBe('Humidity');
    expect(names[childFor('Rain').split!.feature]).toBe('Wind');
    expect(childFor('Overcast').split).toBeUndefined();
    expect(tree.classes[childFor('Overcast').counts.indexOf(4)]).toBe('Yes');
    expect(tree.stats()).toMatchObject({ leaves: 5, height: 2, needlessFeatures: ['Temperature'] });
    expect(tree.predict(data)).toEqual(Array.from(data.labels, (c) => data.classes[c]));
  });
});

function cat(d: Dataset, f: number, i: number): string {
  const col = d.features[f];
  if (col.kind !== 'categorical') throw new Error('expected categorical');
  return col.categories[col.codes[i]];
}

const tutorial30 = await readDataset(fixture('tutorial-30.csv'));

describe('metrics tutorial: the 30-row example', () => {
  const data = tutorial30;
  it('information gain 0.381 and gain ratio 0.386', () => {
    const ig = scoreAttributes(data, { criterion: 'info-gain', categoricalSplit: 'multiway' });
    const gr = scoreAttributes(data, { criterion: 'gain-ratio', categoricalSplit: 'multiway' });
    expect(truncated(ig.attributes[0].score)).toBe(0.381);
    expect(rounded(gr.attributes[0].score)).toBe(0.386);
  });
  it('weighted Gini 0.265', () => {
    const g = scoreAttributes(data, { criterion: 'gini', categoricalSplit: 'multiway' });
    expect(rounded(g.attributes[0].score)).toBe(0.265);
    expect(g.better).toBe('lower');
  });
});

const taxableIncome = await readDataset(fixture('taxable-income.csv'), { target: 'Cheat' });

describe('metrics tutorial: CART on taxable income', () => {
  const data = taxableIncome;
  const r = scoreAttributes(data, { criterion: 'gini' });
  it('best income threshold lies between 95 and 100 with weighted Gini 0.300', () => {
    const income = scoreOf(r, 'TaxableIncome');
    expect(income.split).toEqual({ threshold: 97.5 });
    expect(rounded(income.score)).toBe(0.3);
  });
  it('Buy House has Gini 12/35', () => {
    expect(scoreOf(r, 'BuyHouse').score).toBeCloseTo(12 / 35, 12);
  });
});

describe('Zaki & Meira: discretized sepal length', () => {
  it('best binary split is X ∈ {a1} with information gain 0.410', async () => {
    const data = await readDataset(fixture('sepal-length-discretized.csv'));
    const r = scoreAttributes(data, { criterion: 'info-gain', categoricalSplit: 'binary' });
    expect(r.attributes[0].split).toEqual({ left: ['a1'], right: ['a2', 'a3', 'a4'] });
    expect(rounded(r.attributes[0].score)).toBe(0.41);
  });
  it('the same best split when every |V| ≤ 2 is enumerated (more than two classes path off)', async () => {
    const data = await readDataset(fixture('sepal-length-discretized.csv'));
    const r = scoreAttributes(data, { criterion: 'info-gain', categoricalSplit: 'binary', maxSubsetSize: 2 });
    expect(r.attributes[0].split).toEqual({ left: ['a1'], right: ['a2', 'a3', 'a4'] });
  });
});
