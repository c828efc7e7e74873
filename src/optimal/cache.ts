import { mulberry32 } from '../core/random.js';
import type { Solution } from './solution.js';

/** One cached sub-problem: its row set's check values, and its optimal tree or a lower bound on its cost. */
interface Slot {
  readonly h2: number;
  readonly size: number;
  readonly depth: number;
  readonly budget: number;
  value: Solution | number;
}

/**
 * What one slot costs the process, resident: its Map entry and slot object and a share of its
 * solution (350–650 bytes of live heap, measured after forced collections on ionosphere and
 * credit-g), and the garbage V8 lets pile up beside the live heap between collections. credit-g
 * at depth 4 over 8 bins on 2 workers under a 512 MB limit: 348,608 entries at a peak of 503 MB
 * resident, about 1.2 KB each past the 100 MB the process held before them (docs/performance.md,
 * "Memory"); an uncapped main thread's heap takes more (1.6–2 KB), and the resident check stops it.
 */
export const SLOT_BYTES = 1200;

/**
 * Sub-problems already solved, keyed by (rows reaching the node, depth left, leaf budget). A row
 * set is identified by two independent sums of a random 32-bit value per row (Zobrist hashing):
 * order-independent, so the search updates a child's hash row by row while it sweeps a feature,
 * and checks the cache before it copies the child's rows out. Two different row sets of the same
 * size collide on both sums with probability about 2^-64 per pair — far below any other source
 * of error — and the key also holds the depth and budget.
 */
export class SubproblemCache {
  /** Random values per row for the two hashes. */
  readonly z1: Uint32Array;
  readonly z2: Uint32Array;
  private readonly map = new Map<number, Slot>();
  hits = 0;

  constructor(
    n: number,
    /** Most slots before the search must stop (the memory bound). */
    readonly maxSlots: number,
  ) {
    const random = mulberry32(0x5eed);
    this.z1 = new Uint32Array(n);
    this.z2 = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      this.z1[i] = Math.floor(random() * 4294967296);
      this.z2[i] = Math.floor(random() * 4294967296);
    }
  }

  get size(): number {
    return this.map.size;
  }

  /** The optimal tree or lower bound stored for the sub-problem, or undefined. */
  get(h1: number, h2: number, size: number, depth: number, budget: number): Solution | number | undefined {
    const slot = this.map.get(key(h1, h2, depth, budget));
    if (slot === undefined || slot.h2 !== h2 || slot.size !== size || slot.depth !== depth || slot.budget !== budget)
      return undefined;
    this.hits++;
    return slot.value;
  }

  /** The sub-problem's lower bound: its optimal cost when solved, else what is known (at least `floor`). */
  lowerBound(h1: number, h2: number, size: number, depth: number, budget: number, floor: number): number {
    const v = this.get(h1, h2, size, depth, budget);
    if (v === undefined) return floor;
    return Math.max(floor, typeof v === 'number' ? v : v.cost);
  }

  /** What is known of the sub-problem's cost (its optimum, or a lower bound), 0 if nothing; not counted as a hit. */
  peekBound(h1: number, h2: number, size: number, depth: number, budget: number): number {
    const slot = this.map.get(key(h1, h2, depth, budget));
    if (slot === undefined || slot.h2 !== h2 || slot.size !== size || slot.depth !== depth || slot.budget !== budget)
      return 0;
    return typeof slot.value === 'number' ? slot.value : slot.value.cost;
  }

  /** Store an optimal tree, or raise a lower bound. False when the cache is full (nothing stored). */
  put(h1: number, h2: number, size: number, depth: number, budget: number, value: Solution | number): boolean {
    const k = key(h1, h2, depth, budget);
    const slot = this.map.get(k);
    if (slot && slot.h2 === h2 && slot.size === size && slot.depth === depth && slot.budget === budget) {
      if (typeof value !== 'number') slot.value = value;
      else if (typeof slot.value === 'number') slot.value = Math.max(slot.value, value);
      return true;
    }
    if (this.map.size >= this.maxSlots) return false;
    this.map.set(k, { h2, size, depth, budget, value });
    return true;
  }
}

/** A 53-bit key: the first hash mixed with depth and budget, and 21 bits of the second. */
function key(h1: number, h2: number, depth: number, budget: number): number {
  const mixed = (h1 + Math.imul(depth, 0x9e3779b1) + Math.imul(budget, 0x85ebca77)) >>> 0;
  return mixed * 2097152 + (h2 & 0x1fffff);
}
