/**
 * The forest model file: a forest round-trips bit for bit (same predictions, same trees), and a
 * damaged, truncated or foreign file is refused with one GroveError line naming the file.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fitForest } from '../../src/ensemble/fit-forest.js';
import { decodeForest, encodeForest } from '../../src/ensemble/forest-file.js';
import { fit, GroveError } from '../../src/index.js';
import { loadAnyModel, loadForest, loadModel, saveModel } from '../../src/io/model-file.js';
import { synthetic } from './synthetic.js';

const dir = mkdtempSync(join(tmpdir(), 'grove-forest-file-'));
const data = synthetic(200, 3);

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(GroveError);
    const message = (e as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('not refused');
}

describe('forest model file', () => {
  it.each(['random-forest', 'extra-trees', 'random-subspace'] as const)('a %s forest round-trips', (kind) => {
    const forest = fitForest(data, { forest: kind, trees: 6, criterion: 'dcsm', categoricalSplit: 'multiway' });
    const back = decodeForest(encodeForest(forest));
    expect(back.trees.map((t) => t.nodes)).toEqual(forest.trees.map((t) => t.nodes));
    expect(back.trees.map((t) => t.options)).toEqual(forest.trees.map((t) => t.options));
    expect(back.settings).toEqual(forest.settings);
    expect(Array.from(back.predictProbaFlat(data))).toEqual(Array.from(forest.predictProbaFlat(data)));
    expect(back.featureImportances()).toEqual(forest.featureImportances());
  });

  it('saveModel and loadAnyModel read and write forests and trees; each loader refuses the other', () => {
    const forest = fitForest(data, { trees: 4, oobScore: true });
    const forestPath = join(dir, 'f.grove');
    saveModel(forest, forestPath);
    const loaded = loadAnyModel(forestPath);
    expect(loaded.constructor.name).toBe('Forest');
    expect(loadForest(forestPath).oob?.score).toBe(forest.oob?.score);
    expect(refusal(() => loadModel(forestPath))).toMatch(/f\.grove.*forest model; a single tree is needed/);
    const treePath = join(dir, 't.json');
    saveModel(fit(data), treePath);
    expect(refusal(() => loadForest(treePath))).toMatch(/single-tree model; a forest is needed/);
  });

  it('refuses truncated and damaged files, naming the file', () => {
    const bytes = encodeForest(fitForest(data, { trees: 3 }));
    const path = join(dir, 'bad.grove');
    for (const cut of [4, 12, 20, 200, bytes.length - 8, bytes.length - 1]) {
      writeFileSync(path, bytes.subarray(0, cut));
      expect(refusal(() => loadAnyModel(path))).toMatch(
        /bad\.grove.*(not a valid grove forest file|not a grove model)/,
      );
    }
    for (const at of [9, 14, 40, 300, bytes.length - 3]) {
      const damaged = bytes.slice();
      damaged[at] ^= 0x55;
      writeFileSync(path, damaged);
      expect(refusal(() => loadAnyModel(path))).toMatch(/bad\.grove.*not a valid grove forest file/);
    }
    writeFileSync(path, Buffer.concat([bytes, Buffer.from([0, 0, 0, 0, 0, 0, 0, 0])]));
    expect(refusal(() => loadAnyModel(path))).toMatch(/not a valid grove forest file/);
    expect(readFileSync(path).length).toBe(bytes.length + 8);
  });
});
