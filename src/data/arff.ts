import { badArgument } from '../core/args.js';
/**
 * Weka ARFF text parser. PURE: no Node imports (files are read by the ARFF entry of src/sources/formats.ts).
 *
 * Supported: `@relation`, `@attribute <name> numeric|real|integer|string|{v1, v2, 'v 3'}`,
 * `@data`, `%` comments (whole lines, or the rest of a line outside quotes), blank lines,
 * names and values quoted with `'` or `"` (backslash escapes), `?` missing values (a quoted `'?'`
 * is the value `?`, as in Weka), CRLF line ends,
 * and Weka's optional instance weight `{w}` after the last value of a data line.
 * Not supported (clear GroveError): sparse data lines `{i v, ...}`, `date` and `relational`
 * attributes.
 *
 * Nominal attributes keep their declared value order (values that never occur included); `string`
 * attributes become categorical features with categories in order of appearance. The class is the
 * last attribute unless `options.target` names another; it must be nominal (or string): a numeric
 * class is refused, since grove classifies. Its declared values are checked, but class codes
 * follow encodeTable's rule (sorted), the same as for a CSV copy of the data.
 */

import { GroveError } from '../core/errors.js';
import { describeType } from './check.js';
import type { Dataset } from './dataset.js';
import { encodeTable } from './encode.js';
import type { DeclaredType, EncodeOptions } from './encode-options.js';

export type ArffAttributeType = DeclaredType | { kind: 'string' };

export interface ArffAttribute {
  name: string;
  type: ArffAttributeType;
  /** 1-based line of the `@attribute` declaration. */
  line: number;
}

export interface ArffDocument {
  relation: string;
  attributes: ArffAttribute[];
  /**
   * Data values as text (unquoted), one array per data line; a missing value (an unquoted `?`) is
   * the empty string, so a quoted `'?'` stays the category `?`.
   */
  rows: string[][];
  /** 1-based line number of each data row. */
  rowNumbers: Int32Array;
  /** Instance weights when any data line carries a `{w}` weight (others weigh 1). */
  weights?: Float64Array;
}

interface Token {
  text: string;
  quoted: boolean;
}

/** Cursor over one line; `%` outside quotes ends the line. */
class LineScanner {
  pos = 0;
  constructor(
    readonly s: string,
    readonly line: number,
    readonly file: string | undefined,
  ) {}

  skipSpace(): void {
    while (this.pos < this.s.length && /\s/.test(this.s[this.pos])) this.pos++;
  }

  atEnd(): boolean {
    this.skipSpace();
    return this.pos >= this.s.length || this.s[this.pos] === '%';
  }

  fail(message: string, column?: string): never {
    throw new GroveError(message, {
      file: this.file,
      code: 'E_DATA',
      row: this.line,
      ...(column !== undefined ? { column } : {}),
    });
  }

  /** A quoted string starting at `pos` (which holds the quote character). */
  readQuoted(): string {
    const q = this.s[this.pos++];
    let out = '';
    while (this.pos < this.s.length) {
      const c = this.s[this.pos++];
      if (c === q) return out;
      if (c === '\\' && this.pos < this.s.length) {
        const e = this.s[this.pos++];
        out += e === 'n' ? '\n' : e === 't' ? '\t' : e === 'r' ? '\r' : e;
      } else {
        out += c;
      }
    }
    return this.fail(`unterminated quoted string (missing ${q})`);
  }

