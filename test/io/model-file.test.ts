import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { loadModel, saveModel } from '../../src/io/model-file.js';
import { DecisionTree, TRUSTED_MODEL } from '../../src/model/decision-tree.js';
import type { ModelFile } from '../../src/model/schema.js';

const dir = mkdtempSync(join(tmpdir(), 'grove-model-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tree = () => fit(datasetFromRows([[1], [2], [3], [4]], { labels: ['a', 'a', 'b', 'b'] }), { prune: 'none' });

describe('saveModel', () => {
  it('writes a model loadModel reads back', () => {
    const path = join(dir, 'ok.json');
    const t = tree();
    saveModel(t, path);
    expect(loadModel(path).toJSON()).toEqual(t.toJSON());
  });

  it('refuses, and writes nothing, a model whose counts loadModel would refuse', () => {
    const model = tree().toJSON() as ModelFile;
    model.nodes[1].counts[1] = -4.4e-16;
    const bad = new DecisionTree(model, TRUSTED_MODEL);
    const path = join(dir, 'bad.json');
    expect(() => saveModel(bad, path)).toThrow(/fails grove's own check.*nodes\.1\.counts\.1/);
    expect(existsSync(path)).toBe(false);
  });
});

describe('loadModel: hand-edited files', () => {
  it('a UTF-8 byte order mark (as editors write one) is read past', () => {
    const path = join(dir, 'bom.json');
    const t = tree();
    writeFileSync(path, `\uFEFF${JSON.stringify(t.toJSON())}\n`);
    expect(loadModel(path).toJSON()).toEqual(t.toJSON());
  });

  it('duplicate class labels (also 1 and "1") and duplicate categories are refused, naming the entry', () => {
    const model = tree().toJSON() as ModelFile;
    const dup = join(dir, 'dup.json');
    for (const [classes, at] of [
      [['a', 'a'], 1],
      [[1, '1'], 1],
      [['x', 'y', 'z', 'x'], 3],
    ] as const) {
      const counts = classes.map(() => 1);
      const edited = { ...model, classes, nodes: model.nodes.map((n) => ({ ...n, counts })) };
      writeFileSync(dup, JSON.stringify(edited));
      expect(() => loadModel(dup)).toThrow(
        new RegExp(`corrupt grove model: classes\\.${at}: duplicate class label "${String(classes[at])}"`),
      );
    }
    const cats = fit(datasetFromRows([['r'], ['s'], ['r'], ['s']], { labels: ['a', 'b', 'a', 'b'] }), {
      prune: 'none',
    }).toJSON() as ModelFile;
    cats.features[0].categories = ['r', 'r'];
    writeFileSync(dup, JSON.stringify(cats));
    expect(() => loadModel(dup)).toThrow(/features\.0\.categories\.1: duplicate category "r"/);
  });
});
