/**
 * Decimal numbers parsed straight from ASCII bytes, without making a string: the fast path of the
 * CSV reader. It accepts only what grove's strict rule accepts ({@link isNumericToken}:
 * `[+-]digits[.digits][e[+-]digits]`) and only when the result is provably `Number(text)` bit for
 * bit (Clinger's fast path: at most 15 significant digits and a power of ten up to 10^22, so one
 * correctly rounded multiplication or division); anything else returns NaN and the caller decides
 * on the decoded text. PURE (browser-safe).
 */

/** Powers of ten that are exact doubles (10^0 to 10^22). */
export const POW10 = new Float64Array(23);
for (let k = 0, p = 1; k < 23; k++, p *= 10) POW10[k] = p;

/** What the last {@link parseNumberBytes} call found out besides the value. */
export const numberScan = {
  /**
   * The text is the number's canonical form, the way JS prints it (`String(value)`) or, in float32
   * mode, the shortest form of the float32 value (see {@link canonicalText}): no sign `+`, no
   * leading or trailing zeros, no exponent, `.` only with digits on both sides, at most
   * `canonicalDigits` significant digits, magnitude 0 or in [1e-6, 1e21). Conservative: `false`
   * may also be said of some canonical texts.
   */
  canonical: false,
};

/**
 * The number written in bytes `buf[s..e)` (already trimmed), or NaN when the fast path does not
 * apply (not a strict decimal number, too many digits, an exponent too large). Sets
 * {@link numberScan}.canonical; `canonicalDigits` is 15 for float64 columns, 6 for float32.
 */
export function parseNumberBytes(buf: Uint8Array, s: number, e: number, canonicalDigits: number): number {
  let p = s;
  let negative = false;
  let canonical = true;
  let c = buf[p];
  if (c === 0x2d /* - */) {
    negative = true;
    p++;
  } else if (c === 0x2b /* + */) {
    canonical = false;
    p++;
  }
  let mantissa = 0;
  let digits = 0; // significant digits in the mantissa (leading zeros skipped)
  let intDigits = 0;
  let fracDigits = 0; // digits after the point that went into the mantissa's scale
  // Integer part.
  const intStart = p;
  while (p < e) {
    c = buf[p] - 0x30;
    if (c < 0 || c > 9) break;
    if (digits > 0 || c !== 0) {
      mantissa = mantissa * 10 + c;
      digits++;
    }
    p++;
  }
  intDigits = p - intStart;
  if (intDigits > 1 && buf[intStart] === 0x30) canonical = false; // leading zero: 007
  let fracCount = 0;
  if (p < e && buf[p] === 0x2e /* . */) {
    p++;
    const fracStart = p;
    while (p < e) {
      c = buf[p] - 0x30;
      if (c < 0 || c > 9) break;
      if (digits > 0 || c !== 0) {
        mantissa = mantissa * 10 + c;
        digits++;
      }
      fracDigits++;
      p++;
    }
    fracCount = p - fracStart;
    if (fracCount === 0 || intDigits === 0 || buf[p - 1] === 0x30) canonical = false; // 5. / .5 / 1.50
  }
  if (intDigits === 0 && fracCount === 0) return NaN; // no digit at all
  let exponent = 0;
  if (p < e && (buf[p] | 0x20) === 0x65 /* e or E */) {
    canonical = false;
    p++;
    let expNegative = false;
    if (p < e && (buf[p] === 0x2d || buf[p] === 0x2b)) {
      expNegative = buf[p] === 0x2d;
      p++;
    }
    const expStart = p;
    while (p < e) {
      c = buf[p] - 0x30;
      if (c < 0 || c > 9) break;
      if (exponent < 10000) exponent = exponent * 10 + c;
      p++;
    }
    if (p === expStart) return NaN; // 1e
    if (expNegative) exponent = -exponent;
  }
  if (p !== e) return NaN; // trailing junk: not a strict number
  if (digits > 15) return NaN; // more digits than the fast path can take exactly
  const scale = exponent - fracDigits;
  let value: number;
  if (scale === 0) value = mantissa;
  else if (scale > 0 && scale <= 22) value = mantissa * POW10[scale];
  else if (scale < 0 && scale >= -22) value = mantissa / POW10[-scale];
  else return NaN;
  if (negative) {
    value = -value;
    if (mantissa === 0) canonical = false; // -0 prints as 0
  }
  if (canonical && (digits > canonicalDigits || (value !== 0 && (Math.abs(value) < 1e-6 || Math.abs(value) >= 1e21))))
    canonical = false;
  numberScan.canonical = canonical;
  return value;
}

/**
 * The text of a number whose source text was canonical (see {@link numberScan}): `String(value)`,
 * or for a float32 value the shortest decimal that rounds to it, which is the source text when that
 * had at most 6 significant digits.
 */
export function canonicalText(value: number, float32: boolean): string {
  if (!float32) return String(value);
  for (let p = 1; p < 9; p++) {
    const t = Number(value.toPrecision(p));
    if (Math.fround(t) === value) return String(t);
  }
  return String(Number(value.toPrecision(9)));
}
