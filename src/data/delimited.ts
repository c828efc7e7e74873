/**
 * The streaming reader of delimited text (CSV, TSV): bytes in, in chunks of any size from any
 * stream; typed columns out. A byte-level tokenizer (RFC 4180: quoted fields with embedded
 * delimiters, newlines and doubled quotes; CRLF, LF or CR line ends; a UTF-8 BOM; UTF-16 with a
 * BOM) hands each field's bytes straight to its column's builder (text-columns.ts): the file is
 * never one string and no row is ever an array of strings. PURE (browser-safe): Node's file reader
 * is the CSV entry of src/sources/formats.ts.
 *
 * The rules are encode.ts's. Besides: blank lines are skipped (a line of only spaces too); the
 * header row's names are trimmed and must be distinct and non-empty; every row must have the
 * header's number of fields; errors name the file, the line a record starts on (the header is
 * line 1 when it is the first line) and the column.
 */

import { GroveError } from '../core/errors.js';
import { describeType } from './check.js';
import { type ColumnBuilder, type ColumnContext, NaTokens } from './column-builder.js';
import type { Dataset } from './dataset.js';
import { type DelimitedColumns, finishColumns, startColumns } from './delimited-columns.js';
import { DelimitedInput } from './delimited-input.js';
import { type NumberRunState, numberRun } from './delimited-number-run.js';
import { checkReadOptions, type DelimitedReader, type DelimitedReadOptions } from './delimited-options.js';
import { sniffDelimiterByte } from './delimiter-sniff.js';
import type { NumericBuilder } from './text-columns.js';
import { CellDecoder } from './text-decode.js';
import { DEFAULT_NA_TOKENS } from './tokens.js';

export type { DelimitedReader, DelimitedReadOptions } from './delimited-options.js';

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const COMMA = 0x2c;

/**
 * A streaming reader of delimited text into a {@link Dataset}: `push` byte chunks as they come
 * (from a file, a decompressor, a network stream), then `finish`. Memory: the typed columns,
 * the dictionaries of categorical columns, one partial field, and the source text of the rare
 * numeric cells that a number does not spell exactly (`1.50`, `1e3`).
 *
 * @example
 * const reader = createDelimitedReader({ delimiter: '\t', target: 'species', source: 'iris.tsv' });
 * for await (const chunk of stream) reader.push(chunk);
 * const data = reader.finish();
 */
export function createDelimitedReader(options: DelimitedReadOptions = {}): DelimitedReader {
  return new DelimitedTextReader(options);
}

/** Parse CSV text (a string) into a Dataset; the same reader, fed the text's UTF-8 bytes. */
export function parseCsvText(text: string, options: DelimitedReadOptions = {}): Dataset {
  if (typeof text !== 'string') throw new GroveError('parseCsvText: text must be a string', { code: 'E_INPUT' });
  const reader = createDelimitedReader({ ...options, encoding: 'utf8' });
  reader.push(new TextEncoder().encode(text));
  return reader.finish();
}

/** The reader; the members {@link NumberRunState} names are the fast path's (delimited-number-run.ts). */
class DelimitedTextReader implements DelimitedReader, NumberRunState {
  private readonly file: string | undefined;
  delim: number;
  /** True until the delimiter is known: not given, it is sniffed from the first bytes. */
  private sniffing: boolean;
  private readonly stop = new Uint8Array(256);
  private readonly ctx: ColumnContext;
  private readonly input: DelimitedInput;
  private reserved = false;
  /** Bytes of the carried field already scanned (0: none), with its first line and `""` seen. */
  private resume = 0;
  private resumeLine = 1;
  private resumeEscapes = false;
  /** Whether the quoted field `closingQuote` last found holds doubled quotes. */
  private quoteEscapes = false;
  afterCR = false;
  line = 1;
  private recordLine = 1;
  fieldIndex = 0;
  /** Fields beyond the header's count in the current record. */
  private extraFields = 0;
  private scratch = new Uint8Array(256);

