/**
 * The page's Parquet codecs (GZIP through fflate, BROTLI through the brotli package): files
 * written by pyarrow and DuckDB read into the Dataset the CLI reads with Node's zlib, and a
 * damaged page is refused as damage.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ByteSource, readParquetSource } from '../../src/data/parquet/read.js';
import { PAGE_CODECS } from '../../src/explore-page/page-codecs.js';
import { readDataset } from '../../src/sources/file-source.js';
import { repoRoot } from '../helpers/cli.js';
import { convertCsv } from '../sources/convert.js';
import { recompressParquet } from './parquet-codecs.js';

const fixtures = resolve(repoRoot, 'test/fixtures/parquet');

function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    async read(offset, into) {
      into.set(bytes.subarray(offset, offset + into.length));
    },
  };
}

let dir: string;
const files = new Map<string, string>([
  ['pyarrow GZIP, dictionary pages', join(fixtures, 'pyarrow-gzip-dictionary.parquet')],
  ['pyarrow BROTLI, data page v2', join(fixtures, 'pyarrow-split-brotli-v2.parquet')],
]);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'grove-page-codecs-'));
  const { parquet } = await convertCsv(resolve(repoRoot, 'data/glass.csv'), dir, 'glass');
  files.set('DuckDB GZIP', await recompressParquet(parquet, join(dir, 'glass-gzip.parquet'), 'gzip'));
  files.set('DuckDB BROTLI', await recompressParquet(parquet, join(dir, 'glass-brotli.parquet'), 'brotli'));
}, 60_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the page's Parquet codecs", () => {
  it('read GZIP and BROTLI files into the Dataset the CLI reads', async () => {
    for (const [what, file] of files) {
      const page = await readParquetSource(bytesSource(readFileSync(file)), { codecs: PAGE_CODECS, source: file });
      const cli = await readDataset(file);
      expect(page.nRows, what).toBe(cli.nRows);
      expect(page.nRows, what).toBeGreaterThan(0);
      expect(page, what).toEqual(cli);
    }
  });

  it('refuse damaged pages: they throw, or give another size than declared (which the decoder refuses)', () => {
    const damaged = (codec: number, input: number[], size: number) => {
      try {
        return PAGE_CODECS.get(codec)!(Uint8Array.from(input), size).length !== size;
      } catch {
        return true;
      }
    };
    expect(damaged(2, [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff, 0xff], 10)).toBe(true);
    expect(damaged(2, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13], 10)).toBe(true);
    expect(damaged(4, [0xff, 0xff, 0xff, 0xff], 10)).toBe(true);
    expect(damaged(4, [0x0b, 0x02, 0x80], 10)).toBe(true);
  });

  it('refuse a file whose GZIP page is cut, as the CLI does: damage, not an unsupported codec', async () => {
    const file = files.get('DuckDB GZIP')!;
    const bytes = readFileSync(file);
    // The first page's data, just after its header: zeroed, the gzip stream no longer decodes.
    const at = bytes.indexOf(Buffer.from([0x1f, 0x8b]));
    expect(at).toBeGreaterThan(0);
    bytes.fill(0, at + 10, at + 40);
    await expect(readParquetSource(bytesSource(bytes), { codecs: PAGE_CODECS, source: 'cut.parquet' })).rejects.toThrow(
      /^cut\.parquet: .*(damaged|corrupt|decompress|mismatch)/i,
    );
  });
});
