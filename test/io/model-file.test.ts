import { existsSync, mkdtempSync, rmSync } from 'node:fs';
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
