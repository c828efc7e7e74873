/**
 * DELTA_LENGTH_BYTE_ARRAY strings: the lengths' stream must hold exactly the page's number of
 * values, since the strings start where that stream ends (a longer stream is damage, not a page
 * to read part of).
 */
import { describe, expect, it } from 'vitest';
import { deltaLengthTexts } from '../../src/data/parquet/delta.js';
import { ParquetCorrupt } from '../../src/data/parquet/errors.js';
import { Scratch } from '../../src/data/parquet/scratch.js';

/** Lengths 1, 1, …, 1 (`total` of them: first value 1, deltas 0 at bit width 0), then the string bytes. */
function page(total: number, strings: string): Uint8Array {
  // block size 128, 4 miniblocks, total, first value 1 (zigzag 2); one block: min delta 0, widths 0.
  const header = [128, 1, 4, total, 2, 0, 0, 0, 0, 0];
  const text = new TextEncoder().encode(strings);
  const out = new Uint8Array(header.length + text.length);
  out.set(header);
  out.set(text, header.length);
  return out;
}

describe('Parquet DELTA_LENGTH_BYTE_ARRAY', () => {
  it('reads a stream of as many lengths as values', () => {
    expect(deltaLengthTexts(page(3, 'abc'), 3, new Scratch())).toEqual(['a', 'b', 'c']);
  });

  it('refuses a lengths stream longer than the page', () => {
    expect(() => deltaLengthTexts(page(3, 'abc'), 2, new Scratch())).toThrow(ParquetCorrupt);
  });
});
