/**
 * Reading and writing the benchmark's binary cache format (see bench/synthetic.mjs for the
 * layout): load a part as typed arrays, wrap it as a grove Dataset without copying, turn a CSV
 * of ../shared/datasets into the same format (seeded 80/20 split), write ARFF for Weka and row
 * arrays for the JS peers.
 */
import {
  closeSync,
  createWriteStream,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { FORMAT, mulberry32, writeTyped } from '../synthetic.mjs';

export function readHeader(dir) {
  const h = JSON.parse(readFileSync(join(dir, 'header.json'), 'utf8'));
  if (h.format !== FORMAT) throw new Error(`${dir}: header format ${h.format}, expected ${FORMAT}`);
  return h;
}

/** Read a whole binary file into a fresh ArrayBuffer (8-byte aligned, so typed views are free). */
function readBytes(path) {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const buf = new ArrayBuffer(size);
    const u8 = new Uint8Array(buf);
    let off = 0;
    while (off < size) {
      const got = readSync(fd, u8, off, Math.min(1 << 26, size - off), off);
      if (got <= 0) throw new Error(`${path}: short read at ${off} of ${size}`);
      off += got;
    }
    return buf;
  } finally {
    closeSync(fd);
  }
}

/** A column-major float64 file as one Float32Array, converted a column at a time. */
function readFloat32(path, rows, cols) {
  const out = new Float32Array(rows * cols);
  const column = new Float64Array(rows);
  const bytes = new Uint8Array(column.buffer);
  const fd = openSync(path, 'r');
  try {
    if (fstatSync(fd).size !== rows * cols * 8) throw new Error(`${path}: expected ${rows * cols * 8} bytes`);
    for (let j = 0; j < cols; j++) {
      let off = 0;
      while (off < bytes.length) {
        const got = readSync(fd, bytes, off, bytes.length - off, j * bytes.length + off);
        if (got <= 0) throw new Error(`${path}: short read in column ${j}`);
        off += got;
      }
      out.set(column, j * rows);
    }
  } finally {
    closeSync(fd);
  }
  return out;
}

/**
 * One part ('train' | 'test'): X column-major Float64Array (rows * columns), y Int32Array.
 * With `float32`, X is a Float32Array read one column at a time (never the whole float64 file in
 * memory, so a memory measurement sees only the float32 data).
 */
export function loadPart(dir, part, header = readHeader(dir), { float32 = false } = {}) {
  const rows = part === 'train' ? header.nTrain : header.nTest;
  const X = float32
    ? readFloat32(join(dir, `${part}.X.f64`), rows, header.features.length)
    : new Float64Array(readBytes(join(dir, `${part}.X.f64`)));
  const y = new Int32Array(readBytes(join(dir, `${part}.y.i32`)));
  if (X.length !== rows * header.features.length || y.length !== rows) {
    throw new Error(
      `${dir}/${part}: expected ${rows} rows x ${header.features.length} columns, got ${X.length} values and ${y.length} labels`,
    );
  }
  return { header, rows, X, y };
}

/**
 * A grove Dataset over the loaded arrays: numeric columns are Float64Array views into X (no
 * copy); categorical columns get an Int32Array of codes (-1 = missing).
 */
export function toGroveDataset({ header, rows, X, y }) {
  const features = header.features.map((f, j) => {
    const col = X.subarray(j * rows, (j + 1) * rows);
    if (f.kind === 'numeric') return { kind: 'numeric', name: f.name, values: col };
    const codes = new Int32Array(rows);
    for (let i = 0; i < rows; i++) codes[i] = Number.isNaN(col[i]) ? -1 : col[i];
    return { kind: 'categorical', name: f.name, codes, categories: f.categories.slice() };
  });
  return {
    features,
    labels: y,
    classes: header.classes.slice(),
    targetName: header.targetName,
    nRows: rows,
    source: `${header.name}/${rows === header.nTrain ? 'train' : 'test'}`,
  };
}

/** Row arrays (number[][]) for ml-cart / scikitjs; categorical NaN -> -1; numeric NaN stays NaN. */
export function toRowArrays({ header, rows, X, y }) {
  const d = header.features.length;
  const out = new Array(rows);
  for (let i = 0; i < rows; i++) {
    const r = new Array(d);
    for (let j = 0; j < d; j++) {
      const v = X[j * rows + i];
      r[j] = Number.isNaN(v) && header.features[j].kind === 'categorical' ? -1 : v;
    }
    out[i] = r;
  }
  return { X: out, y: Array.from(y) };
}

export function hasNumericNaN({ header, rows, X }) {
  for (let j = 0; j < header.features.length; j++) {
    if (header.features[j].kind !== 'numeric') continue;
    for (let i = j * rows, e = (j + 1) * rows; i < e; i++) if (X[i] !== X[i]) return true;
  }
  return false;
}

/**
 * A CSV of the data dir as a cached binary data set: grove's reader (dist) parses and codes it
 * (categorical columns, missing values), a seeded shuffle puts 80% of the rows in train and
 * 20% in test.
 */
