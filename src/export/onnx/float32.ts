/**
 * ONNX Runtime's tree ensembles compare float32 inputs with float32 thresholds, grove compares in
 * float64. For a float64 threshold `t`, the largest float32 `t32 ≤ t` routes every float32 input
 * `x` exactly as grove routes the same value: `x ≤ t32` ⇒ `x ≤ t`, and `x ≤ t` ⇒ `x ≤ t32` since
 * no float32 lies in (t32, t]. (Rounding to nearest could give t32 > t and send an x in (t, t32]
 * left, where grove sends it right.)
 */
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The largest float32 value ≤ `t` (−Infinity below float32's range). */
export function float32AtOrBelow(t: number): number {
  const r = Math.fround(t);
  return r <= t ? r : nextFloat32Down(r);
}

/**
 * The float32 threshold for grove's `t`. A threshold between training values: float32AtOrBelow.
 * One at a training value (J48's rules): the float32 nearest to `t`, so that `t` itself, fed as
 * float32, goes left as in grove; every other float32 value still routes as grove routes it, since
 * no float32 lies strictly between `t` and its nearest float32.
 */
export function float32Threshold(t: number, atTrainingValue: boolean): number {
  const r = Math.fround(t);
  return atTrainingValue && Number.isFinite(r) ? r : float32AtOrBelow(t);
}

/** The float32 value just below float32 `x` (x finite or +Infinity). */
export function nextFloat32Down(x: number): number {
  if (x === 0) return -1.401298464324817e-45;
  f32[0] = x;
  // Positive: one step closer to zero; negative: one step away from it.
  u32[0] += x > 0 ? -1 : 1;
  return f32[0];
}

/** The float32 value just above float32 `x` (x finite or −Infinity). */
export function nextFloat32Up(x: number): number {
  return -nextFloat32Down(-x);
}
