import { describe, expect, it } from 'vitest';
import { GroveError } from '../../src/core/errors.js';
import { hexFloat } from '../../src/sql/index.js';

/** The double a C99 hexadecimal float literal (as hexFloat writes it) stands for. */
function parseHexFloat(text: string): number {
  if (text === 'inf') return Number.POSITIVE_INFINITY;
  if (text === '-inf') return Number.NEGATIVE_INFINITY;
  const m = /^(-?)0x([01])\.([0-9a-f]{13})p([+-]\d+)$/.exec(text);
  if (!m) throw new Error(`not a hexadecimal float: ${text}`);
  const mantissa = BigInt(`0x${m[2]}${m[3]}`);
  // mantissa × 2^(exponent − 52), exact: a 53-bit integer times a power of two that is a double itself.
  const value = Number(mantissa) * 2 ** (Number(m[4]) - 52);
  return m[1] ? -value : value;
}

describe('hexFloat (ClickHouse bin edges)', () => {
  it("writes a double's bits: −0, the smallest subnormal, the largest double, ±Infinity", () => {
    expect(hexFloat(-0)).toBe('-0x0.0000000000000p-1022');
    expect(hexFloat(0)).toBe('0x0.0000000000000p-1022');
    expect(hexFloat(5e-324)).toBe('0x0.0000000000001p-1022');
    expect(hexFloat(Number.MAX_VALUE)).toBe('0x1.fffffffffffffp+1023');
    expect(hexFloat(-3)).toBe('-0x1.8000000000000p+1');
    expect(hexFloat(1)).toBe('0x1.0000000000000p+0');
    expect(hexFloat(Number.POSITIVE_INFINITY)).toBe('inf');
    expect(hexFloat(Number.NEGATIVE_INFINITY)).toBe('-inf');
  });

  it('reads back as the same double', () => {
    for (const v of [-0, 5e-324, -5e-324, 2.2250738585072014e-308, 0.1, 1 / 3, 3.804, -1e300, Number.MAX_VALUE])
      expect(Object.is(parseHexFloat(hexFloat(v)), v)).toBe(true);
  });

  it('refuses NaN with a GroveError rather than writing garbage', () => {
    expect(() => hexFloat(Number.NaN)).toThrow(GroveError);
  });
});
