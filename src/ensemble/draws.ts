import { mulberry32 } from '../core/random.js';

/**
 * A forest's random draws. Tree i draws only from generators seeded by (seed, i): its rows
 * (bootstrap), its feature subset (random subspaces) and, through the tree's own `seed`, its
 * per-node feature draws and random thresholds. So a tree never depends on the trees before it:
 * one or several threads, and a forest grown in steps (`warmStart`), give the same trees, and the
 * out-of-bag rows of a tree are known again from (seed, i) without being stored.
 */

/** A 32-bit mix (murmur3's finaliser). */
function mix(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Tree `i`'s seed from the forest's `seed`: its tree option `seed` and the root of its other draws. */
export function treeSeed(seed: number, i: number): number {
  return mix(mix(seed ^ 0x3c6ef372) + Math.imul(i + 1, 0x9e3779b9));
}

/** The generator of tree `i`'s rows and feature subset (apart from the tree's own node draws). */
function treeRandom(seed: number, i: number, stream: number): () => number {
  return mulberry32(mix(treeSeed(seed, i) ^ stream));
}

/**
 * How many times tree `i` draws each of `n` rows: `samples` draws with replacement, uniform over
 * the rows (scikit-learn's bootstrap, as sample weights). A row drawn 0 times is out of bag.
 */
export function bootstrapCounts(seed: number, i: number, n: number, samples: number): Int32Array {
  const random = treeRandom(seed, i, 0x6a09e667);
  const counts = new Int32Array(n);
  for (let s = 0; s < samples; s++) counts[Math.floor(random() * n)]++;
  return counts;
}

/** Tree `i`'s feature subset (random subspaces, Ho 1998): `count` of the `d` features, in column order. */
export function subspaceFeatures(seed: number, i: number, d: number, count: number): Int32Array {
  const random = treeRandom(seed, i, 0xbb67ae85);
  const order = Int32Array.from({ length: d }, (_, f) => f);
  for (let j = 0; j < count; j++) {
    const r = j + Math.floor(random() * (d - j));
    const f = order[r];
    order[r] = order[j];
    order[j] = f;
  }
  return order.slice(0, count).sort();
}
