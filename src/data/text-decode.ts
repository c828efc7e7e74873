/**
 * Text encodings of data files: decoding one cell's bytes to a string, strictly (bad UTF-8 is an
 * error, never U+FFFD, so two different Latin-1 words cannot silently become one category), and
 * UTF-16 turned into UTF-8 bytes for the byte-level tokenizer. PURE (TextDecoder/TextEncoder only).
 */

import { GroveError } from '../core/errors.js';
import { describeType } from './check.js';

/** Encodings a text data file may be in (`--encoding`). */
export const TEXT_ENCODINGS = ['utf8', 'latin1', 'windows-1252', 'utf16'] as const;
export type TextEncodingName = (typeof TEXT_ENCODINGS)[number];

/** Accepted spellings of each encoding, lower-case. */
const ALIASES: ReadonlyMap<string, TextEncodingName> = new Map([
  ['utf8', 'utf8'],
  ['utf-8', 'utf8'],
  ['latin1', 'latin1'],
  ['latin-1', 'latin1'],
  ['iso-8859-1', 'latin1'],
  ['windows-1252', 'windows-1252'],
  ['cp1252', 'windows-1252'],
  ['utf16', 'utf16'],
  ['utf-16', 'utf16'],
]);

/**
 * The encoding named by `name` (any case, common aliases), or a GroveError (`E_OPTION`) that names
 * `option` (e.g. `--encoding`).
 */
export function parseEncodingName(name: string, option = 'encoding'): TextEncodingName {
  const found = typeof name === 'string' ? ALIASES.get(name.trim().toLowerCase()) : undefined;
  if (found !== undefined) return found;
  const flag = typeof option === 'string' ? option : 'encoding';
  const given = typeof name === 'string' ? `'${name}'` : describeType(name);
  throw new GroveError(`option ${flag}: unknown encoding ${given} (expected one of ${TEXT_ENCODINGS.join(', ')})`, {
    code: 'E_OPTION',
  });
}

/** windows-1252's characters for bytes 0x80-0x9f (the rest is ISO-8859-1); WHATWG's table. */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

/** Code unit of each byte in a single-byte encoding. */
function singleByteTable(encoding: 'latin1' | 'windows-1252'): Uint16Array {
  const table = new Uint16Array(256);
  for (let b = 0; b < 256; b++) table[b] = b;
  if (encoding === 'windows-1252') for (let b = 0x80; b < 0xa0; b++) table[b] = CP1252_HIGH[b - 0x80];
  return table;
}

/**
 * Decodes the bytes of one cell to a string. Single-byte encodings use their own table (Node 20's
 * TextDecoder decodes windows-1252 as ISO-8859-1); UTF-8 is strict.
 */
export class CellDecoder {
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  private readonly table: Uint16Array | undefined;

  constructor(readonly encoding: TextEncodingName) {
    this.table = encoding === 'latin1' || encoding === 'windows-1252' ? singleByteTable(encoding) : undefined;
  }

  /** Whether `buf[s..e)` holds only white space (ASCII's, or Unicode's where a byte is not ASCII). */
  isBlank(buf: Uint8Array, s: number, e: number): boolean {
    for (let p = s; p < e; p++) {
      const c = buf[p];
      if (c !== 0x20 && (c < 0x09 || c > 0x0d)) {
        if (c < 0x80) return false;
        const text = this.decode(buf, s, e);
        return text !== undefined && text.trim() === '';
      }
    }
    return true;
  }

  /**
   * The text of `buf[s..e)`; returns `undefined` for bytes that are not valid in the encoding
   * (only UTF-8 can have such bytes), leaving the message to the caller, who knows the line.
   */
  decode(buf: Uint8Array, s: number, e: number): string | undefined {
    const table = this.table;
    if (table === undefined) {
      let ascii = e - s <= 64;
      for (let p = s; ascii && p < e; p++) if (buf[p] >= 0x80) ascii = false;
      if (!ascii) {
        try {
          // utf8, and utf16 (transcoded to UTF-8 before the tokenizer sees it)
          return this.utf8.decode(buf.subarray(s, e));
        } catch {
          return undefined;
        }
      }
    }
    let out = '';
    if (e - s <= 64) {
      for (let p = s; p < e; p++) out += String.fromCharCode(table === undefined ? buf[p] : table[buf[p]]);
      return out;
    }
    for (let p = s; p < e; p += 4096) {
      const part = Array.from(buf.subarray(p, Math.min(e, p + 4096)), (b) => table![b]);
      out += String.fromCharCode.apply(null, part);
    }
    return out;
  }
}

