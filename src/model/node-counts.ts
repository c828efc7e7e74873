import { grown } from '../core/arrays.js';
/** `NodeCounts`' arrays, for posting between threads (a class instance loses its methods there). */
export interface NodeCountsData {
  classes: number;
  sparse: boolean;
  dense: Float64Array | Float32Array;
  start: Int32Array;
  len: Int32Array;
  cls: Int32Array;
  w: Float64Array;
  used: number;
}

/**
 * The class weights of a tree's nodes, by node id. Dense: `classes` weights per node. Sparse: per
 * node only the classes of weight > 0, in class order, as a run of (class, weight) pairs in two
 * pooled arrays (`cls`, `w`; the run of node `id` is `start[id]`, `len[id]` long). A deep tree over
 * many classes holds few of them per node, and dense it would weigh nodes × classes.
 *
 * Every reading (totals, majority, errors, the dense vector) gives the same numbers in both
 * layouts: the weights are added in class order, and the classes left out add only zeros.
 */
export class NodeCounts {
  /**
   * Dense layout: node `id`'s weights at [id × classes, (id + 1) × classes); empty when sparse.
   * Float32 only in a finished tree whose weights are all float32 values (`compact`).
   */
  dense: Float64Array | Float32Array;
  start: Int32Array;
  len: Int32Array;
  cls: Int32Array;
  w: Float64Array;
  /** Pool entries in use (sparse layout). */
  used = 0;

  constructor(
    readonly classes: number,
    readonly sparse: boolean,
    capacity: number,
  ) {
    this.dense = new Float64Array(sparse ? 0 : capacity * classes);
    this.start = new Int32Array(sparse ? capacity : 0);
    this.len = new Int32Array(sparse ? capacity : 0);
    this.cls = new Int32Array(sparse ? capacity : 0);
    this.w = new Float64Array(sparse ? capacity : 0);
  }

  static fromData(d: NodeCountsData): NodeCounts {
    const counts = new NodeCounts(d.classes, d.sparse, 0);
    Object.assign(counts, d);
    return counts;
  }

  /** The arrays for nodes [0, size), trimmed (copies). */
  data(size: number): NodeCountsData {
    const { classes, sparse } = this;
    return {
      classes,
      sparse,
      dense: this.dense.slice(0, sparse ? 0 : size * classes),
      start: this.start.slice(0, size),
      len: this.len.slice(0, size),
      cls: this.cls.slice(0, this.used),
      w: this.w.slice(0, this.used),
      used: this.used,
    };
  }

  /**
   * Trim to nodes [0, size), and hold the dense weights in float32 when every one of them is a
   * float32 value (integer counts up to 2^24 are), so that they read back the same.
   */
  compact(size: number): void {
    if (this.sparse) {
      if (this.start.length > size) this.start = this.start.slice(0, size);
      if (this.len.length > size) this.len = this.len.slice(0, size);
      if (this.cls.length > this.used) this.cls = this.cls.slice(0, this.used);
      if (this.w.length > this.used) this.w = this.w.slice(0, this.used);
      return;
    }
    const m = size * this.classes;
    const d = this.dense;
    let exact = d instanceof Float64Array;
    for (let i = 0; exact && i < m; i++) exact = Math.fround(d[i]) === d[i];
    if (exact) this.dense = Float32Array.from(d.subarray(0, m));
    else if (d.length > m) this.dense = d.slice(0, m);
  }

  /** Room for `capacity` nodes (the pool grows on its own). */
  resize(capacity: number): void {
    if (!this.sparse) this.dense = grown(this.dense, capacity * this.classes);
    else {
      this.start = grown(this.start, capacity);
      this.len = grown(this.len, capacity);
    }
  }

  /** Node `id` weighs nothing. */
  clear(id: number): void {
    if (this.sparse) this.len[id] = 0;
    else this.dense.fill(0, id * this.classes, (id + 1) * this.classes);
  }

  /** Node `id`'s weights are `totals` (one per class). */
  set(id: number, totals: ArrayLike<number>): void {
    const k = this.classes;
    if (!this.sparse) {
      const base = id * k;
      for (let c = 0; c < k; c++) this.dense[base + c] = totals[c];
      return;
    }
    let p = 0;
    for (let c = 0; c < k; c++) if (totals[c] !== 0) p++;
    const at = this.reserve(id, p);
    for (let c = 0, i = at; c < k; c++) {
      if (totals[c] === 0) continue;
      this.cls[i] = c;
      this.w[i++] = totals[c];
    }
  }