  /** A name: quoted, or a run of characters up to whitespace, `{` or `%`. */
  readName(): string {
    this.skipSpace();
    const c = this.s[this.pos];
    if (c === "'" || c === '"') return this.readQuoted();
    const start = this.pos;
    while (this.pos < this.s.length && !/[\s{%]/.test(this.s[this.pos])) this.pos++;
    return this.s.slice(start, this.pos);
  }

  /**
   * Comma-separated values up to the end of the line or, with `close`, up to that character.
   * Unquoted values are trimmed.
   */
  readList(close?: string): Token[] {
    const out: Token[] = [];
    for (;;) {
      this.skipSpace();
      let token: Token;
      const c = this.s[this.pos];
      if (c === "'" || c === '"') {
        token = { text: this.readQuoted(), quoted: true };
        this.skipSpace();
      } else {
        const start = this.pos;
        // A `{...}` group (instance weight) is one token even if it holds commas.
        if (c === '{' && close === undefined) {
          const end = this.s.indexOf('}', this.pos);
          this.pos = end < 0 ? this.s.length : end + 1;
        }
        while (
          this.pos < this.s.length &&
          this.s[this.pos] !== ',' &&
          this.s[this.pos] !== '%' &&
          this.s[this.pos] !== close
        ) {
          this.pos++;
        }
        token = { text: this.s.slice(start, this.pos).trim(), quoted: false };
      }
      out.push(token);
      const d = this.s[this.pos];
      if (d === ',') {
        this.pos++;
        continue;
      }
      if (close !== undefined) {
        if (d !== close) this.fail(`expected '${close}'`);
        this.pos++;
        return out;
      }
      if (d === undefined || d === '%') return out;
      this.fail(`unexpected character '${d}' after a quoted value`);
    }
  }
}

/** Parse ARFF text into its declarations and data rows (no encoding yet). */
export function parseArffDocument(text: string, file?: string): ArffDocument {
  if (file !== undefined && typeof file !== 'string')
    badArgument('parseArffDocument', 'file', 'a file name (a string)', file);
  if (typeof text !== 'string')
    throw new GroveError(`ARFF text must be a string, got ${describeType(text)}`, { file, code: 'E_DATA' });
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  let relation = '';
  const attributes: ArffAttribute[] = [];
  const names = new Set<string>();
  const rows: string[][] = [];
  const rowNumbers: number[] = [];
  const weights: number[] = [];
  let weighted = false;
  let inData = false;
  if (lines.every((l) => l.trim() === '')) throw new GroveError('empty file', { file, code: 'E_DATA' });

  for (let k = 0; k < lines.length; k++) {
    const lineNo = k + 1;
    const trimmed = lines[k].trim();
    if (trimmed === '' || trimmed[0] === '%') continue;
    // Explicit type so TypeScript treats `sc.fail(...)` (returns never) as ending the branch.
    const sc: LineScanner = new LineScanner(lines[k], lineNo, file);

    if (inData) {
      if (trimmed[0] === '{') sc.fail('sparse ARFF is not supported (data lines in {index value, ...} form)');
      const { cells, weight } = readDataLine(sc, attributes.length);
      if (weight !== undefined) weighted = true;
      rows.push(cells);
      rowNumbers.push(lineNo);
      weights.push(weight ?? 1);
      continue;
    }

    const keyword = /^@(\w+)/.exec(trimmed)?.[1].toLowerCase();
    sc.pos = lines[k].indexOf('@') + 1 + (keyword?.length ?? 0);
    switch (keyword) {
      case 'relation':
        relation = sc.atEnd() ? '' : sc.readName();
        break;
      case 'attribute':
        attributes.push(readAttribute(sc, names, lineNo));
        break;
      case 'data':
        if (attributes.length === 0) sc.fail('@data before any @attribute');
        inData = true;
        break;
      case 'end':
        return sc.fail('relational attributes (@end) are not supported');
      default:
        sc.fail(
          keyword ? `unknown declaration '@${keyword}'` : `unexpected line before @data: '${trimmed.slice(0, 40)}'`,
        );
    }
  }
  if (!inData) throw new GroveError('no @data section', { file, code: 'E_DATA' });

  return {
    relation,
    attributes,
    rows,
    rowNumbers: Int32Array.from(rowNumbers),
    ...(weighted ? { weights: Float64Array.from(weights) } : {}),
  };
}

/** A data line's cells ('?' unquoted: missing, as '') and its instance weight when it gives one (`{w}` last). */
function readDataLine(sc: LineScanner, attributeCount: number): { cells: string[]; weight?: number } {
  const tokens = sc.readList();
  let weight: number | undefined;
  const last = tokens[tokens.length - 1];
  if (tokens.length === attributeCount + 1 && !last.quoted && last.text.startsWith('{')) {
    const m = /^\{\s*([^}]*?)\s*\}$/.exec(last.text);
    weight = m ? Number(m[1]) : NaN;
    if (!m || m[1] === '' || !Number.isFinite(weight) || weight < 0) {
      sc.fail(`bad instance weight '${last.text}' (expected {w} with a number w >= 0)`);
    }
    tokens.pop();
  }
  return { cells: tokens.map((t) => (!t.quoted && t.text === '?' ? '' : t.text)), weight };
}