  // Header and columns.
  private names: string[] | undefined; // set once the header (or first record) is read
  /** The cells of the header record (or of the first record, without a header), as bytes. */
  private headerFields: Uint8Array[] = [];
  private headerLine = 1;
  private columns: DelimitedColumns | undefined;
  /** The columns' builders (`columns.builders`: a numeric one is replaced when it turns categorical). */
  builders: ColumnBuilder[] = [];
  /** 1 where column `j` is a numeric builder that the tokenizer's fast path may fill directly. */
  fastNumeric: Uint8Array = new Uint8Array(0);
  readonly canonicalDigits: number;
  private targetIdx = -1;
  rows = 0;
  private finished = false;
  /** The input's expected size in bytes (0: unknown). */
  private sizeHint = 0;

  constructor(private readonly options: DelimitedReadOptions) {
    checkReadOptions(options);
    this.file = options.source;
    this.delim = (options.delimiter ?? ',').charCodeAt(0);
    this.sniffing = options.delimiter === undefined;
    this.stop[this.delim] = 1;
    this.stop[LF] = 1;
    this.stop[CR] = 1;
    this.stop[QUOTE] = 1;
    this.canonicalDigits = options.float32 === true ? 6 : 15;
    const encoding = options.encoding ?? 'utf8';
    this.ctx = {
      file: this.file,
      decoder: new CellDecoder(encoding),
      na: new NaTokens(options.naTokens ?? DEFAULT_NA_TOKENS),
      float32: options.float32 === true,
    };
    this.input = new DelimitedInput(encoding === 'utf16');
    if (options.sizeHint !== undefined && options.sizeHint > 0) this.sizeHint = options.sizeHint;
  }

  push(chunk: Uint8Array): void {
    if (this.finished) throw new GroveError('push after finish', { code: 'E_INPUT' });
    if (!(chunk instanceof Uint8Array))
      throw new GroveError(`push: a chunk must be a Uint8Array, got ${describeType(chunk)}`, { code: 'E_INPUT' });
    this.feed(chunk, false);
  }

  finish(): Dataset {
    if (this.finished) throw new GroveError('finish called twice', { code: 'E_INPUT' });
    this.feed(new Uint8Array(0), true);
    this.finished = true;
    return this.build();
  }

  private fail(message: string, row?: number, column?: string): never {
    throw new GroveError(message, {
      file: this.file,
      code: 'E_DATA',
      ...(row !== undefined ? { row } : {}),
      ...(column !== undefined ? { column } : {}),
    });
  }

  /** The input's next bytes to the tokenizer, then, once, the columns sized for the whole input. */
  private feed(chunk: Uint8Array, final: boolean): void {
    let buf: Uint8Array | undefined;
    try {
      buf = this.input.next(chunk, final);
    } catch (e) {
      if (e instanceof GroveError) this.fail(e.message.replace(/^.*?: /, ''), this.line);
      throw e;
    }
    if (buf === undefined) return;
    if (this.sniffing) {
      this.sniffing = false;
      this.setDelimiter(sniffDelimiterByte(buf, this.file, this.options.onWarning));
    }
    this.input.keep(this.scan(buf, final));
    if (final || this.reserved || this.rows < 1000 || this.sizeHint === 0 || this.input.transcoding) return;
    // Size the columns for the whole input from the bytes per row so far, once.
    this.reserved = true;
    const rows = Math.ceil((this.sizeHint / (this.input.bytesSeen - this.input.carried)) * this.rows * 1.02) + 16;
    for (const b of this.builders) b.reserve(rows);
  }

  /** Read with delimiter byte `d` from now on. */
  private setDelimiter(d: number): void {
    this.stop[this.delim] = 0;
    this.delim = d;
    this.stop[d] = 1;
  }

