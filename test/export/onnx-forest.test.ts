/**
 * A forest's ONNX export (one TreeEnsembleClassifier holding every tree) checked in ONNX Runtime
 * (onnxruntime-web): labels identical to grove's, probabilities within 1e-6, for averaged and
 * majority-vote forests over numeric, categorical and missing values, and C-MBSV unclassified
 * regions. ONNX Runtime reads float32: grove predicts the same values rounded to float32.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Forest } from '../../src/ensemble/forest.js';
import { forestToOnnx } from '../../src/export/onnx/forest.js';
import { type Dataset, type FitOptions, fitForest, GroveError, readDataset } from '../../src/node.js';
import { repoRoot } from '../helpers/cli.js';
import { corpus, haveCorpus } from '../helpers/paths.js';
import { scoreOnnx } from './engines.js';
import { handModel, leaf } from './models.js';
import { firstMismatch, plainColumns, type Scored } from './rows.js';

function float32Rows(data: Dataset): Dataset {
  return {
    ...data,
    features: data.features.map((c) => (c.kind === 'numeric' ? { ...c, values: Float32Array.from(c.values) } : c)),
  };
}

/** grove's labels (null as `unclassified`) and combined probabilities for the rows. */
function groveForest(forest: Forest, rows: Parameters<Forest['predict']>[0]): Scored {
  const labels = forest.predict(rows).map((l) => (l === null ? 'unclassified' : String(l)));
  return { labels, proba: forest.predictProbaFlat(rows) };
}

/** Export, score in ONNX Runtime on the float32 rows, and return the first mismatch with grove. */
async function mismatch(forest: Forest, data: Dataset): Promise<string | undefined> {
  const rows = float32Rows(data);
  const got = await scoreOnnx(forestToOnnx(forest).bytes, plainColumns(forest.trees[0], rows), rows.nRows);
  return firstMismatch(groveForest(forest, rows), got, forest.classes.length);
}

async function shipped(name: string): Promise<Dataset> {
  return readDataset(resolve(repoRoot, `data/${name}.csv`));
}

describe('forest ONNX export in ONNX Runtime', () => {
  it('equals grove on iris: averaged probabilities and majority vote, 100 trees', async () => {
    const data = await shipped('iris');
    for (const vote of ['proba', 'majority'] as const) {
      const forest = fitForest(data, { trees: 100, seed: 3, vote });
      expect(await mismatch(forest, data)).toBeUndefined();
    }
  }, 60_000);

  it('equals grove with categorical features and missing values (house-votes-84)', async () => {
    const data = await shipped('house-votes-84');
    const options: FitOptions = { forest: 'extra-trees', trees: 30, seed: 5, missing: 'majority' };
    const forest = fitForest(data, options);
    expect(forest.features.some((f) => f.kind === 'categorical')).toBe(true);
    expect(await mismatch(forest, data)).toBeUndefined();
  }, 60_000);

  it.skipIf(!haveCorpus)(
    'equals grove on a numeric corpus set (segment, 100 trees)',
    async () => {
      const data = await readDataset(corpus('segment'));
      const forest = fitForest(data, { trees: 100, seed: 11, maxDepth: 8 });
      expect(await mismatch(forest, data)).toBeUndefined();
    },
    120_000,
  );

  it('labels a row every tree leaves unclassified `unclassified`, and others by the trees that classify', async () => {
    const split = (thresholds: number[], missingBranch: number) => ({
      counts: [3, 3],
      n: 6,
      depth: 0,
      split: { kind: 'numeric' as const, feature: 0, thresholds },
      children: thresholds.map((_, i) => i + 1).concat(thresholds.length + 1),
      missingBranch,
    });
    const none = { counts: [0, 0], n: 0, depth: 1, unclassified: true };
    const features = [{ name: 'x', kind: 'numeric' as const }];
    const a = handModel(features, ['lo', 'hi'], [split([1, 2], 0), leaf([3, 0]), none, leaf([0, 3])]);
    const b = handModel(features, ['lo', 'hi'], [split([1.5], 0), none, leaf([1, 2])]);
    const fitted = fitForest(await shipped('iris'), { trees: 1 });
    for (const vote of ['proba', 'majority'] as const) {
      const forest = new Forest({
        target: 'y',
        features,
        classes: ['lo', 'hi'],
        settings: { ...fitted.settings, trees: 2, vote },
        options: a.options,
        trees: [a, b],
      });
      const x = [0.5, 1.2, 1.7, 2.5, null];
      const got = await scoreOnnx(forestToOnnx(forest).bytes, [{ name: 'x', kind: 'number', values: x }], x.length);
      const expected = groveForest(
        forest,
        x.map((v) => [v]),
      );
      expect(expected.labels).toContain('unclassified');
      expect(firstMismatch(expected, got, 2)).toBeUndefined();
    }
  });

  it('refuses what is not a forest', () => {
    expect(() => forestToOnnx({} as Forest)).toThrow(GroveError);
  });
});
