/**
 * Decimal numbers parsed straight from ASCII bytes, without making a string: the fast path of the
 * CSV reader. It accepts only what grove's strict rule accepts ({@link isNumericToken}:
 * `[+-]digits[.digits][e[+-]digits]`) and only when the result is provably `Number(text)` bit for
 * bit: Clinger's fast path for at most 15 significant digits and a power of ten up to 10^22 (one
 * correctly rounded multiplication or division), and for 16 to 19 digits (what a program writes
 * when it prints a double in full) an exact double-double division whose rounding is settled
 * unless the value lies within 2^-40 of half a unit of the last place from a rounding boundary;
 * anything else returns NaN and the caller decides on the decoded text. PURE (browser-safe).
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
  let mantissa = 0; // the first 15 significant digits
  let extra = 0; // significant digits 16 to 19, `digits - 15` of them
  let digits = 0; // significant digits (leading zeros skipped)
  let intDigits = 0;
  let fracDigits = 0; // digits after the point that went into the mantissa's scale
  // Integer part.
  const intStart = p;
  while (p < e) {
    c = buf[p] - 0x30;
    if (c < 0 || c > 9) break;
    if (digits > 0 || c !== 0) {
      if (digits < 15) mantissa = mantissa * 10 + c;
      else if (digits < 19) extra = extra * 10 + c;
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
        if (digits < 15) mantissa = mantissa * 10 + c;
        else if (digits < 19) extra = extra * 10 + c;
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
    exponent = exponentOf(buf, p + 1, e);
    if (exponent !== exponent) return NaN;
  } else if (p !== e) return NaN; // trailing junk: not a strict number
  const scale = exponent - fracDigits;
  if (digits > 15) return longDecimal(mantissa, extra, digits, scale, negative, canonical, canonicalDigits);
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

/** The exponent written in `buf[p..e)` as `[+-]digits` to the end (capped near ±10000), else NaN. */
function exponentOf(buf: Uint8Array, p: number, e: number): number {
  let negative = false;
  if (p < e && (buf[p] === 0x2d || buf[p] === 0x2b)) {
    negative = buf[p] === 0x2d;
    p++;
  }
  const start = p;
  let exponent = 0;
  while (p < e) {
    const c = buf[p] - 0x30;
    if (c < 0 || c > 9) return NaN; // trailing junk: not a strict number
    if (exponent < 10000) exponent = exponent * 10 + c;
    p++;
  }
  if (p === start) return NaN; // 1e
  return negative ? -exponent : exponent;
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

/** Dekker's splitter for 53-bit doubles: 2^27 + 1. */
const SPLITTER = 134217729;
const TWO_POW_26 = 67108864;
/** Relative margin that the double-double result's error (below 2^-100) cannot cross. */
const MARGIN = 2 ** -40;

/** W = mantissa · 10^extraDigits + extra as the unevaluated sum wideHi + wideLo (set by {@link splitWide}). */
let wideHi = 0;
let wideLo = 0;

function splitWide(mantissa: number, extra: number, extraDigits: number): void {
  const P = POW10[extraDigits];
  const mh = Math.floor(mantissa / TWO_POW_26) * TWO_POW_26;
  const A = mh * P; // < 2^38 significant bits: exact
  const B = (mantissa - mh) * P + extra; // < 2^41: exact
  const wh = A + B;
  const bb = wh - A;
  wideHi = wh;
  wideLo = A - (wh - bb) + (B - bb); // wideHi + wideLo = A + B exactly
}

/** The rounding error of the product p = fl(a · b): a · b = p + the result exactly (Dekker). */
function productError(a: number, b: number, p: number): number {
  let t = SPLITTER * a;
  const ah = t - (t - a);
  const al = a - ah;
  t = SPLITTER * b;
  const bh = t - (t - b);
  const bl = b - bh;
  return ah * bh - p + ah * bl + al * bh + al * bl;
}

/**
 * `(mantissa · 10^extraDigits + extra) · 10^scale` correctly rounded, for `scale` in [-22, 0] and
 * `mantissa` < 10^15, `extra` < 10^extraDigits + 1, `extraDigits` ≤ 4; NaN when the rounding cannot
 * be settled (the caller falls back on `Number(text)`).
 *
 * The integer is exact as a double-double (wh + wl), the quotient by the exact double 10^-scale is
 * computed as q1 + q2 with the remainder from Dekker's exact product (error below 2^-100 of the
 * value), and q1 + q2 rounds to the same double as the true quotient whenever moving the tail
 * q2 by a relative 2^-40 does not change the rounding.
 */
export function exactDecimal(mantissa: number, extra: number, extraDigits: number, scale: number): number {
  splitWide(mantissa, extra, extraDigits);
  const wh = wideHi;
  const wl = wideLo;
  if (scale === 0) return wh;
  if (scale < -22 || scale > 0) return NaN;
  const D = POW10[-scale];
  const q1 = wh / D;
  const p = q1 * D;
  const pe = productError(q1, D, p);
  const r = wh - p - pe + wl; // wh - p is exact (Sterbenz)
  const q2 = r / D;
  const qh = q1 + q2;
  const ql = q2 - (qh - q1);
  const aql = ql < 0 ? -ql : ql;
  const aqh = qh < 0 ? -qh : qh;
  // Far from any rounding boundary (those lie at least 2^-54 · |qh| away), or still qh when the
  // tail is pushed outwards by more than the error: qh is the correctly rounded quotient.
  if (aql <= aqh * 2 ** -56 || qh + ql * (1 + MARGIN) === qh) return qh;
  return NaN;
}

/**
 * A decimal of 16 to 19 significant digits (see {@link parseNumberBytes}); sets
 * {@link numberScan}.canonical. A 16- or 17-digit text is `String(value)` when no decimal one digit
 * shorter rounds to the value (the two nearest do not) and the text is within half a unit of its last
 * digit of the value (the text is then the closest of its length); when that cannot be settled it
 * is said not to be canonical (its text is kept, nothing is lost).
 */
function longDecimal(
  mantissa: number,
  extra: number,
  digits: number,
  scale: number,
  negative: boolean,
  canonical: boolean,
  canonicalDigits: number,
): number {
  if (digits > 19) return NaN;
  const extraDigits = digits - 15;
  const value = exactDecimal(mantissa, extra, extraDigits, scale);
  if (value !== value) return NaN;
  let isCanonical = false;
  if (canonical && canonicalDigits >= 15 && digits <= 17 && scale < 0 && value >= 1e-6 && value < 1e21) {
    const down = exactDecimal(mantissa, Math.floor(extra / 10), extraDigits - 1, scale + 1);
    const up = exactDecimal(mantissa, Math.floor(extra / 10) + 1, extraDigits - 1, scale + 1);
    if (down === down && up === up && down !== value && up !== value) {
      // |text - value| < half a unit of the last digit, with the error margin: the closest text.
      const half = 0.5 / POW10[-scale];
      isCanonical = textDistance(mantissa, extra, extraDigits, scale, value) < half * (1 - MARGIN);
    }
  }
  numberScan.canonical = isCanonical;
  return negative ? -value : value;
}

/** |W · 10^scale − value| for the decimal W = mantissa · 10^extraDigits + extra, to a relative 2^-100 of value. */
function textDistance(mantissa: number, extra: number, extraDigits: number, scale: number, value: number): number {
  splitWide(mantissa, extra, extraDigits);
  const D = POW10[-scale];
  // W − value · D exactly as a sum of doubles, then divided by D.
  const p = value * D;
  const d = (wideHi - p - productError(value, D, p) + wideLo) / D;
  return d < 0 ? -d : d;
}
