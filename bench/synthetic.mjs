#!/usr/bin/env node
/**
 * Seeded synthetic classification data for bench/run.mjs, and the binary cache format that every
 * system in the benchmark reads (grove through bench/lib/data.mjs, scikit-learn through
 * numpy.fromfile in bench/child_sklearn.py, ml-cart/scikitjs from the same arrays, Weka from an
 * ARFF file written from them).
 *
 *   node bench/synthetic.mjs --n 100000 --features 20 --classes 2 [--informative 8]
 *        [--categorical 0] [--levels 8] [--missing 0] [--flip 0.05] [--seed 1] [--cache /tmp/grove-bench]
 *
 * prints the folder it wrote (or found already written).
 *
 * Cache folder layout (one folder per data set, `<cache>/<key>/`):
 *   header.json      format, row counts, feature names/kinds/categories, classes, generator spec
 *   train.X.f64      float64 little-endian, COLUMN-MAJOR: feature 0's nTrain values, then feature 1's, ...
 *   train.y.i32      int32 little-endian class codes 0..k-1, nTrain values
 *   test.X.f64       the same for the nTest test rows
 *   test.y.i32
 *   {train,test}.arff   written on demand for Weka (bench/lib/data.mjs ensureArff)
 * Categorical features are stored in X as their category code (0, 1, ...) as a float64; a
 * missing value is NaN in either kind of column. header.json is written last: a folder without it
 * is incomplete and is regenerated.
 *
 * The generator (n training rows plus ceil(n / 4) test rows, i.e. an 80/20 split of
 * 1.25 n rows drawn i.i.d. from one seeded stream):
 *   - class c uniform in 0..k-1; each class has `clusters` (default 2) Gaussian clusters, the
 *     row picks one uniformly;
 *   - `informative` features: the cluster's centroid (drawn once, uniform in [-sep, sep], sep 1.5)
 *     plus N(0, 1) noise; the remaining numeric features are pure N(0, 1) noise;
 *   - `categorical` extra columns with `levels` categories: with probability 0.5 the code is a
 *     function of (class, cluster, column), otherwise uniform;
 *   - label noise: with probability `flip` the class is replaced by a uniform class (so an
 *     unlimited-depth tree keeps growing to isolate the flipped rows, as on real data);
 *   - `missing`: every feature cell independently NaN with this probability.
 * All numeric values are continuous (all distinct): the costly case for exact split search.
 * PRNG: mulberry32 (the same 10 lines as src/core/random.ts), Gaussians by Box-Muller.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEFAULT_CACHE = '/tmp/grove-bench';
export const FORMAT = 'grove-bench-v1';

/** mulberry32: a small, fast, seedable PRNG. Returns [0, 1). (Copy of src/core/random.ts.) */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal draws from a uniform generator (Box-Muller, both values used). */
function gaussian(random) {
  let spare = NaN;
  return () => {
    if (!Number.isNaN(spare)) {
      const s = spare;
      spare = NaN;
      return s;
    }
    let u = random();
    while (u <= 1e-300) u = random();
    const v = random();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
}

/** Fill in defaults; the result fully determines the data (and its cache key). */
export function syntheticSpec(s) {
  const features = s.features ?? 20;
  const spec = {
    n: s.n,
    features,
    classes: s.classes ?? 2,
    informative: s.informative ?? Math.max(2, Math.round(features * 0.4)),
    clusters: s.clusters ?? 2,
    sep: s.sep ?? 1.5,
    flip: s.flip ?? 0.05,
    categorical: s.categorical ?? 0,
    levels: s.levels ?? 8,
    missing: s.missing ?? 0,
    seed: s.seed ?? 1,
  };
  if (!(Number.isInteger(spec.n) && spec.n >= 10)) throw new Error(`n must be an integer >= 10, got ${s.n}`);
  if (spec.informative > spec.features)
    throw new Error(`informative (${spec.informative}) > features (${spec.features})`);
  if (spec.classes < 2) throw new Error('classes must be >= 2');
  return spec;
}

export function syntheticKey(spec) {
  let key = `syn-n${spec.n}-f${spec.features}-k${spec.classes}-i${spec.informative}-s${spec.seed}`;
  if (spec.clusters !== 2 || spec.sep !== 1.5 || spec.flip !== 0.05)
    key += `-c${spec.clusters}-sep${spec.sep}-flip${spec.flip}`;
  if (spec.categorical > 0) key += `-cat${spec.categorical}x${spec.levels}`;
  if (spec.missing > 0) key += `-miss${spec.missing}`;
  return key;
}

/** Short human name: n10k-f20-k2 (+ -cat4-miss0.05). */
export function syntheticLabel(spec) {
  const n =
    spec.n >= 1e6 && spec.n % 1e6 === 0
      ? `${spec.n / 1e6}M`
      : spec.n >= 1e3 && spec.n % 1e3 === 0
        ? `${spec.n / 1e3}k`
        : String(spec.n);
  let label = `syn-${n}-f${spec.features}-k${spec.classes}`;
  if (spec.categorical > 0) label += `-cat${spec.categorical}`;
  if (spec.missing > 0) label += `-miss${spec.missing}`;
  return label;
}

function writeAtomic(path, data) {
  writeFileSync(`${path}.tmp`, data);
  renameSync(`${path}.tmp`, path);
}

/** Write a typed array's bytes (little-endian on every platform Node runs the bench on). */
export function writeTyped(path, arr) {
  const fd = openSync(`${path}.tmp`, 'w');
  const bytes = new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength);
  const chunk = 1 << 26;
  for (let off = 0; off < bytes.length; off += chunk) writeSync(fd, bytes, off, Math.min(chunk, bytes.length - off));
  closeSync(fd);
  renameSync(`${path}.tmp`, path);
}

