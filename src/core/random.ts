/** mulberry32: a small, fast, seedable PRNG (deterministic folds and shuffles). Returns [0, 1). */
export function mulberry32(seed: number): () => number {
  const g = new Mulberry32(seed);
  return () => g.next();
}

/**
 * `mulberry32`'s generator as an object that can be seeded again (`seed`): a caller that starts a
 * sequence at every tree node reuses one instead of making a closure per node.
 */
export class Mulberry32 {
  private a: number;

  constructor(seed: number) {
    this.a = seed >>> 0;
  }

  /** Start again from `seed`. */
  seed(seed: number): void {
    this.a = seed >>> 0;
  }

  /** The next number, in [0, 1). */
  next(): number {
    this.a = (this.a + 0x6d2b79f5) >>> 0;
    let t = this.a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}

/** Fisher–Yates shuffle in place with the given generator. */
export function shuffle<T>(a: T[], random: () => number): T[] {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}