  /**
   * Tokenize `buf` field by field. A field cut by the end of `buf` is left unconsumed (its start
   * is returned) unless `final`; the next chunk is appended to it and it is scanned again.
   */
  private scan(buf: Uint8Array, final: boolean): number {
    const n = buf.length;
    const stop = this.stop;
    const delim = this.delim;
    let pos = 0;
    for (;;) {
      if (this.afterCR) {
        if (pos >= n && !final) return pos;
        if (pos < n && buf[pos] === LF) pos++;
        this.afterCR = false;
      }
      if (pos >= n) {
        // End of the input at a field start: after a delimiter, the record's last field is empty.
        if (final && this.fieldIndex > 0) {
          this.field(buf, pos, pos, false, true);
          this.endRecord();
        }
        return pos;
      }
      if (this.fieldIndex === 0) this.recordLine = this.line;
      let after: number; // index after the field's terminator
      let term: number; // the terminator: delimiter, LF, CR, or -1 for the end of the input
      if (buf[pos] === QUOTE) {
        const p = this.closingQuote(buf, pos, final);
        if (p < 0) return pos;
        term = p + 1 < n ? buf[p + 1] : -1;
        after = p + 2;
        this.field(buf, pos + 1, p, this.quoteEscapes, term !== delim);
      } else {
        if (this.resume === 0) {
          const next = numberRun(this, buf, pos, n);
          if (next !== pos) {
            pos = next;
            continue;
          }
        }
        let p = pos + this.resume;
        this.resume = 0;
        while (p < n && stop[buf[p]] === 0) p++;
        if (p >= n) {
          if (!final) return this.cut(pos, p, this.line, false);
          term = -1;
        } else {
          term = buf[p];
          if (term === QUOTE)
            this.fail('malformed CSV: Invalid Opening Quote: a quote inside an unquoted field', this.line);
        }
        after = p + 1;
        this.field(buf, pos, p, false, term !== delim);
      }
      if (term === delim) {
        this.fieldIndex++;
        pos = after;
        continue;
      }
      this.endRecord();
      if (term === -1) return n;
      this.line++;
      if (term === CR) this.afterCR = true;
      pos = after;
    }
  }

  /**
   * The quoted field at `pos`: the index of its closing quote, with `quoteEscapes` set when it holds
   * doubled quotes; or -1 when the chunk ends inside it (kept for the next chunk by `cut`).
   */
  private closingQuote(buf: Uint8Array, pos: number, final: boolean): number {
    const n = buf.length;
    const delim = this.delim;
    let startLine = this.line;
    let p = pos + 1;
    let escapes = false;
    if (this.resume > 0) {
      // The rest of a field cut by the last chunk's end: go on where that scan stopped.
      p = pos + this.resume;
      startLine = this.resumeLine;
      escapes = this.resumeEscapes;
      this.resume = 0;
    }
    for (;;) {
      while (p < n) {
        const c = buf[p];
        if (c === QUOTE) break;
        if (c === LF) {
          if (buf[p - 1] !== CR) this.line++;
        } else if (c === CR) this.line++;
        p++;
      }
      if (p >= n) {
        if (final)
          this.fail('malformed CSV: Quote Not Closed: the quoted field runs to the end of the file', startLine);
        this.cut(pos, p, startLine, escapes);
        return -1;
      }
      if (p + 1 >= n) {
        if (final) break;
        this.cut(pos, p, startLine, escapes);
        return -1;
      }
      if (buf[p + 1] === QUOTE) {
        escapes = true;
        p += 2;
        continue;
      }
      const term = buf[p + 1];
      if (term !== delim && term !== LF && term !== CR)
        this.fail(
          `malformed CSV: Invalid Closing Quote: got ${JSON.stringify(String.fromCharCode(term))} ` +
            'after a closing quote instead of a delimiter or a line end',
          this.line,
        );
      break;
    }
    this.quoteEscapes = escapes;
    return p;
  }