/**
 * Generate (or find in the cache) the data set of `spec`. Returns the folder.
 * `log` gets one progress line when data are generated.
 */
export function ensureSynthetic(specIn, cacheDir = DEFAULT_CACHE, log = () => {}) {
  const spec = syntheticSpec(specIn);
  const dir = join(cacheDir, syntheticKey(spec));
  if (existsSync(join(dir, 'header.json'))) {
    const h = JSON.parse(readFileSync(join(dir, 'header.json'), 'utf8'));
    if (h.format === FORMAT) return dir;
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const t0 = performance.now();
  const random = mulberry32(spec.seed);
  const normal = gaussian(random);
  const { features: d, classes: k, informative, clusters, sep, flip, categorical, levels, missing } = spec;
  const nNum = d;
  const nCols = d + categorical;
  // Centroids: [class][cluster][informative feature].
  const centroids = new Float64Array(k * clusters * informative);
  for (let i = 0; i < centroids.length; i++) centroids[i] = (2 * random() - 1) * sep;
  // Which numeric columns are informative: spread them over the column order (every
  // d/informative-th column), so "the first features" are not all informative.
  const informativeIndex = new Int32Array(nNum).fill(-1);
  for (let j = 0; j < informative; j++) informativeIndex[Math.floor((j * nNum) / informative)] = j;
  const nTest = Math.ceil(spec.n / 4);
  const parts = [
    ['train', spec.n],
    ['test', nTest],
  ];
  const counts = {};
  for (const [part, rows] of parts) {
    const X = new Float64Array(rows * nCols);
    const y = new Int32Array(rows);
    const classCount = new Array(k).fill(0);
    for (let i = 0; i < rows; i++) {
      const c = Math.min(k - 1, Math.floor(random() * k));
      const cl = Math.min(clusters - 1, Math.floor(random() * clusters));
      const base = (c * clusters + cl) * informative;
      for (let f = 0; f < nNum; f++) {
        const j = informativeIndex[f];
        X[f * rows + i] = (j >= 0 ? centroids[base + j] : 0) + normal();
      }
      for (let f = 0; f < categorical; f++) {
        const code =
          random() < 0.5 ? (c * 3 + cl + f * 5) % levels : Math.min(levels - 1, Math.floor(random() * levels));
        X[(nNum + f) * rows + i] = code;
      }
      let label = c;
      if (flip > 0 && random() < flip) label = Math.min(k - 1, Math.floor(random() * k));
      y[i] = label;
      classCount[label]++;
      if (missing > 0) {
        for (let f = 0; f < nCols; f++) if (random() < missing) X[f * rows + i] = NaN;
      }
    }
    writeTyped(join(dir, `${part}.X.f64`), X);
    writeTyped(join(dir, `${part}.y.i32`), y);
    counts[part] = classCount;
  }
  const featuresMeta = [];
  for (let f = 0; f < nNum; f++)
    featuresMeta.push({ name: `x${f}`, kind: 'numeric', informative: informativeIndex[f] >= 0 });
  for (let f = 0; f < categorical; f++) {
    featuresMeta.push({
      name: `c${f}`,
      kind: 'categorical',
      categories: Array.from({ length: levels }, (_, v) => `v${v}`),
    });
  }
  const header = {
    format: FORMAT,
    layout: 'column-major',
    xDtype: 'float64-le',
    yDtype: 'int32-le',
    name: syntheticLabel(spec),
    source: 'synthetic',
    nTrain: spec.n,
    nTest,
    features: featuresMeta,
    classes: Array.from({ length: k }, (_, c) => c),
    targetName: 'class',
    classCounts: counts,
    hasMissing: missing > 0,
    spec,
    generatedMs: performance.now() - t0,
  };
  writeAtomic(join(dir, 'header.json'), `${JSON.stringify(header, null, 2)}\n`);
  log(
    `generated ${header.name} (${spec.n} + ${nTest} rows x ${nCols} columns) in ${(header.generatedMs / 1000).toFixed(1)} s -> ${dir}`,
  );
  return dir;
}

// ---------------------------------------------------------------------------------------------
// CLI

function parseCli(argv) {
  const out = { cache: DEFAULT_CACHE };
  const num = (flag, v) => {
    const x = Number(String(v).replace(/k$/i, 'e3').replace(/M$/, 'e6'));
    if (!Number.isFinite(x)) throw new Error(`${flag}: not a number: ${v}`);
    return x;
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const v = argv[++i];
    if (v === undefined) throw new Error(`${flag} needs a value`);
    switch (flag) {
      case '--n':
        out.n = num(flag, v);
        break;
      case '--features':
        out.features = num(flag, v);
        break;
      case '--classes':
        out.classes = num(flag, v);
        break;
      case '--informative':
        out.informative = num(flag, v);
        break;
      case '--clusters':
        out.clusters = num(flag, v);
        break;
      case '--sep':
        out.sep = num(flag, v);
        break;
      case '--flip':
        out.flip = num(flag, v);
        break;
      case '--categorical':
        out.categorical = num(flag, v);
        break;
      case '--levels':
        out.levels = num(flag, v);
        break;
      case '--missing':
        out.missing = num(flag, v);
        break;
      case '--seed':
        out.seed = num(flag, v);
        break;
      case '--cache':
        out.cache = resolve(v);
        break;
      default:
        throw new Error(`unknown argument ${flag}`);
    }
  }
  if (out.n === undefined) throw new Error('--n is required');
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { cache, ...spec } = parseCli(process.argv.slice(2));
    console.log(ensureSynthetic(spec, cache, (m) => console.error(`synthetic: ${m}`)));
  } catch (e) {
    console.error(
      `synthetic.mjs: ${e.message}\nusage: node bench/synthetic.mjs --n 100000 [--features 20] [--classes 2] [--informative N] [--categorical 0] [--levels 8] [--missing 0] [--flip 0.05] [--seed 1] [--cache ${DEFAULT_CACHE}]`,
    );
    process.exit(2);
  }
}
