/**
 * Forest-file fuzz: valid forest files (numeric, categorical with subset splits, missing values,
 * C-MBSV) with bytes overwritten anywhere after the signature, the checksum then made to hold (so
 * the damage reaches the header's and the sections' checks, not only the checksum's). Property:
 * decodeForest refuses with a GroveError, or gives a forest whose every use (predict, probabilities,
 * statistics, importances, leaves, JSON) works or fails with a GroveError; never a TypeError, RangeError or hang.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GroveError } from '../../src/core/errors.js';
import { fitForest } from '../../src/ensemble/fit-forest.js';
import { decodeForest, encodeForest } from '../../src/ensemble/forest-file.js';
import { readDataset } from '../../src/sources/file-source.js';
import { fixture } from '../helpers/paths.js';
import { FUZZ_TIMEOUT, fuzzParams } from './config.js';

const tennis = await readDataset(fixture('play-tennis.csv'));
const income = await readDataset(fixture('taxable-income.csv'));
const FILES = [
  { bytes: encodeForest(fitForest(tennis, { trees: 3, seed: 1 })), data: tennis },
  { bytes: encodeForest(fitForest(tennis, { trees: 2, seed: 2, categoricalSplit: 'binary' })), data: tennis },
  { bytes: encodeForest(fitForest(income, { trees: 3, seed: 3 })), data: income },
  { bytes: encodeForest(fitForest(income, { trees: 2, seed: 4, algorithm: 'cmbsv' })), data: income },
];

/** The FNV-1a checksum the reader expects (over everything after the 16-byte prefix), written into bytes 12–15. */
function reChecksum(bytes: Uint8Array): void {
  let h = 0x811c9dc5;
  for (let i = 16; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  new DataView(bytes.buffer, bytes.byteOffset).setUint32(12, h >>> 0, true);
}

/** Run `f`; a thrown error must be a GroveError (returned as false), success is true. */
function groveOnly(f: () => unknown): boolean {
  try {
    f();
    return true;
  } catch (err) {
    if (!(err instanceof GroveError)) throw err;
    return false;
  }
}

/** Where an edit lands: the header's length (bytes 8–11), the JSON header, or the sections (most often). */
const REGIONS = ['length', 'header', 'header', ...Array<'sections'>(13).fill('sections')] as const;

/** The byte an edit at `at` in `region` overwrites in `bytes`. */
function placeOf(bytes: Uint8Array, region: (typeof REGIONS)[number], at: number): number {
  const headerEnd = 16 + new DataView(bytes.buffer, bytes.byteOffset).getUint32(8, true);
  if (region === 'length') return 8 + (at % 4);
  if (region === 'header') return 16 + (at % (headerEnd - 16));
  return headerEnd + (at % (bytes.length - headerEnd));
}

const damage = fc.record({
  file: fc.nat(FILES.length - 1),
  edits: fc.array(fc.tuple(fc.constantFrom(...REGIONS), fc.nat(), fc.integer({ min: 0, max: 255 })), {
    minLength: 1,
    maxLength: 4,
  }),
  // Cut short one time in eight.
  cut: fc.oneof({ arbitrary: fc.constant(undefined), weight: 7 }, { arbitrary: fc.nat(), weight: 1 }),
});

describe('forest file fuzz', () => {
  it(
    'damaged files are refused with a GroveError or read as a forest whose every use works',
    () => {
      fc.assert(
        fc.property(damage, ({ file, edits, cut }) => {
          const { bytes, data } = FILES[file];
          let copy = bytes.slice();
          // Bytes 12–15 hold the checksum, recomputed below.
          for (const [region, at, value] of edits) copy[placeOf(bytes, region, at)] = value;
          if (cut !== undefined) copy = copy.slice(0, 16 + (cut % (copy.length - 16)));
          reChecksum(copy);
          let forest: ReturnType<typeof decodeForest> | undefined;
          if (!groveOnly(() => (forest = decodeForest(copy, 'fuzzed.grove')))) return;
          const f = forest!;
          groveOnly(() => f.predict(data));
          groveOnly(() => f.predictProbaFlat(data));
          groveOnly(() => f.stats());
          groveOnly(() => f.featureImportances());
          groveOnly(() => f.apply(data));
          groveOnly(() => JSON.stringify(f.toJSON()));
        }),
        fuzzParams(300, 0.5),
      );
      expect(FILES.every((f) => decodeForest(f.bytes).trees.length > 0)).toBe(true);
    },
    FUZZ_TIMEOUT,
  );
});