  /** Node `id` takes node `j` of `src`'s weights (either layout). */
  copy(id: number, src: NodeCounts, j: number): void {
    const k = this.classes;
    if (!src.sparse) {
      this.set(id, src.dense.subarray(j * k, (j + 1) * k));
      return;
    }
    const from = src.start[j];
    const p = src.len[j];
    if (!this.sparse) {
      this.clear(id);
      for (let i = from; i < from + p; i++) this.dense[id * k + src.cls[i]] = src.w[i];
      return;
    }
    const at = this.reserve(id, p);
    this.cls.set(src.cls.subarray(from, from + p), at);
    this.w.set(src.w.subarray(from, from + p), at);
  }

  /** Calls `visit(class, weight)` for each class of node `id` with weight ≠ 0, in class order. */
  forEach(id: number, visit: (c: number, w: number) => void): void {
    if (this.sparse) {
      const end = this.start[id] + this.len[id];
      for (let i = this.start[id]; i < end; i++) visit(this.cls[i], this.w[i]);
      return;
    }
    const k = this.classes;
    for (let c = 0; c < k; c++) {
      const w = this.dense[id * k + c];
      if (w !== 0) visit(c, w);
    }
  }

  /** Node `id`'s weights as a plain array, one per class (the model file's `counts`). */
  vector(id: number): number[] {
    const k = this.classes;
    if (!this.sparse) {
      const out: number[] = [];
      for (let c = id * k; c < (id + 1) * k; c++) out.push(this.dense[c]);
      return out;
    }
    const out = new Array<number>(k).fill(0);
    const end = this.start[id] + this.len[id];
    for (let i = this.start[id]; i < end; i++) out[this.cls[i]] = this.w[i];
    return out;
  }

  /** Sum of node `id`'s weights. */
  total(id: number): number {
    let s = 0;
    if (this.sparse) {
      const end = this.start[id] + this.len[id];
      for (let i = this.start[id]; i < end; i++) s += this.w[i];
    } else {
      const k = this.classes;
      for (let c = id * k; c < (id + 1) * k; c++) s += this.dense[c];
    }
    return s;
  }

  /** Node `id`'s largest class (ties: the lowest index; 0 when it weighs nothing), as `majorityClass`. */
  majority(id: number): number {
    if (!this.sparse) {
      const k = this.classes;
      let best = 0;
      for (let c = 1; c < k; c++) if (this.dense[id * k + c] > this.dense[id * k + best]) best = c;
      return best;
    }
    const end = this.start[id] + this.len[id];
    let best = 0;
    let max = 0;
    for (let i = this.start[id]; i < end; i++) {
      if (this.w[i] > max) {
        max = this.w[i];
        best = this.cls[i];
      }
    }
    return best;
  }

  /** Weighted errors of node `id` as a leaf: total − largest weight, as `leafErrors`. */
  leafErrors(id: number): number {
    let s = 0;
    let max = 0;
    const visit = (w: number) => {
      s += w;
      if (w > max) max = w;
    };
    if (this.sparse) {
      const end = this.start[id] + this.len[id];
      for (let i = this.start[id]; i < end; i++) visit(this.w[i]);
    } else {
      const k = this.classes;
      for (let c = id * k; c < (id + 1) * k; c++) visit(this.dense[c]);
    }
    return Math.max(0, s - max);
  }

  /**
   * Pool position for `p` entries of node `id`: its own run when they fit there (runs are never shared), else
   * the pool's end.
   */
  private reserve(id: number, p: number): number {
    const old = this.len[id];
    this.len[id] = p;
    if (p <= old) return this.start[id];
    if (this.used + p > this.cls.length) {
      const capacity = Math.max(2 * this.cls.length, this.used + p, 64);
      this.cls = grown(this.cls, capacity);
      this.w = grown(this.w, capacity);
    }
    this.start[id] = this.used;
    this.used += p;
    return this.start[id];
  }
}