export async function ensureRealSplit(name, dataDir, cacheDir, seed, readDataset, log = () => {}) {
  const dir = join(cacheDir, `real-${name}-s${seed}`);
  if (existsSync(join(dir, 'header.json'))) {
    const h = JSON.parse(readFileSync(join(dir, 'header.json'), 'utf8'));
    if (h.format === FORMAT) return dir;
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const csv = join(dataDir, `${name}.csv`);
  const data = await readDataset(csv);
  const n = data.nRows;
  const order = Array.from({ length: n }, (_, i) => i);
  const random = mulberry32(seed);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const nTest = Math.round(n * 0.2);
  const nTrain = n - nTest;
  const parts = { train: order.slice(0, nTrain), test: order.slice(nTrain) };
  const d = data.features.length;
  for (const [part, rowsIdx] of Object.entries(parts)) {
    const rows = rowsIdx.length;
    const X = new Float64Array(rows * d);
    const y = new Int32Array(rows);
    data.features.forEach((c, j) => {
      for (let i = 0; i < rows; i++) {
        const r = rowsIdx[i];
        X[j * rows + i] = c.kind === 'numeric' ? c.values[r] : c.codes[r] < 0 ? NaN : c.codes[r];
      }
    });
    for (let i = 0; i < rows; i++) y[i] = data.labels[rowsIdx[i]];
    writeTyped(join(dir, `${part}.X.f64`), X);
    writeTyped(join(dir, `${part}.y.i32`), y);
  }
  let missing = false;
  for (const c of data.features) {
    if (c.kind === 'numeric' ? c.values.some((v) => Number.isNaN(v)) : c.codes.some((v) => v < 0)) missing = true;
  }
  const header = {
    format: FORMAT,
    layout: 'column-major',
    xDtype: 'float64-le',
    yDtype: 'int32-le',
    name,
    source: csv,
    nTrain,
    nTest,
    features: data.features.map((c) =>
      c.kind === 'numeric'
        ? { name: c.name, kind: 'numeric' }
        : { name: c.name, kind: 'categorical', categories: c.categories.slice() },
    ),
    classes: data.classes.slice(),
    targetName: data.targetName,
    hasMissing: missing,
    spec: { csv, seed, split: 'seeded shuffle (mulberry32), 80% train / 20% test' },
  };
  writeFileSync(join(dir, 'header.json.tmp'), `${JSON.stringify(header, null, 2)}\n`);
  renameSync(join(dir, 'header.json.tmp'), join(dir, 'header.json'));
  log(`prepared ${name}: ${nTrain} train + ${nTest} test rows x ${d} columns -> ${dir}`);
  return dir;
}

function arffQuote(s) {
  const str = String(s);
  return /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(str) ? str : `'${str.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** Write `<dir>/<part>.arff` (once) for Weka: numeric / nominal attributes, `?` = missing, class nominal. */
export async function ensureArff(dir, part) {
  const path = join(dir, `${part}.arff`);
  if (existsSync(path)) return path;
  const { header, rows, X, y } = loadPart(dir, part);
  const d = header.features.length;
  const tmp = `${path}.tmp`;
  const out = createWriteStream(tmp);
  const write = (s) => (out.write(s) ? Promise.resolve() : new Promise((r) => out.once('drain', r)));
  let text = `@relation ${arffQuote(header.name)}\n\n`;
  for (const f of header.features) {
    text +=
      f.kind === 'numeric'
        ? `@attribute ${arffQuote(f.name)} numeric\n`
        : `@attribute ${arffQuote(f.name)} {${f.categories.map(arffQuote).join(',')}}\n`;
  }
  text += `@attribute class {${header.classes.map((_, c) => `k${c}`).join(',')}}\n\n@data\n`;
  await write(text);
  const cats = header.features.map((f) => (f.kind === 'categorical' ? f.categories.map(arffQuote) : null));
  let buf = '';
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < d; j++) {
      const v = X[j * rows + i];
      buf += Number.isNaN(v) ? '?' : cats[j] ? cats[j][v] : String(v);
      buf += ',';
    }
    buf += `k${y[i]}\n`;
    if (buf.length > 1 << 20) {
      await write(buf);
      buf = '';
    }
  }
  await write(buf);
  await new Promise((res, rej) => out.end((e) => (e ? rej(e) : res())));
  renameSync(tmp, path);
  return path;
}

/** Float32 size of a part's feature matrix (the memory target's yardstick). */
export function float32Bytes(header, part = 'train') {
  return (part === 'train' ? header.nTrain : header.nTest) * header.features.length * 4;
}

/** VmRSS / VmHWM of this process in bytes (Linux), or null. */
export function procMemory() {
  try {
    const s = readFileSync('/proc/self/status', 'utf8');
    const kb = (k) => {
      const m = s.match(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm'));
      return m ? Number(m[1]) * 1024 : null;
    };
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return { rss: null, hwm: null };
  }
}
