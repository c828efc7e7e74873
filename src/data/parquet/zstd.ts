/**
 * ZSTD pages (RFC 8878), decoded by the `fzstd` library. Its decoder takes one window buffer per
 * frame, of the size the frame header asks for (up to 2 GiB), so every frame header is read first
 * and a window larger than the page and than {@link MAX_WINDOW} is left to another reader; the
 * output is checked to come out exactly as long as the page header declares.
 *
 * PURE: no Node imports.
 */

import { Decompress } from 'fzstd';
import { check, ParquetCorrupt, ParquetUnsupported } from './errors.js';
import { uint32le } from './varint.js';

/** The largest window taken for a frame whose window exceeds its page: writers' usual levels ask for at most 8 MiB. */
const MAX_WINDOW = 8 * 2 ** 20;

const FRAME_MAGIC = 0xfd2fb528;
const SKIPPABLE_MAGIC = 0x184d2a50; // low 4 bits free

/** Walk the frames of `input` (headers and block headers only), checking each window against `size`. */
function checkFrames(input: Uint8Array, size: number): void {
  let pos = 0;
  while (pos < input.length) {
    check(pos + 4 <= input.length, 'zstd: cut short');
    const magic = uint32le(input, pos);
    if ((magic & 0xfffffff0) >>> 0 === SKIPPABLE_MAGIC) {
      check(pos + 8 <= input.length, 'zstd: cut short');
      pos += 8 + uint32le(input, pos + 4);
      continue;
    }
    check(magic === FRAME_MAGIC, 'zstd: not a Zstandard frame');
    check(pos + 5 <= input.length, 'zstd: cut short');
    const descriptor = input[pos + 4];
    pos += 5;
    check((descriptor & 8) === 0, 'zstd: reserved bit set');
    const singleSegment = (descriptor >> 5) & 1;
    let window = 0;
    if (!singleSegment) {
      check(pos < input.length, 'zstd: cut short');
      const base = 2 ** (10 + (input[pos] >> 3));
      window = base + (base / 8) * (input[pos] & 7);
      pos++;
    }
    pos += [0, 1, 2, 4][descriptor & 3]; // dictionary id
    const sizeFlag = descriptor >> 6;
    const sizeBytes = sizeFlag === 0 ? singleSegment : 1 << sizeFlag;
    check(pos + sizeBytes <= input.length, 'zstd: cut short');
    let content = 0;
    for (let b = sizeBytes - 1; b >= 0; b--) content = content * 256 + input[pos + b];
    if (sizeFlag === 1) content += 256;
    pos += sizeBytes;
    if (sizeBytes > 0) check(content <= size, 'zstd: frame larger than the page');
    if (singleSegment) window = content;
    if (window > Math.max(size, MAX_WINDOW)) throw new ParquetUnsupported(`zstd window of ${window} bytes`);
    pos = skipBlocks(input, pos) + ((descriptor >> 2) & 1) * 4; // the checksum
  }
  check(pos === input.length, 'zstd: cut short');
}

/** The position after the blocks of a frame starting at `pos`. */
function skipBlocks(input: Uint8Array, pos: number): number {
  for (;;) {
    check(pos + 3 <= input.length, 'zstd: cut short');
    const header = input[pos] | (input[pos + 1] << 8) | (input[pos + 2] << 16);
    const type = (header >> 1) & 3;
    check(type !== 3, 'zstd: reserved block type');
    pos += 3 + (type === 1 ? 1 : header >>> 3); // an RLE block stores one byte
    check(pos <= input.length, 'zstd: cut short');
    if (header & 1) return pos;
  }
}

/** Decompress the ZSTD page `input` (one or more frames) into `out`, which must come out exactly full. */
export function zstdDecompress(input: Uint8Array, out: Uint8Array): void {
  checkFrames(input, out.length);
  let o = 0;
  const stream = new Decompress((chunk) => {
    check(o + chunk.length <= out.length, 'zstd: output larger than declared');
    out.set(chunk, o);
    o += chunk.length;
  });
  try {
    stream.push(input, true);
  } catch (err) {
    if (err instanceof ParquetCorrupt) throw err;
    throw new ParquetCorrupt(`zstd: ${(err as Error)?.message ?? err}`);
  }
  check(o === out.length, 'zstd: output shorter than declared');
}
