/**
 * JSON Lines (`.jsonl`, `.ndjson`): one JSON object per line, read with the rules of
 * {@link datasetFromRows} (columns = the first object's keys; numbers, strings, booleans, null).
 * Lines stream in and each value goes straight into its typed column ({@link TypedTableBuilder}'s
 * value sinks): memory holds the columns, not the file's text or one object per row. PURE
 * (browser-safe): the caller splits the file into lines (Node's file reader, the explore page's).
 */

import { GroveError } from '../core/errors.js';
import { listColumns } from './column-plan.js';
import type { Dataset } from './dataset.js';
import { TypedTableBuilder } from './typed-columns.js';
import type { TypedReadOptions, ValueSink } from './typed-fields.js';

/** Rows the columns start with (they grow by half as needed). */
const FIRST_CAPACITY = 1 << 14;

/** A cell's JS value as a sink takes it; other types and non-finite numbers are errors. */
function cellValue(
  v: unknown,
  file: string | undefined,
  row: number,
  column: string,
): number | string | boolean | null {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') {
    if (!Number.isFinite(v))
      throw new GroveError(`value ${v} is not a finite number`, { file, code: 'E_DATA', row, column });
    return v;
  }
  throw new GroveError(`unsupported value of type ${typeof v} (use a number, string, boolean or null)`, {
    file,
    code: 'E_DATA',
    row,
    column,
  });
}

/**
 * Read JSON Lines from the file's lines (without their line ends); blank lines are skipped; rows
 * are numbered by line.
 */
export async function readJsonLineTexts(
  lines: AsyncIterable<string> | Iterable<string>,
  options: TypedReadOptions,
): Promise<Dataset> {
  const file = options.source;
  let header: string[] = [];
  let columnOf = new Map<string, number>();
  let builder: TypedTableBuilder | undefined;
  let sinks: Array<ValueSink | undefined> = [];
  let lineNumbers = new Int32Array(FIRST_CAPACITY);
  let rows = 0;
  let line = 0;
  for await (const raw of lines) {
    line++;
    const text = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new GroveError(`invalid JSON: ${(err as Error).message}`, { file, code: 'E_DATA', row: line });
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw new GroveError('expected one JSON object per line', { file, code: 'E_DATA', row: line });
    const object = value as Record<string, unknown>;
    if (!builder) {
      header = Object.keys(object);
      columnOf = new Map(header.map((name, j) => [name, j]));
      builder = new TypedTableBuilder(
        header.map((name) => ({ name, kind: 'value', type: 'JSON' })),
        FIRST_CAPACITY,
        options,
      );
      const b = builder;
      sinks = header.map((_, j) => b.sink(j) as ValueSink | undefined);
    }
    builder.reserve(rows + 1);
    if (rows === lineNumbers.length) {
      const grown = new Int32Array(Math.ceil(rows * 1.5));
      grown.set(lineNumbers);
      lineNumbers = grown;
    }
    for (const key of Object.keys(object))
      if (!columnOf.has(key))
        throw new GroveError(`key '${key}' is not a column of the first row (columns: ${listColumns(header)})`, {
          file,
          code: 'E_DATA',
          row: line,
          column: key,
        });
    for (let j = 0; j < header.length; j++) {
      const v = Object.hasOwn(object, header[j]) ? object[header[j]] : undefined;
      sinks[j]?.set(rows, v === undefined ? null : cellValue(v, file, line, header[j]));
    }
    lineNumbers[rows++] = line;
  }
  if (!builder) throw new GroveError('no data rows', { file, code: 'E_DATA' });
  return builder.finish(rows, lineNumbers);
}
