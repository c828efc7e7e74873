/**
 * The Parquet codecs the page adds to the decoder's built-in ones (SNAPPY, LZ4, ZSTD): GZIP and
 * BROTLI, which the CLI decompresses with Node's zlib. The decoder calls a codec synchronously, one
 * page at a time, so the browser's DecompressionStream (asynchronous) cannot serve: GZIP is
 * fflate's inflater, BROTLI the brotli package's port of Google's decoder, both plain JavaScript.
 */
import { decompress as brotliDecompress } from 'brotli/decompress';
import { Gunzip } from 'fflate';
import { GroveError } from '../core/errors.js';
import type { Codecs, Decompress } from '../data/parquet/chunk.js';
import { CODEC } from '../data/parquet/metadata.js';

/** A GZIP page: every member (as zlib's gunzip reads them) into at most `size` bytes. */
const gunzip: Decompress = (input, size) => {
  const out = new Uint8Array(size);
  let at = 0;
  const members = new Gunzip((chunk) => {
    // More than declared: damage, said as zlib would (the decoder words it as such).
    if (at + chunk.length > size) throw new GroveError('output longer than declared');
    out.set(chunk, at);
    at += chunk.length;
  });
  members.push(input, true);
  return at === size ? out : out.subarray(0, at);
};

const brotli: Decompress = (input, size) => brotliDecompress(input, size);

/** GZIP and BROTLI, by Parquet codec id. */
export const PAGE_CODECS: Codecs = new Map<number, Decompress>([
  [CODEC.GZIP, gunzip],
  [CODEC.BROTLI, brotli],
]);
