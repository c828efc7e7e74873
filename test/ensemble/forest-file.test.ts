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
import { datasetFromRows, fit, GroveError } from '../../src/index.js';
import { loadAnyModel, loadForest, loadModel, saveModel } from '../../src/io/model-file.js';
import { craftedDamage, reChecksum, sectionsOf } from './forest-bytes.js';
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
    expect(readFileSync(forestPath).equals(Buffer.from(encodeForest(forest)))).toBe(true); // written in parts
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

  it('writes a forest held as grown stores as it writes the same trees as node objects', () => {
    const many = datasetFromRows(
      Array.from({ length: 300 }, (_, i) => ({
        a: (i * 7) % 50,
        b: i % 9,
        c: ['p', 'q', 'r'][i % 3],
        y: `k${i % 40}`,
      })),
      { target: 'y' },
    );
    const cases = [
      fitForest(data, { trees: 4, seed: 3 }),
      fitForest(data, { forest: 'random-subspace', trees: 4, categoricalSplit: 'multiway', missing: 'learned' }),
      fitForest(data, { forest: 'extra-trees', trees: 4, categoricalSplit: 'binary' }),
      fitForest(many, { trees: 3, seed: 2 }), // 40 classes: sparse class counts in the stores
    ];
    for (const forest of cases) {
      expect(forest.trees.every((t) => !Array.isArray(t.grown()))).toBe(true);
      const fromStores = encodeForest(forest);
      for (const t of forest.trees) void t.nodes; // now held as node objects
      expect(forest.trees.every((t) => Array.isArray(t.grown()))).toBe(true);
      expect(Buffer.from(fromStores).equals(Buffer.from(encodeForest(forest)))).toBe(true);
    }
  });

  it('C-MBSV (k-NN regions) and fractional missing-value forests round-trip', () => {
    const numeric = synthetic(150, 8);
    const cmbsv = fitForest(numeric, { algorithm: 'cmbsv', forest: 'bagging', trees: 3, unclassified: 'knn' });
    expect(cmbsv.trees.slice(1).some((t) => t.nodes.some((n) => n.knn))).toBe(true);
    const holes = datasetFromRows(
      Array.from({ length: 120 }, (_, i) => ({
        a: i % 7 === 0 ? null : (i * 37) % 11,
        b: i % 3,
        y: i % 2 ? 'p' : 'q',
      })),
      { target: 'y' },
    );
    const fractional = fitForest(holes, { trees: 3, missing: 'fractional', forest: 'bagging' });
    for (const [forest, rows] of [
      [cmbsv, numeric],
      [fractional, holes],
    ] as const) {
      const back = decodeForest(encodeForest(forest));
      expect(back.trees.map((t) => t.nodes)).toEqual(forest.trees.map((t) => t.nodes));
      expect(Array.from(back.predictProbaFlat(rows))).toEqual(Array.from(forest.predictProbaFlat(rows)));
      // Saving checks each tree read back from the written file (its k-NN regions by its own ids).
      const path = join(dir, 'regions.grove');
      saveModel(forest, path);
      expect(readFileSync(path).equals(Buffer.from(encodeForest(forest)))).toBe(true);
    }
  });

  it('stores sections in their narrowest exact type and split nodes’ sums only once', () => {
    const forest = fitForest(data, { trees: 5 });
    const bytes = encodeForest(forest);
    const { header } = sectionsOf(bytes);
    expect(header.version).toBe(2);
    expect(header.sums).toBe(true);
    const type = (name: string) => header.sections.find((s) => s.name === name)!.type;
    expect(type('feature')).toBe('u8');
    expect(type('kind')).toBe('u8');
    expect(type('counts')).toBe('u8');
    expect(type('params')).toBe('f64'); // thresholds stay exact doubles
    expect(header.sections.find((s) => s.name === 'leafScore')!.length).toBe(0);
    expect(JSON.stringify(decodeForest(bytes).toJSON())).toBe(JSON.stringify(forest.toJSON()));
  });

  it('refuses a file whose checksum holds but whose nodes do not make trees', () => {
    const bytes = encodeForest(fitForest(data, { trees: 3 }));
    for (const [name, copy, pattern] of craftedDamage(bytes)) {
      expect(
        refusal(() => decodeForest(copy, 'crafted.grove')),
        name,
      ).toMatch(pattern);
    }
    const old = bytes.slice();
    const text = new TextDecoder().decode(old.subarray(16, 16 + new DataView(old.buffer).getUint32(8, true)));
    old.set(new TextEncoder().encode(text.replace('"version":2', '"version":1')), 16);
    reChecksum(old);
    expect(refusal(() => decodeForest(old, 'old.grove'))).toMatch(
      /unsupported version 1 \(this grove reads version 2\)/,
    );
  });
});
