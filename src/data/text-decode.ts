/**
 * Text encodings of data files: decoding one cell's bytes to a string, strictly (bad UTF-8 is an
 * error, never U+FFFD, so two different Latin-1 words cannot silently become one category), and
 * UTF-16 turned into UTF-8 bytes for the byte-level tokenizer. PURE (TextDecoder/TextEncoder only).
 */

import { GroveError } from '../core/errors.js';

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
  const found = ALIASES.get(name.trim().toLowerCase());
  if (found === undefined)
    throw new GroveError(
      `option ${option}: unknown encoding '${name}' (expected one of ${TEXT_ENCODINGS.join(', ')})`,
      {
        code: 'E_OPTION',
      },
    );
  return found;
}

/** Decodes the bytes of one cell to a string. */
export class CellDecoder {
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  private readonly cp1252 = new TextDecoder('windows-1252');

  constructor(readonly encoding: TextEncodingName) {}

  /**
   * The text of `buf[s..e)`; returns `undefined` for bytes that are not valid in the encoding
   * (only UTF-8 can have such bytes), leaving the message to the caller, who knows the line.
   */
  decode(buf: Uint8Array, s: number, e: number): string | undefined {
    const n = e - s;
    let ascii = true;
    for (let p = s; p < e; p++) {
      if (buf[p] >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii || this.encoding === 'latin1') {
      if (n <= 64) {
        let out = '';
        for (let p = s; p < e; p++) out += String.fromCharCode(buf[p]);
        return out;
      }
      if (ascii) return this.cp1252.decode(buf.subarray(s, e));
      let out = '';
      for (let p = s; p < e; p += 4096)
        out += String.fromCharCode.apply(null, Array.from(buf.subarray(p, Math.min(e, p + 4096))));
      return out;
    }
    if (this.encoding === 'windows-1252') return this.cp1252.decode(buf.subarray(s, e));
    try {
      // utf8, and utf16 (transcoded to UTF-8 before the tokenizer sees it)
      return this.utf8.decode(buf.subarray(s, e));
    } catch {
      return undefined;
    }
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
