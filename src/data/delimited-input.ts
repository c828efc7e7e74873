/**
 * The delimited-text reader's input: chunks in, the bytes to tokenize out. Drops a UTF-8 byte
 * order mark, transcodes UTF-16 (named, or announced by its BOM) to UTF-8, and puts the unparsed
 * tail of the last chunk (a field the chunk's end cut) before the next chunk in one reused buffer.
 */

import { GroveError } from '../core/errors.js';
import { Utf16ToUtf8, utf16WithoutBom } from './text-decode.js';

export class DelimitedInput {
  private utf16: Utf16ToUtf8 | undefined;
  /** First bytes, held until the BOM can be seen. */
  private head: Uint8Array | undefined = new Uint8Array(0);
  /** Bytes being scanned; `work[carryStart..carryEnd)` is the unparsed tail of the last chunk (a cut field). */
  private work = new Uint8Array(0);
  private carryStart = 0;
  private carryEnd = 0;
  /** The input's bytes (after transcoding) taken so far. */
  bytesSeen = 0;

  constructor(utf16: boolean) {
    if (utf16) this.utf16 = new Utf16ToUtf8();
  }

  /** Whether the input is transcoded from UTF-16 (its size in bytes then says little about its rows). */
  get transcoding(): boolean {
    return this.utf16 !== undefined;
  }

  /**
   * The bytes to scan after `chunk`: the carried tail, then the chunk's bytes; undefined while the
   * first bytes are too few to tell a BOM. Throws the UTF-16 decoder's GroveError on bad input.
   */
  next(chunk: Uint8Array, final: boolean): Uint8Array | undefined {
    if (this.head !== undefined) {
      const joined = new Uint8Array(this.head.length + chunk.length);
      joined.set(this.head);
      joined.set(chunk, this.head.length);
      if (joined.length < 3 && !final) {
        this.head = joined;
        return undefined;
      }
      this.head = undefined;
      if ((joined[0] === 0xff && joined[1] === 0xfe) || (joined[0] === 0xfe && joined[1] === 0xff)) {
        this.utf16 ??= new Utf16ToUtf8();
        chunk = joined;
      } else if (this.utf16 === undefined && joined[0] === 0xef && joined[1] === 0xbb && joined[2] === 0xbf) {
        chunk = joined.subarray(3);
      } else {
        const utf16 = this.utf16 === undefined ? utf16WithoutBom(joined) : undefined;
        if (utf16 !== undefined) throw new GroveError(utf16, { code: 'E_DATA' });
        chunk = joined;
      }
    }
    if (this.utf16 !== undefined) chunk = this.utf16.push(chunk, final);
    this.bytesSeen += chunk.length;
    const carryLen = this.carryEnd - this.carryStart;
    const need = carryLen + chunk.length;
    if (need > this.work.length) {
      const next = new Uint8Array(Math.max(need, this.work.length * 2));
      next.set(this.work.subarray(this.carryStart, this.carryEnd));
      this.work = next;
    } else if (carryLen > 0) {
      this.work.copyWithin(0, this.carryStart, this.carryEnd);
    }
    this.work.set(chunk, carryLen);
    this.carryStart = 0;
    this.carryEnd = need;
    return this.work.subarray(0, need);
  }

  /** The scanner consumed the first `consumed` bytes that `next` gave: carry the rest to the next chunk. */
  keep(consumed: number): void {
    this.carryStart = consumed;
  }

  /** Bytes carried to the next chunk. */
  get carried(): number {
    return this.carryEnd - this.carryStart;
  }
}
