import { type ArrayMaker, plainArrays } from '../core/arrays.js';

/**
 * Training entries: a row of the data with a label and a weight. Normally entry i is row i; under
 * C4.5's fractional missing-value policy a row with a missing value is cloned into every branch
 * with a share of its weight, so the pool grows (doubling its capacity). Node slices hold entry ids.
 */
export class EntryPool {
  row: Int32Array;
  label: Int32Array;
  weight: Float64Array;
  size: number;

  /** Entry i = row i with its label and weight; `make` allocates the arrays (shared memory for worker threads). */
  constructor(labels: Int32Array, weights: Float64Array, make: ArrayMaker = plainArrays) {
    const n = labels.length;
    this.size = n;
    this.row = make.int32(n);
    for (let i = 0; i < n; i++) this.row[i] = i;
    this.label = make.int32(n);
    this.label.set(labels);
    this.weight = make.float64(n);
    this.weight.set(weights);
  }

  /** A pool over existing arrays (a worker thread's view of the main thread's shared pool). */
  static over(row: Int32Array, label: Int32Array, weight: Float64Array): EntryPool {
    const pool = Object.create(EntryPool.prototype) as EntryPool;
    pool.row = row;
    pool.label = label;
    pool.weight = weight;
    pool.size = row.length;
    return pool;
  }

  /** Append a copy of entry `e` with weight `w`; returns the new id. Arrays may be reallocated. */
  clone(e: number, w: number): number {
    if (this.size === this.row.length) this.grow();
    const id = this.size++;
    this.row[id] = this.row[e];
    this.label[id] = this.label[e];
    this.weight[id] = w;
    return id;
  }

  private grow(): void {
    const cap = Math.max(16, this.row.length * 2);
    const row = new Int32Array(cap);
    row.set(this.row);
    const label = new Int32Array(cap);
    label.set(this.label);
    const weight = new Float64Array(cap);
    weight.set(this.weight);
    this.row = row;
    this.label = label;
    this.weight = weight;
  }
}