  /**
   * The chunk ends inside the field starting at `fieldStart`, scanned up to `p`: keep it for the
   * next chunk, remembering where to go on (so a long field is not rescanned chunk after chunk).
   */
  private cut(fieldStart: number, p: number, startLine: number, escapes: boolean): number {
    this.resume = p - fieldStart;
    this.resumeLine = startLine;
    this.resumeEscapes = escapes;
    return fieldStart;
  }

  /** One field's content `buf[s..e)` (with doubled quotes if `escapes`); `last`: the record ends after it. */
  private field(buf: Uint8Array, s: number, e: number, escapes: boolean, last: boolean): void {
    if (escapes) {
      // Collapse "" to " in a scratch buffer.
      if (this.scratch.length < e - s) this.scratch = new Uint8Array((e - s) * 2);
      let k = 0;
      for (let p = s; p < e; p++) {
        this.scratch[k++] = buf[p];
        if (buf[p] === QUOTE) p++;
      }
      buf = this.scratch;
      s = 0;
      e = k;
    }
    const j = this.fieldIndex;
    if (j === 0 && last && this.ctx.decoder.isBlank(buf, s, e)) {
      // A blank line (or one of only spaces): no record. Undo the record's start.
      this.fieldIndex = -1;
      return;
    }
    const names = this.names;
    if (names === undefined) {
      this.headerFields.push(buf.slice(s, e));
      return;
    }
    if (j >= names.length) {
      this.extraFields++;
      return;
    }
    if (j === 0 && last && names.length > 1) this.fail(`expected ${names.length} fields, found 1`, this.recordLine);
    const b = this.builders[j];
    if (!b.cell(buf, s, e, this.rows, this.recordLine))
      this.toCategorical(j).cell(buf, s, e, this.rows, this.recordLine);
  }

  /** Column `j` met a cell that is not a number: from now on it is categorical. */
  private toCategorical(j: number): ColumnBuilder {
    const b = (this.builders[j] as NumericBuilder).toCategorical(this.rows);
    this.builders[j] = b;
    this.fastNumeric[j] = 0;
    return b;
  }

  endRecord(): void {
    const fields = this.fieldIndex + 1;
    this.fieldIndex = 0;
    if (fields === 0) return; // a blank line
    if (this.names === undefined) {
      this.startColumns();
      return;
    }
    const expected = this.names.length;
    if (this.extraFields > 0)
      this.fail(`expected ${expected} fields, found ${expected + this.extraFields}`, this.recordLine);
    if (fields < expected) this.fail(`expected ${expected} fields, found ${fields}`, this.recordLine);
    this.rows++;
  }

  /** The header (or, without one, the first record) is complete: check it and make the columns. */
  private startColumns(): void {
    const cells = this.headerFields;
    this.headerFields = [];
    this.headerLine = this.recordLine;
    // The delimiter given or sniffed (undefined: the default comma), for the message of a one-column header.
    const delimiter = this.options.delimiter ?? (this.delim !== COMMA ? String.fromCharCode(this.delim) : undefined);
    const columns = startColumns(cells, this.headerLine, { ...this.options, delimiter }, this.ctx);
    this.columns = columns;
    this.targetIdx = columns.targetIdx;
    this.names = columns.names;
    this.builders = columns.builders;
    this.fastNumeric = columns.fastNumeric;
    if (this.options.header === false) {
      // The first record was data: give its cells to the columns.
      for (let j = 0; j < cells.length; j++) {
        const bytes = cells[j];
        const b = this.builders[j];
        if (!b.cell(bytes, 0, bytes.length, 0, this.headerLine))
          this.toCategorical(j).cell(bytes, 0, bytes.length, 0, this.headerLine);
      }
      this.rows = 1;
    }
  }

  private build(): Dataset {
    const file = this.file;
    if (this.columns === undefined) throw new GroveError('empty file', { file, code: 'E_DATA' });
    const n = this.rows;
    if (n === 0) throw new GroveError('no data rows (the file has only a header)', { file, code: 'E_DATA' });
    return finishColumns(this.columns, n, this.options);
  }
}
