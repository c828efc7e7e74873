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

  constructor(labels: Int32Array, weights: Float64Array) {
    const n = labels.length;
    this.size = n;
    this.row = new Int32Array(n);
    for (let i = 0; i < n; i++) this.row[i] = i;
    this.label = labels.slice();
    this.weight = weights.slice();
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
