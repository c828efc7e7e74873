import { type ArrayMaker, plainArrays } from '../core/arrays.js';

/**
 * Scratch arrays reused by successive sorts (one feature after another), so that quantising a
 * large data set does not leave a column's worth of garbage per feature. The order returned by
 * `argsortNumeric(x, work)` lives in `work`: the next sort overwrites it. Its word arrays come from
 * `make`: shared ones when they are to become a threaded grower's row arrays (`takeInt32`).
 */
export class SortWork {
  private readonly ints: Int32Array[] = [];
  private readonly words: (Uint32Array | undefined)[] = [];
  private readonly doubles: Float64Array[] = [];

  constructor(private readonly make: ArrayMaker = plainArrays) {}

  f64(k: number, n: number): Float64Array {
    if (!(this.doubles[k]?.length >= n)) this.doubles[k] = new Float64Array(n);
    return this.doubles[k].subarray(0, n);
  }

  i32(k: number, n: number): Int32Array {
    if (!(this.ints[k]?.length >= n)) this.ints[k] = new Int32Array(n);
    return this.ints[k].subarray(0, n);
  }

  /**
   * Drop the arrays (later sorts allocate afresh), so that the garbage collector can take them
   * before a fit's growth allocates. (Detaching them at once, by transferring their buffers, would
   * free the memory sooner but makes V8 guard every typed-array access in the process from then
   * on, which slows every later fit and prediction; docs/performance.md, "Memory".)
   */
  release(): void {
    this.ints.length = 0;
    this.words.length = 0;
    this.doubles.length = 0;
  }

  /**
   * Word array `k` (n entries) as an Int32Array, which the work then drops, or a new array when it
   * has none: sort scratch handed on as a grower's row arrays, so that they take no new memory.
   */
  takeInt32(k: number, n: number): Int32Array {
    const w = this.words[k];
    if (!w || w.length < n) return this.make.int32(n);
    this.words[k] = undefined;
    return new Int32Array(w.buffer, w.byteOffset, n);
  }

  u32(k: number, n: number): Uint32Array {
    let w = this.words[k];
    if (!w || w.length < n) {
      const a = this.make.int32(n);
      w = this.words[k] = new Uint32Array(a.buffer, a.byteOffset, n);
    }
    return w.subarray(0, n);
  }
}
