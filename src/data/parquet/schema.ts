/**
 * Which Parquet columns the decoder reads, and as what: a flat schema (every column a leaf of the
 * root, none repeated) of integers, floats (FLOAT16 too), decimals of up to 18 digits, booleans and
 * UTF-8 strings.
 * Anything else (nested or repeated columns, wider decimals, dates, times, timestamps, INT96, binary,
 * enums, JSON, UUID) is a {@link ParquetUnsupported}: the caller reads such a file another way, so its columns keep the
 * kinds and warnings that reader gives.
 *
 * PURE: no Node imports.
 */

import type { TypedField } from '../typed-fields.js';
import { ParquetUnsupported } from './errors.js';
import { PHYSICAL, REPETITION, type SchemaElement } from './metadata.js';

/** One column of a flat file: its schema element's facts and how it is read. */
export interface ParquetColumn {
  field: TypedField;
  physical: number;
  /** OPTIONAL: each value has a definition level (1 present, 0 null). */
  optional: boolean;
  /** An INT32 or INT64 holding an unsigned integer. */
  unsigned: boolean;
  /** A DECIMAL's scale (its unscaled integer is divided by 10^scale), else undefined. */
  scale?: number;
  /** FIXED_LEN_BYTE_ARRAY: bytes per value. */
  typeLength: number;
  /** A FLOAT16: a 2-byte little-endian IEEE half, else a DECIMAL's big-endian bytes. */
  float16?: boolean;
}

/** Logical type ids (the `LogicalType` union's members). */
const LOGICAL = { STRING: 1, DECIMAL: 5, INTEGER: 10, FLOAT16: 15 } as const;
/** Converted types (the older annotations): UTF8, DECIMAL. */
const CONVERTED_UTF8 = 0;
const CONVERTED_DECIMAL = 5;
/** Decimals up to this precision: DuckDB holds them in 64 bits and casts them with one rule. */
const MAX_DECIMAL_PRECISION = 18;
/** Converted types read as plain integers: INT_8…INT_64 (signed) and UINT_8…UINT_64. */
const CONVERTED_INT = new Map<number, { bits: number; signed: boolean }>([
  [11, { bits: 8, signed: false }],
  [12, { bits: 16, signed: false }],
  [13, { bits: 32, signed: false }],
  [14, { bits: 64, signed: false }],
  [15, { bits: 8, signed: true }],
  [16, { bits: 16, signed: true }],
  [17, { bits: 32, signed: true }],
  [18, { bits: 64, signed: true }],
]);

/** DuckDB's names of the integer types (the names its reader gives these columns). */
function integerTypeName(bits: number, signed: boolean): string {
  const name = bits === 8 ? 'TINYINT' : bits === 16 ? 'SMALLINT' : bits === 32 ? 'INTEGER' : 'BIGINT';
  return signed ? name : `U${name}`;
}

function unsupported(e: SchemaElement, what: string): never {
  throw new ParquetUnsupported(`column '${e.name}': ${what}`);
}

