/**
 * The forest file's node sections: what `encodeForest` writes and `decodeForest` reads. Split
 * nodes' fields are stored for split nodes only (S of them, in node order); a section is written
 * in the narrowest type that holds its values exactly (`narrow`), and when every split node's `n`
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

/** `values` in the narrowest type that holds each exactly (NaN only in f32 or f64). */
export function narrow(values: ArrayLike<number>): { type: SectionType; array: Section } {
  let ints = true;
  let lo = 0;
  let hi = 0;
  let f32 = true;
  for (let i = 0; i < values.length; i++) {
    const x = values[i];
    if (ints && !(Number.isInteger(x) && !Object.is(x, -0))) ints = false;
    if (x < lo) lo = x;
    if (x > hi) hi = x;
    if (f32 && !Object.is(Math.fround(x), x)) f32 = false;
  }
  if (ints && lo >= 0 && hi < 256) return { type: 'u8', array: Uint8Array.from(values) };
  if (ints && lo >= 0 && hi < 65536) return { type: 'u16', array: Uint16Array.from(values) };
  if (ints && lo >= -(2 ** 31) && hi < 2 ** 31) return { type: 'i32', array: Int32Array.from(values) };
  if (f32) return { type: 'f32', array: Float32Array.from(values) };
  return { type: 'f64', array: Float64Array.from(values) };
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
