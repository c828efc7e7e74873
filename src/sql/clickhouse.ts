import { GroveError } from '../core/errors.js';
import type { Dialect } from './dialect.js';

/**
 * `text` with backslash, `quote` and control characters written as backslash escapes: ClickHouse
 * reads escapes in quoted identifiers and string literals alike.
 */
export function backslashEscaped(text: string, quote: string): string {
  let out = '';
  for (const ch of text) {
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\0') out += '\\0';
    else out += ch;
  }
  return out;
}

const quote = (identifier: string): string => `\`${backslashEscaped(identifier, '`')}\``;
const string = (text: string): string => `'${backslashEscaped(text, "'")}'`;

/**
 * A double as a C99 hexadecimal float literal (`-0x1.8000000000000p+1`, `0x0.0000000000001p-1022`,
 * `inf`): its bits written out, which the server's number parser (strtod) reads back exactly —
 * subnormals included, where a decimal literal is refused as out of range, and where its decimal
 * parser may be 1 ulp off (docs/in-database.md).
 */
export function hexFloat(v: number): string {
  // Bin edges and thresholds are training values, never NaN: a NaN here is grove's bug, not the data's.
  if (Number.isNaN(v)) throw new GroveError('cannot write NaN as an exact SQL double', { code: 'E_DATA' });
  if (v === Number.POSITIVE_INFINITY) return 'inf';
  if (v === Number.NEGATIVE_INFINITY) return '-inf';
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, v);
  const high = view.getUint32(0);
  const sign = high >>> 31 ? '-' : '';
  const exponent = (high >>> 20) & 0x7ff;
  const mantissa = (high & 0xfffff).toString(16).padStart(5, '0') + view.getUint32(4).toString(16).padStart(8, '0');
  if (exponent === 0) return `${sign}0x0.${mantissa}p-1022`;
  return `${sign}0x1.${mantissa}p${exponent - 1023 >= 0 ? '+' : ''}${exponent - 1023}`;
}

/** Bytes in hex. */
function hexOf(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

const doubles = (xs: readonly number[]): string => `[${xs.map(hexFloat).join(', ')}]`;

/**
 * ClickHouse. The server this is tested with (18.16, Debian's) has no query parameters (they came
 * in 19.x), so a value is written as its bytes in hex — `unhex('…')` for text, the 8 bytes of the
 * double for a number, which also keeps it exact — and nothing from the data is ever parsed as SQL
 * (exact doubles grove generates are hexadecimal float literals: {@link hexFloat}). A bare 2.5 is
 * Float64, and an array of literals is one literal to the parser.
 */
export const clickhouseDialect: Dialect = {
  name: 'clickhouse',
  quote,
  string,
  doubleText: hexFloat,
  double: hexFloat,
  placeholder: (_i, v) => {
    if (typeof v === 'string') return `unhex('${hexOf(new TextEncoder().encode(v))}')`;
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setFloat64(0, v, true);
    return `reinterpretAsFloat64(unhex('${hexOf(bytes)}'))`;
  },

  doubleType: 'Float64',
  intType: (max) => (max < 256 ? 'UInt8' : max < 65536 ? 'UInt16' : 'UInt32'),
  trim: (e) => `replaceRegexpAll(${e}, '^ +| +$', '')`,
  toDouble: (e) => `toFloat64OrNull(toString(${e}))`,
  // Not through text: the server's text-to-number parser may be 1 ulp off (docs/in-database.md).
  numberToDouble: (e) => `toFloat64(${e})`,
  // Date and Date32 count days; DateTime seconds; DateTime64 seconds with their fraction.
  timeToSeconds: (e, kind) => (kind === 'date' ? `toFloat64(${e}) * 86400` : `toFloat64(${e})`),
  toText: (e) => `toString(${e})`,
  fullMatch: (e, p) => `match(${e}, ${p})`,
  nanToNull: (e) => `if(isNaN(${e}), NULL, ${e})`,
  boolToInt: (e) => `toInt32(${e})`,
  rowNumber: 'rowNumberInAllBlocks()',

  integers: (xs) => `[${Array.prototype.join.call(xs, ', ')}]`,
  doubles,
  strings: (xs) => `[${xs.map(string).join(', ')}]`,
  array: (items) => `[${items.join(', ')}]`,
  // 0 when absent or NULL; Int32 as boolToInt is, so a level's branches (codes and bits) share a type.
  position: (names, value) => `toInt32(indexOf(${names}, ${value}))`,
  // An array lookup: a CASE (multiIf) evaluates every branch for every row.
  element: (index, values) => `[${values.join(', ')}][toUInt32(${index}) + 1]`,
  // One hash lookup a row: a CASE (multiIf) would compare the value with every category.
  codeOf: (value, keys, missing) =>
    `ifNull(transform(${value}, [${keys.join(', ')}], [${keys.map((_, i) => i).join(', ')}], ${missing}), ${missing})`,
  // One array literal of hexadecimal floats: exact, and one node of the syntax tree, where an array
  // of `reinterpretAsFloat64(unhex(…))` calls is slow to analyse (docs/in-database.md).
  doubleList: (values) => doubles(values),
  // A lambda applied to one-element arrays binds each value once (ClickHouse names an expression by
  // its text: a value written into the body at each use would be analysed at each use).
  bindOnce: (params, values, body) => {
    const head = params.length === 1 ? params[0] : `(${params.join(', ')})`;
    return `arrayMap(${head} -> ${body}, ${values.map((v) => `[${v}]`).join(', ')})[1]`;
  },

  repeatIndex: (count) => `arrayJoin(range(toUInt32(${count})))`,

  createTemporary: (name, select) => `CREATE TEMPORARY TABLE ${name} ENGINE = Memory AS ${select}`,
  dropTemporary: (name) => `DROP TEMPORARY TABLE IF EXISTS ${name}`,
  groupByEveryCode: (relation, codes) => [
    `SELECT node, y, toUInt32(fi - 1) AS f, code, sum(w) AS weight, toFloat64(count()) AS n FROM ${relation} ` +
      `ARRAY JOIN arrayEnumerate([${codes.map((c) => `toUInt32(${c})`).join(', ')}]) AS fi, ` +
      `[${codes.map((c) => `toUInt32(${c})`).join(', ')}] AS code GROUP BY node, y, f, code`,
  ],

  literalLists: true,
  listColumns: false,
  flatLevels: true,
};
