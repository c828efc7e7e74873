/**
 * A small cache from a cell's bytes to its dictionary code, so that a categorical column's
 * repeated texts cost no JS string each: only a column's first sight of a text is decoded.
 * Bounded (short keys, a few thousand entries); beyond that the caller decodes as usual. PURE.
 */

const SLOTS = 8192; // power of two, twice the entries
const MAX_ENTRIES = 4096;
const MAX_KEY = 64;

export class ByteCodeCache {
  private readonly slots = new Int32Array(SLOTS).fill(-1);
  private readonly starts = new Int32Array(MAX_ENTRIES + 1);
  private readonly codes = new Int32Array(MAX_ENTRIES);
  private arena = new Uint8Array(4096);
  private count = 0;

  private static hash(buf: Uint8Array, s: number, e: number): number {
    let h = 0x811c9dc5;
    for (let p = s; p < e; p++) h = Math.imul(h ^ buf[p], 0x01000193);
    return (h ^ (h >>> 15)) & (SLOTS - 1);
  }

  /** The code cached for bytes `buf[s..e)`, or -2 when they are not cached. */
  get(buf: Uint8Array, s: number, e: number): number {
    const len = e - s;
    if (len > MAX_KEY) return -2;
    let slot = ByteCodeCache.hash(buf, s, e);
    for (;;) {
      const k = this.slots[slot];
      if (k < 0) return -2;
      const start = this.starts[k];
      if (this.starts[k + 1] - start === len) {
        let p = 0;
        while (p < len && this.arena[start + p] === buf[s + p]) p++;
        if (p === len) return this.codes[k];
      }
      slot = (slot + 1) & (SLOTS - 1);
    }
  }

  /** Remember that bytes `buf[s..e)` have `code` (ignored when the cache is full or the key long). */
  set(buf: Uint8Array, s: number, e: number, code: number): void {
    const len = e - s;
    if (len > MAX_KEY || this.count === MAX_ENTRIES) return;
    let slot = ByteCodeCache.hash(buf, s, e);
    while (this.slots[slot] >= 0) slot = (slot + 1) & (SLOTS - 1);
    const k = this.count++;
    const start = this.starts[k];
    if (start + len > this.arena.length) {
      const next = new Uint8Array(Math.max(this.arena.length * 2, start + len));
      next.set(this.arena);
      this.arena = next;
    }
    for (let p = 0; p < len; p++) this.arena[start + p] = buf[s + p];
    this.starts[k + 1] = start + len;
    this.codes[k] = code;
    this.slots[slot] = k;
  }
}
