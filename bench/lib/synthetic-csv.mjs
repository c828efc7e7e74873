/**
 * The training rows of bench/synthetic.mjs's seeded set as a CSV file: x0..x{d-1}, class (integer
 * codes), every value in its shortest round-trip text (what pandas' to_csv writes). The benchmarks
 * that time a whole process (reading included) read this file.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ensureSynthetic } from '../synthetic.mjs';

/** Write `file` from the set { n: rows, features, classes }, generated in `cacheDir` (removed after). */
export function writeSyntheticCsv(file, { rows, features, classes }, cacheDir, log = () => {}) {
  const dir = ensureSynthetic({ n: rows, features, classes }, cacheDir, log);
  const read = (name) => readFileSync(join(dir, name));
  const xBytes = read('train.X.f64');
  const X = new Float64Array(xBytes.buffer, xBytes.byteOffset, xBytes.byteLength / 8);
  const yBytes = read('train.y.i32');
  const y = new Int32Array(yBytes.buffer, yBytes.byteOffset, yBytes.byteLength / 4);
  const fd = openSync(file, 'w');
  const header = Array.from({ length: features }, (_, j) => `x${j}`);
  writeSync(fd, `${[...header, 'class'].join(',')}\n`);
  let out = '';
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < features; j++) out += `${String(X[j * rows + i])},`;
    out += `${y[i]}\n`;
    if (out.length > 1 << 20) {
      writeSync(fd, out);
      out = '';
    }
  }
  writeSync(fd, out);
  closeSync(fd);
  rmSync(cacheDir, { recursive: true, force: true });
}
