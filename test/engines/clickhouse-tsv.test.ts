import { describe, expect, it } from 'vitest';
import { GroveError } from '../../src/core/errors.js';
import { type TsvCell, TsvRows } from '../../src/engines/clickhouse-tsv.js';

/** The rows of `text` fed in pieces of `size` bytes. */
function parse(text: string | Uint8Array, size = 3): TsvCell[][] {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  const rows: TsvCell[][] = [];
  const reader = new TsvRows(
    (row) => rows.push(row),
    (message) => new GroveError(`ClickHouse: ${message}`, { code: 'E_IO' }),
  );
  for (let at = 0; at < bytes.length; at += size) reader.push(bytes.subarray(at, at + size));
  reader.end();
  return rows;
}

const HEAD = 'x\tname\nNullable(Float64)\tNullable(String)\n';

describe('ClickHouse tab-separated results', () => {
  it('numbers, NULLs and escaped text, whatever the pieces the bytes arrive in', () => {
    const text = `${HEAD}1.5\ta\\tb\\nc\n\\N\t\\N\n-inf\tcafé \\\\N\nnan\t\\\\\n1e-7\t\n`;
    const expected = [
      [1.5, 'a\tb\nc'],
      [null, null],
      [Number.NEGATIVE_INFINITY, 'café \\N'],
      [Number.NaN, '\\'],
      [1e-7, ''],
    ];
    for (const size of [1, 2, 3, 7, 1000]) expect(parse(text, size)).toEqual(expected);
  });

  it('a numeric column holding text (the error a server sends after some rows): an error quoting the line', () => {
    expect(() => parse(`${HEAD}1\ta\nCode: 395, DB::Exception: boom\tx\n`)).toThrow(
      /ClickHouse: Code: 395, DB::Exception: boom/,
    );
    expect(() => parse(`${HEAD}\ta\n`)).toThrow(GroveError);
  });

  it('a line with the wrong number of cells, a cut-off row, no header, bad UTF-8: errors', () => {
    expect(() => parse(`${HEAD}1\ta\tz\n`)).toThrow(/ClickHouse: 1\\ta\\tz/);
    expect(() => parse(`${HEAD}1\ta`)).toThrow(/ends inside a row/);
    expect(() => parse('')).toThrow(/no header lines/);
    const bad = new Uint8Array([...new TextEncoder().encode(`${HEAD}1\tcaf`), 0xe9, 0x0a]);
    expect(() => parse(bad)).toThrow(/not valid UTF-8 \(after row 0\)/);
  });
});