/** The column a leaf element is read as. */
function leafColumn(e: SchemaElement): ParquetColumn {
  if (e.repetition === REPETITION.REPEATED) unsupported(e, 'repeated');
  // The format requires a repetition type on every field but the root; without one, another reader decides.
  if (e.repetition !== REPETITION.REQUIRED && e.repetition !== REPETITION.OPTIONAL)
    unsupported(e, 'no repetition type');
  const optional = e.repetition === REPETITION.OPTIONAL;
  const logical = e.logical && e.logical.id >= 0 ? e.logical : undefined;
  const column = (kind: TypedField['kind'], type: string, unsigned = false): ParquetColumn => ({
    field: { name: e.name, kind, type },
    physical: e.type!,
    optional,
    unsigned,
    typeLength: e.typeLength ?? 0,
  });
  if (logical?.id === LOGICAL.DECIMAL || (!logical && e.convertedType === CONVERTED_DECIMAL))
    return decimalColumn(e, column);
  switch (e.type) {
    case PHYSICAL.BOOLEAN:
      if (logical || e.convertedType !== undefined) unsupported(e, 'annotated boolean');
      return column('boolean', 'BOOLEAN');
    case PHYSICAL.FLOAT:
    case PHYSICAL.DOUBLE:
      if (logical || e.convertedType !== undefined) unsupported(e, 'annotated float');
      return column('number', e.type === PHYSICAL.FLOAT ? 'FLOAT' : 'DOUBLE');
    case PHYSICAL.INT32:
    case PHYSICAL.INT64: {
      const wide = e.type === PHYSICAL.INT64;
      let int = { bits: wide ? 64 : 32, signed: true };
      if (logical) {
        if (logical.id !== LOGICAL.INTEGER || logical.bitWidth === undefined) unsupported(e, 'annotated integer');
        int = { bits: logical.bitWidth, signed: logical.signed !== false };
      } else if (e.convertedType !== undefined) {
        const converted = CONVERTED_INT.get(e.convertedType);
        if (!converted) unsupported(e, 'annotated integer');
        int = converted;
      }
      if (wide ? int.bits !== 64 : int.bits > 32 || ![8, 16, 32].includes(int.bits)) unsupported(e, 'integer width');
      return column('number', integerTypeName(int.bits, int.signed), !int.signed);
    }
    case PHYSICAL.FIXED_LEN_BYTE_ARRAY:
      // DuckDB reads a FLOAT16 as FLOAT.
      if (logical?.id !== LOGICAL.FLOAT16 || e.typeLength !== 2) unsupported(e, 'fixed-length bytes');
      return { ...column('number', 'FLOAT'), float16: true };
    case PHYSICAL.BYTE_ARRAY: {
      const text = logical ? logical.id === LOGICAL.STRING : e.convertedType === CONVERTED_UTF8;
      if (!text) unsupported(e, 'binary, or text other than UTF-8 strings');
      return column('text', 'VARCHAR');
    }
    default:
      return unsupported(e, `physical type ${e.type}`);
  }
}

/**
 * A DECIMAL stored as INT32, INT64 or a fixed-length two's complement of at most 8 bytes, with a
 * precision of at most 18 (wider ones DuckDB casts by another rule, left to it).
 */
function decimalColumn(
  e: SchemaElement,
  column: (kind: TypedField['kind'], type: string) => ParquetColumn,
): ParquetColumn {
  const scale = e.logical?.scale ?? e.scale ?? 0;
  const precision = e.logical?.precision ?? e.precision ?? -1;
  const stored =
    e.type === PHYSICAL.INT32 ||
    e.type === PHYSICAL.INT64 ||
    (e.type === PHYSICAL.FIXED_LEN_BYTE_ARRAY && e.typeLength !== undefined && e.typeLength >= 1 && e.typeLength <= 8);
  if (!stored) unsupported(e, 'decimal stored as variable-length bytes or in more than 8 bytes');
  if (precision > MAX_DECIMAL_PRECISION) unsupported(e, `decimal of more than ${MAX_DECIMAL_PRECISION} digits`);
  if (precision < 1 || scale < 0 || scale > precision) unsupported(e, 'decimal without a valid precision and scale');
  const c = column('number', `DECIMAL(${precision},${scale})`);
  return { ...c, field: { ...c.field, decimal: { precision, scale } }, scale };
}

/** The columns of a flat schema (its root's leaves, in order), or a {@link ParquetUnsupported}. */
export function flatColumns(schema: readonly SchemaElement[]): ParquetColumn[] {
  const root = schema[0];
  if (root.numChildren !== schema.length - 1) throw new ParquetUnsupported('nested schema');
  const seen = new Set<string>();
  return schema.slice(1).map((e) => {
    if (e.numChildren !== undefined && e.numChildren > 0) unsupported(e, 'nested');
    // Names alike but for case: another reader decides what they become.
    const key = e.name.toLowerCase();
    if (seen.has(key)) unsupported(e, 'duplicate name');
    seen.add(key);
    return leafColumn(e);
  });
}
