/**
 * The forest file's node sections: what `encodeForest` writes and `decodeForest` reads. Split
 * nodes' fields are stored for split nodes only (S of them, in node order); a section is written
 * in the narrowest type that holds its values exactly (`SectionStats`), and when every split node's `n`
 * and class counts are the sums of its children's (in branch order, the same float64 additions
 * the reader makes), only the leaves' are stored (`sums`).
 *
 * Sections (N nodes over all trees, S split nodes, L leaves, k classes): `treeStart` int32[trees
 * + 1]; `kind` uint8[N] (0 leaf, 1 numeric, 2 multiway, 3 subset; +4 an unclassified region);
 * `missingBranch` [N] (the branch + 1, 0: none); per split node `feature`, `firstChild`,
 * `branches`, `paramCount`, `score`, `improvement` [S] (NaN: absent); `params` (numeric
 * thresholds, multiway codes, or a subset's left size then its left and right codes);
 * `leafScore`, `leafImprovement` [L], or empty when no leaf has one; `n` and `counts` [N] and
 * [N · k], or [L] and [L · k] with `sums`.
 */

export type SectionType = 'u8' | 'u16' | 'i32' | 'f32' | 'f64';
export const BYTES: Record<SectionType, number> = { u8: 1, u16: 2, i32: 4, f32: 4, f64: 8 };

/** Section names in file order, and whether a section may hold fractions (else integers only). */
export const SECTIONS: readonly [name: string, fractions: boolean][] = [
  ['treeStart', false],
  ['kind', false],
  ['missingBranch', false],
  ['feature', false],
  ['firstChild', false],
  ['branches', false],
  ['paramCount', false],
  ['params', true],
  ['score', true],
  ['improvement', true],
  ['leafScore', true],
  ['leafImprovement', true],
  ['n', false],
  ['counts', true],
];

export type Section = Uint8Array | Uint16Array | Int32Array | Float32Array | Float64Array;
export type Sections = Record<string, Section>;

/**
 * What decides a section's type, gathered one value at a time (a section is sized and typed
 * before it is written, so its values never need to be held as float64 first).
 */
export class SectionStats {
  length = 0;
  private ints = true;
  private lo = 0;
  private hi = 0;
  private f32 = true;

  push(x: number): void {
    this.length++;
    if (this.ints && !(Number.isInteger(x) && !Object.is(x, -0))) this.ints = false;
    if (x < this.lo) this.lo = x;
    if (x > this.hi) this.hi = x;
    if (this.f32 && !Object.is(Math.fround(x), x)) this.f32 = false;
  }

  /** The narrowest type that holds every value pushed exactly (NaN only in f32 or f64). */
  type(): SectionType {
    const { ints, lo, hi } = this;
    if (ints && lo >= 0 && hi < 256) return 'u8';
    if (ints && lo >= 0 && hi < 65536) return 'u16';
    if (ints && lo >= -(2 ** 31) && hi < 2 ** 31) return 'i32';
    return this.f32 ? 'f32' : 'f64';
  }
}

/** A new section of `length` values of `type`. */
export function sectionOf(type: SectionType, length: number): Section {
  return viewOf(type, new ArrayBuffer(length * BYTES[type]), 0, length);
}

/** A view of `length` values of `type` at byte `offset` of `buffer` (the offset a multiple of 8). */
export function viewOf(type: SectionType, buffer: ArrayBufferLike, offset: number, length: number): Section {
  switch (type) {
    case 'u8':
      return new Uint8Array(buffer, offset, length);
    case 'u16':
      return new Uint16Array(buffer, offset, length);
    case 'i32':
      return new Int32Array(buffer, offset, length);
    case 'f32':
      return new Float32Array(buffer, offset, length);
    default:
      return new Float64Array(buffer, offset, length);
  }
}