/** An @attribute declaration after its keyword: a new name and a type grove reads. */
function readAttribute(sc: LineScanner, names: Set<string>, line: number): ArffAttribute {
  const name = sc.readName();
  if (name === '') sc.fail('@attribute without a name');
  if (names.has(name)) sc.fail(`duplicate attribute name '${name}'`, name);
  names.add(name);
  sc.skipSpace();
  let type: ArffAttributeType;
  if (sc.s[sc.pos] === '{') {
    sc.pos++;
    const values = sc.readList('}').map((t) => t.text);
    if (values.length === 1 && values[0] === '') sc.fail(`nominal attribute '${name}' has no values`, name);
    const seen = new Set<string>();
    for (const v of values) {
      if (seen.has(v)) sc.fail(`nominal attribute '${name}' declares the value '${v}' twice`, name);
      seen.add(v);
    }
    type = { kind: 'categorical', categories: values };
  } else {
    const word = sc.atEnd() ? '' : sc.readName().toLowerCase();
    if (word === 'numeric' || word === 'real' || word === 'integer') type = { kind: 'numeric' };
    else if (word === 'string') type = { kind: 'string' };
    else if (word === 'date') sc.fail(`date attributes are not supported ('${name}')`, name);
    else if (word === 'relational') sc.fail(`relational attributes are not supported ('${name}')`, name);
    else
      sc.fail(
        `unknown type '${word}' for attribute '${name}' (expected numeric, real, integer, string or {values})`,
        name,
      );
  }
  if (!sc.atEnd()) sc.fail(`unexpected text after the type of attribute '${name}'`, name);
  return { name, type, line };
}

/**
 * Parse ARFF text into a Dataset using the declared attribute types. `options.categorical` /
 * `options.numeric` still override a declaration; `options.declaredTypes` is ignored (the file
 * declares the types).
 */
export function parseArff(text: string, options: EncodeOptions = {}): Dataset {
  if (options === null || typeof options !== 'object')
    throw new GroveError(`parseArff: options must be an object, got ${describeType(options)}`, { code: 'E_OPTION' });
  const file = options.source;
  const doc = parseArffDocument(text, file);
  const header = doc.attributes.map((a) => a.name);
  const declaredTypes: Record<string, DeclaredType> = {};
  const userNumeric = new Set(options.numeric ?? []);
  const categorical = [...(options.categorical ?? [])];
  for (const a of doc.attributes) {
    if (a.type.kind === 'string') {
      if (!userNumeric.has(a.name)) categorical.push(a.name);
    } else {
      declaredTypes[a.name] = a.type;
    }
  }
  if (!options.noTarget) refuseNumericClass(doc.attributes, options);
  if (doc.rows.length === 0) throw new GroveError('no data rows (nothing after @data)', { file, code: 'E_DATA' });
  const ds = encodeTable(header, doc.rows, {
    ...options,
    categorical,
    declaredTypes,
    rowNumbers: doc.rowNumbers,
    naTokens: [''],
  });
  return doc.weights ? { ...ds, weights: doc.weights } : ds;
}

/** A numeric class attribute cannot be learned by a classifier: say how to get a nominal one. */
function refuseNumericClass(attributes: readonly ArffAttribute[], options: EncodeOptions): void {
  const target =
    options.target === undefined
      ? attributes[attributes.length - 1]
      : attributes.find((a) => a.name === options.target);
  if (target === undefined || target.type.kind !== 'numeric' || options.categorical?.includes(target.name)) return;
  const nominal = attributes.filter((a) => a !== target && a.type.kind !== 'numeric').map((a) => a.name);
  const other =
    nominal.length > 0
      ? `name a nominal attribute as the target (${nominal.slice(0, 10).join(', ')})`
      : 'choose another target';
  throw new GroveError(
    `the class attribute '${target.name}' is numeric, and grove needs a nominal class: discretise it ` +
      `(e.g. Weka's unsupervised Discretize filter, or declare it as {v1, v2, ...}), ${other}, ` +
      'or list it as categorical to use each value as a class',
    { file: options.source, code: 'E_DATA', row: target.line, column: target.name },
  );
}
