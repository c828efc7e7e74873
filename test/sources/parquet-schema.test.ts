/**
 * Which leaves the Parquet decoder reads, and how: REQUIRED columns have no definition levels,
 * OPTIONAL ones do, and a leaf without a repetition type (which the format requires) is left to
 * another reader rather than guessed.
 */
import { describe, expect, it } from 'vitest';
import { ParquetUnsupported } from '../../src/data/parquet/errors.js';
import { PHYSICAL, REPETITION, type SchemaElement } from '../../src/data/parquet/metadata.js';
import { flatColumns } from '../../src/data/parquet/schema.js';

const root: SchemaElement = { name: 'schema', numChildren: 1 };
const leaf = (repetition?: number): SchemaElement => ({ name: 'x', type: PHYSICAL.DOUBLE, repetition });

describe('Parquet schema', () => {
  it('REQUIRED and OPTIONAL leaves: without and with definition levels', () => {
    expect(flatColumns([root, leaf(REPETITION.REQUIRED)])[0].optional).toBe(false);
    expect(flatColumns([root, leaf(REPETITION.OPTIONAL)])[0].optional).toBe(true);
  });

  it('a leaf without a repetition type, or a repeated one, is left to another reader', () => {
    expect(() => flatColumns([root, leaf()])).toThrow(ParquetUnsupported);
    expect(() => flatColumns([root, leaf()])).toThrow(/column 'x': no repetition type/);
    expect(() => flatColumns([root, leaf(REPETITION.REPEATED)])).toThrow(ParquetUnsupported);
  });
});
