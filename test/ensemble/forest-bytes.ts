/** Reading and damaging a forest file's bytes in tests: its sections, its checksum, crafted damage. */

export interface FileHeader {
  version: number;
  sums: boolean;
  sections: { name: string; type: string; length: number }[];
}

const WIDTH: Record<string, number> = { u8: 1, u16: 2, i32: 4, f32: 4, f64: 8 };

/** The header of a forest file and the byte offset of each section. */
export function sectionsOf(bytes: Uint8Array): { header: FileHeader; offsets: Map<string, number> } {
  const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(8, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(16, 16 + length))) as FileHeader;
  const offsets = new Map<string, number>();
  let at = 16 + length;
  for (const s of header.sections) {
    offsets.set(s.name, at);
    at = (at + s.length * WIDTH[s.type] + 7) & ~7;
  }
  return { header, offsets };
}

/** Little-endian integer of the width its section has (the sections here are narrowed to u8 or u16). */
function setInt(v: DataView, at: number, x: number): void {
  v.setUint8(at, x);
  v.setUint8(at + 1, 0);
}

/** The FNV-1a checksum the reader expects, written into bytes 12–15. */
export function reChecksum(bytes: Uint8Array): void {
  let h = 0x811c9dc5;
  for (let i = 16; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  new DataView(bytes.buffer).setUint32(12, h >>> 0, true);
}

const DAMAGE: [string, (v: DataView, at: (name: string) => number) => void, RegExp][] = [
  ['feature', (v, at) => v.setUint8(at('feature'), 99), /no feature 99/],
  ['firstChild', (v, at) => setInt(v, at('firstChild'), 0), /children out of range/],
  ['params', (v, at) => v.setFloat64(at('params'), Number.NaN, true), /thresholds not finite/],
  ['kind', (v, at) => v.setUint8(at('kind'), 5), /bad kind 5/],
  ['missingBranch', (v, at) => v.setUint8(at('missingBranch'), 9), /no branch 8 for missing values/],
];

/**
 * Copies of a forest file whose checksum holds but whose nodes do not make trees, each with its
 * name and the refusal the reader owes it.
 */
export function craftedDamage(bytes: Uint8Array): [string, Uint8Array, RegExp][] {
  return DAMAGE.map(([name, damage, pattern]) => {
    const copy = bytes.slice();
    const { offsets } = sectionsOf(copy);
    damage(new DataView(copy.buffer), (s) => offsets.get(s)!);
    reChecksum(copy);
    return [name, copy, pattern];
  });
}
