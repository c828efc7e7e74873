import { GroveError } from '../core/errors.js';
import { Mulberry32 } from '../core/random.js';
import type { MaxFeatures } from '../options/options.js';
import type { Candidate } from '../split/candidate.js';

/**
 * `maxFeatures` (scikit-learn's `max_features`): each node draws its features at random, without
 * replacement, and splits on the best of those it drew. The draws of a node come from its own
 * seed, which depends only on the fit's `seed` and the node's path from the root (`childSeed`),
 * never on the order nodes are grown in: so one thread, several threads and best-first growth
 * give the same tree, bit for bit.
 */

/**
 * Features a node draws among `d`: sqrt / log2 of d (rounded down), a count, or a fraction of d; 1 to d.
 * A count above `d` is refused, as scikit-learn refuses it: clamping would hide a mistaken setting.
 */
export function featureCount(maxFeatures: MaxFeatures | undefined, d: number): number {
  if (maxFeatures === undefined) return d;
  if (typeof maxFeatures === 'number' && Number.isInteger(maxFeatures) && maxFeatures > d)
    throw new GroveError(`maxFeatures (--max-features) is ${maxFeatures}, more than the data's ${d} features`, {
      code: 'E_OPTION',
    });
  const n =
    maxFeatures === 'sqrt'
      ? Math.floor(Math.sqrt(d))
      : maxFeatures === 'log2'
        ? Math.floor(Math.log2(d))
        : Number.isInteger(maxFeatures)
          ? maxFeatures
          : Math.floor(maxFeatures * d);
  return Math.min(d, Math.max(1, n));
}

/** A 32-bit mix (murmur3's finaliser): nearby inputs give unrelated outputs. */
function mix(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The root's draw seed for the fit's `seed`. */
export function rootSeed(seed: number): number {
  return mix(seed ^ 0x9e3779b9);
}

/** The draw seed of branch `b`'s child of a node with draw seed `seed`. */
export function childSeed(seed: number, b: number): number {
  return mix((seed + Math.imul(b + 1, 0x9e3779b9)) >>> 0);
}

/** Skips evaluation: the candidates are already filled (threads evaluated every feature). */
const EVALUATED = (_f: number): void => {};

/**
 * One grower's feature draws. As scikit-learn's splitter, a node draws features one at a time
 * until it has drawn `count`, and goes on drawing while none of those drawn offers a split (a
 * feature constant at the node, or whose every split leaves a branch under the leaf minimums);
 * it stops when every feature has been drawn.
 */
export class FeatureDraw {
  /** Features a node draws (the feature count when `maxFeatures` is unset: no draws). */
  readonly count: number;
  private readonly order: Int32Array;
  private readonly drawn: Candidate[] = [];
  /** The draws' generator, seeded again at each node. */
  private readonly random = new Mulberry32(0);

  constructor(
    readonly d: number,
    maxFeatures: MaxFeatures | undefined,
  ) {
    this.count = featureCount(maxFeatures, d);
    this.order = new Int32Array(d);
  }

  /** False when a node considers every feature. */
  get active(): boolean {
    return this.count < this.d;
  }

  /** The i-th feature drawn: a swap in `order` (Fisher–Yates, one step). */
  private next(i: number): number {
    const { order, d } = this;
    const j = i + Math.floor(this.random.next() * (d - i));
    const f = order[j];
    order[j] = order[i];
    order[i] = f;
    return f;
  }

  /**
   * The first `count` features a node with draw seed `seed` draws, the ones `draw` scans whatever
   * they offer, into `into` (so a grower can read their rows in one pass before `draw`).
   */
  first(seed: number, into: Int32Array): Int32Array {
    const { order, d, count } = this;
    for (let i = 0; i < d; i++) order[i] = i;
    this.random.seed(seed);
    for (let i = 0; i < count; i++) into[i] = this.next(i);
    return into.subarray(0, count);
  }

  /**
   * The candidates a node with draw seed `seed` chooses among, in the order drawn: `evaluate(f)`
   * fills `cands[f]` for each drawn feature (`null`: they are filled already).
   */
  draw(seed: number, cands: Candidate[], evaluate: ((f: number) => void) | null): Candidate[] {
    const { order, d, drawn } = this;
    const scan = evaluate ?? EVALUATED;
    for (let i = 0; i < d; i++) order[i] = i;
    this.random.seed(seed);
    if (drawn.length > 0) drawn.length = 0;
    for (let i = 0; i < d; i++) {
      const f = this.next(i);
      scan(f);
      if (cands[f].found) drawn.push(cands[f]);
      if (i + 1 >= this.count && drawn.length > 0) break;
    }
    return drawn;
  }
}
