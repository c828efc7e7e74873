/**
 * The decoder's own codecs on hand-made inputs: the deprecated LZ4 codec in Hadoop's framing
 * (several blocks) and as one raw block; ZSTD pages of several frames and skippable frames; and
 * damage in each: refused as damaged (or, for a ZSTD window beyond any page's need, left to
 * another reader) before the memory the header asks for is taken.
 */
import { describe, expect, it } from 'vitest';
import { ParquetCorrupt, ParquetUnsupported } from '../../src/data/parquet/errors.js';
import { lz4LegacyDecompress } from '../../src/data/parquet/lz4.js';
import { zstdDecompress } from '../../src/data/parquet/zstd.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** An LZ4 block of literals only (a valid block: its one sequence has no match). */
function literalBlock(data: Uint8Array): Uint8Array {
  const head = [Math.min(data.length, 15) << 4];
  if (data.length >= 15) {
    let rest = data.length - 15;
    for (; rest >= 255; rest -= 255) head.push(255);
    head.push(rest);
  }
  return concat(Uint8Array.from(head), data);
}

/** Hadoop's framing of `block` (decompressing to `size` bytes): two big-endian lengths, then the block. */
function hadoopFrame(size: number, block: Uint8Array): Uint8Array {
  const head = new Uint8Array(8);
  new DataView(head.buffer).setUint32(0, size);
  new DataView(head.buffer).setUint32(4, block.length);
  return concat(head, block);
}

describe('the deprecated LZ4 codec', () => {
  const a = bytes('the first block of a Hadoop-framed page, ');
  const b = bytes('and the second one.');

  it("reads Hadoop's framing, block after block", () => {
    const input = concat(hadoopFrame(a.length, literalBlock(a)), hadoopFrame(b.length, literalBlock(b)));
    const out = new Uint8Array(a.length + b.length);
    lz4LegacyDecompress(input, out);
    expect(new TextDecoder().decode(out)).toBe(new TextDecoder().decode(concat(a, b)));
  });

  it('reads one raw block where the bytes are not so framed', () => {
    const out = new Uint8Array(a.length);
    lz4LegacyDecompress(literalBlock(a), out);
    expect(out).toEqual(a);
  });

  it('refuses as damaged a frame that says more than its page holds, or bytes that are neither', () => {
    const out = new Uint8Array(a.length);
    expect(() => lz4LegacyDecompress(hadoopFrame(a.length + 1, literalBlock(a)), out)).toThrow(ParquetCorrupt);
    expect(() => lz4LegacyDecompress(literalBlock(a).subarray(0, 10), out)).toThrow(ParquetCorrupt);
  });
});

/** A single-segment ZSTD frame of one raw block (content size in one byte: up to 255 bytes). */
function rawFrame(data: Uint8Array): Uint8Array {
  const header = (data.length << 3) | 1; // last block, raw
  return concat(
    Uint8Array.from([0x28, 0xb5, 0x2f, 0xfd, 0x20, data.length, header & 255, (header >> 8) & 255, header >> 16]),
    data,
  );
}

/** A single-segment ZSTD frame of one RLE block: `byte` `n` times (n < 256). */
function rleFrame(byte: number, n: number): Uint8Array {
  const header = (n << 3) | (1 << 1) | 1;
  return Uint8Array.from([0x28, 0xb5, 0x2f, 0xfd, 0x20, n, header & 255, (header >> 8) & 255, header >> 16, byte]);
}

/** A skippable frame of `n` bytes. */
const skippable = (n: number) => concat(Uint8Array.from([0x5a, 0x2a, 0x4d, 0x18, n, 0, 0, 0]), new Uint8Array(n));

describe('ZSTD pages', () => {
  it('several frames and skippable frames make one page', () => {
    const text = bytes('zstd frames: ');
    const input = concat(rawFrame(text), skippable(5), rleFrame(0x2a, 200), rawFrame(bytes('end')));
    const out = new Uint8Array(text.length + 200 + 3);
    zstdDecompress(input, out);
    expect(out.subarray(0, text.length)).toEqual(text);
    expect(out.subarray(text.length, text.length + 200).every((v) => v === 0x2a)).toBe(true);
    expect(new TextDecoder().decode(out.subarray(text.length + 200))).toBe('end');
  });

  it('output longer or shorter than the page declares, or cut short: damaged', () => {
    const frame = rleFrame(7, 100);
    expect(() => zstdDecompress(frame, new Uint8Array(99))).toThrow(ParquetCorrupt);
    expect(() => zstdDecompress(frame, new Uint8Array(101))).toThrow(ParquetCorrupt);
    expect(() => zstdDecompress(frame.subarray(0, 8), new Uint8Array(100))).toThrow(ParquetCorrupt);
    expect(() => zstdDecompress(bytes('not zstd at all'), new Uint8Array(100))).toThrow(ParquetCorrupt);
  });

  it('a frame asking for a 2 TiB window is left to another reader, without taking it', () => {
    // Not single-segment; window descriptor 0xf8: 2^(10 + 31) bytes. One empty raw block.
    const frame = Uint8Array.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0xf8, 1, 0, 0]);
    const before = process.memoryUsage().arrayBuffers;
    expect(() => zstdDecompress(frame, new Uint8Array(8))).toThrow(ParquetUnsupported);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(2 ** 20);
  });
});