/** The one-line message for bytes that are not UTF-8. */
export const INVALID_UTF8 = 'invalid UTF-8 (is the file in another encoding? try --encoding latin1 or windows-1252)';

/**
 * UTF-16 (little-endian unless the text starts with a big-endian BOM) turned into UTF-8 bytes,
 * chunk by chunk; a BOM is dropped. Unpaired surrogates are an error.
 */
export class Utf16ToUtf8 {
  private decoder: InstanceType<typeof TextDecoder> | undefined;
  private readonly encoder = new TextEncoder();
  private head = new Uint8Array(0);

  /** UTF-8 bytes for the next chunk of UTF-16 bytes (or for the end, `final`). */
  push(chunk: Uint8Array, final: boolean): Uint8Array {
    if (this.decoder === undefined) {
      // Wait for two bytes to see the BOM.
      const joined = new Uint8Array(this.head.length + chunk.length);
      joined.set(this.head);
      joined.set(chunk, this.head.length);
      if (joined.length < 2 && !final) {
        this.head = joined;
        return new Uint8Array(0);
      }
      const bigEndian = joined[0] === 0xfe && joined[1] === 0xff;
      this.decoder = new TextDecoder(bigEndian ? 'utf-16be' : 'utf-16le', { fatal: true });
      chunk = joined;
    }
    let text: string;
    try {
      text = this.decoder.decode(chunk, { stream: !final });
    } catch {
      throw new GroveError('invalid UTF-16 (an unpaired surrogate or an odd number of bytes)', { code: 'E_DATA' });
    }
    return this.encoder.encode(text);
  }
}

/**
 * A whole text (e.g. an ARFF file's bytes) as a string in `encoding` (default UTF-8; a UTF-8 BOM
 * is dropped, a UTF-16 BOM selects UTF-16). Bytes that are not valid UTF-8 are an error naming
 * the line; `file` names the source in errors.
 */
export function decodeText(bytes: Uint8Array, encoding: TextEncodingName = 'utf8', file?: string): string {
  if (encoding === 'utf16' || (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    try {
      bytes = new Utf16ToUtf8().push(bytes, true);
    } catch (e) {
      throw new GroveError((e as Error).message, { file, code: 'E_DATA' });
    }
    encoding = 'utf8';
  }
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const utf16 = start === 0 ? utf16WithoutBom(bytes) : undefined;
  if (utf16 !== undefined) throw new GroveError(utf16, { file, code: 'E_DATA' });
  const text = new CellDecoder(encoding).decode(bytes, start, bytes.length);
  if (text !== undefined) return text;
  // Name the first line that does not decode.
  let lineStart = start;
  let line = 1;
  const decoder = new CellDecoder(encoding);
  for (let p = start; p <= bytes.length; p++) {
    if (p === bytes.length || bytes[p] === 0x0a) {
      if (decoder.decode(bytes, lineStart, p) === undefined)
        throw new GroveError(INVALID_UTF8, { file, code: 'E_DATA', row: line });
      lineStart = p + 1;
      line++;
    }
  }
  throw new GroveError(INVALID_UTF8, { file, code: 'E_DATA' });
}

/**
 * Why `bytes`, the start of a file read as a single-byte or UTF-8 text, look like UTF-16 without a
 * byte order mark (a NUL in every other byte, as ASCII text in UTF-16 has), or undefined. Read as
 * UTF-8 such a file would be text with NUL characters, or one field per line.
 */
export function utf16WithoutBom(bytes: Uint8Array): string | undefined {
  const n = Math.min(bytes.length, 512) & ~1;
  if (n < 4) return undefined;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0 && bytes[i + 1] !== 0) evenNul++;
    if (bytes[i + 1] === 0 && bytes[i] !== 0) oddNul++;
  }
  const pairs = n / 2;
  if (oddNul >= pairs * 0.75)
    return 'the file looks like UTF-16 (little-endian) without a byte order mark; read it with --encoding utf16';
  if (evenNul >= pairs * 0.75)
    return (
      'the file looks like UTF-16 (big-endian) without a byte order mark, which grove reads only with one; ' +
      'convert it (iconv -f UTF-16BE -t UTF-8) or add the mark (FE FF)'
    );
  return undefined;
}
