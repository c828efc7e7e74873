import { createHash, type Hash } from 'node:crypto';
import type { Dataset } from '../data/dataset.js';

function update(hash: Hash, text: string): void {
  hash.update(`${text.length}:${text}`);
}

function updateArray(hash: Hash, a: ArrayBufferView): void {
  hash.update(`${a.byteLength}:`);
  hash.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
}

/**
 * SHA-256 (hex) of a Dataset's content: its columns' names, kinds, values and dictionaries, the
 * target's name, classes and labels, the weights. The same data read from a CSV or a Parquet file
 * (or the same file moved or renamed) hash alike; any change to a value does not. Every piece is
 * length-prefixed, so no two different data sets give the same stream of bytes.
 */
export function datasetHash(data: Dataset): string {
  const hash = createHash('sha256');
  update(hash, 'grove-dataset/1');
  update(hash, String(data.nRows));
  for (const f of data.features) {
    update(hash, f.kind);
    update(hash, f.name);
    if (f.kind === 'numeric') {
      update(hash, f.values instanceof Float32Array ? 'f32' : 'f64');
      updateArray(hash, f.values);
    } else {
      update(hash, JSON.stringify(f.categories));
      updateArray(hash, f.codes);
    }
  }
  update(hash, data.targetName);
  update(hash, JSON.stringify(data.classes));
  updateArray(hash, data.labels);
  if (data.weights) updateArray(hash, data.weights);
  return hash.digest('hex');
}
