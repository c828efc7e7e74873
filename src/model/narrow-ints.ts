/** A finished tree's integer node fields in the fewest bits that hold them. */

/**
 * A node field a finished tree may keep in 8 or 16 bits (`TreeStore.compact`); a growing tree's
 * are `Int32Array`.
 */
export type NodeInts = Int32Array | Int16Array | Int8Array | Uint16Array | Uint8Array;

/** `a`'s first `m` entries in the narrowest signed or unsigned 8-, 16- or 32-bit array that holds them. */
export function narrowInts(a: NodeInts, m: number): NodeInts {
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < m; i++) {
    const v = a[i];
    if (v < lo) lo = v;
    else if (v > hi) hi = v;
  }
  const Narrow =
    lo >= 0
      ? hi <= 0xff
        ? Uint8Array
        : hi <= 0xffff
          ? Uint16Array
          : Int32Array
      : lo >= -0x80 && hi <= 0x7f
        ? Int8Array
        : lo >= -0x8000 && hi <= 0x7fff
          ? Int16Array
          : Int32Array;
  if (a instanceof Narrow && a.length === m) return a;
  const out = new Narrow(m);
  for (let i = 0; i < m; i++) out[i] = a[i];
  return out;
}
