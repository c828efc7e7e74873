/**
 * Reused working arrays of the column decoder, grown when a page needs more: one page's bytes and
 * values at a time (and the reader's column chunk buffers), so decoding allocates nothing per page.
 *
 * PURE: no Node imports.
 */

/** Typed arrays of at least the requested length, each kept for the next page. */
export class Scratch {
  private readonly byteArrays = new Map<string, Uint8Array>();
  private float64s = new Float64Array(0);
  private float64Rows = new Float64Array(0);
  private int32s = new Int32Array(0);
  private int32Rows = new Int32Array(0);
  private levelBytes = new Uint8Array(0);

  /** `n` bytes of the buffer named `name` (8-byte aligned: any typed view fits). */
  bytes(name: string, n: number): Uint8Array {
    let b = this.byteArrays.get(name);
    if (!b || b.length < n) {
      b = new Uint8Array(new ArrayBuffer(grow(b?.length ?? 0, n)));
      this.byteArrays.set(name, b);
    }
    return b.subarray(0, n);
  }

  /** Values of present rows. */
  values(n: number): Float64Array {
    if (this.float64s.length < n) this.float64s = new Float64Array(grow(this.float64s.length, n));
    return this.float64s.subarray(0, n);
  }

  /** Values by row (nulls spread in). */
  rowValues(n: number): Float64Array {
    if (this.float64Rows.length < n) this.float64Rows = new Float64Array(grow(this.float64Rows.length, n));
    return this.float64Rows.subarray(0, n);
  }

  /** Dictionary indexes of present rows. */
  indexes(n: number): Int32Array {
    if (this.int32s.length < n) this.int32s = new Int32Array(grow(this.int32s.length, n));
    return this.int32s.subarray(0, n);
  }

  /** Indexes by row (-1 at nulls). */
  rowIndexes(n: number): Int32Array {
    if (this.int32Rows.length < n) this.int32Rows = new Int32Array(grow(this.int32Rows.length, n));
    return this.int32Rows.subarray(0, n);
  }

  /** Definition levels by row. */
  levels(n: number): Uint8Array {
    if (this.levelBytes.length < n) this.levelBytes = new Uint8Array(grow(this.levelBytes.length, n));
    return this.levelBytes.subarray(0, n);
  }
}

/** A new capacity for `n`: at least half again the old one, a multiple of 8. */
function grow(old: number, n: number): number {
  return Math.ceil(Math.max(n, old * 1.5) / 8) * 8;
}
