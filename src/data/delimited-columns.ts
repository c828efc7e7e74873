/**
 * The delimited-text reader's columns: the header record checked and turned into one builder per
 * column, and the builders finished into a {@link Dataset} at the end of the input.
 */

import { escapeControl, GroveError } from '../core/errors.js';
import { CategoricalBuilder } from './categorical-builder.js';
import type { ColumnBuilder, ColumnContext } from './column-builder.js';
import { planColumns } from './column-plan.js';
import type { Column, Dataset } from './dataset.js';
import { KEEPS_NO_TEXT } from './delimited-number-run.js';
import type { DelimitedReadOptions } from './delimited-options.js';
import { delimiterName, SNIFFED_DELIMITERS } from './delimiter-sniff.js';
import { NumericBuilder } from './text-columns.js';
import { INVALID_UTF8 } from './text-decode.js';
import { NUMBER_RE } from './tokens.js';

/** Rows each column has room for before the size estimate (or growth) sets in. */
const INITIAL_ROWS = 1024;

/** The columns named by the header record. */
export interface DelimitedColumns {
  names: string[];
  /** Index of the class column, or -1 with `noTarget`. */
  targetIdx: number;
  builders: ColumnBuilder[];
  /** 1 where column `j` is a numeric builder that the tokenizer's fast path may fill directly. */
  fastNumeric: Uint8Array;
  /** Columns left out by the `drop` / `features` options. */
  dropped: ReadonlySet<number>;
}

/** The column names, from the header's cells or, with `header: false`, `x0, x1, ...`; checked. */
function columnNames(cells: Uint8Array[], headerLine: number, options: DelimitedReadOptions, ctx: ColumnContext) {
  const file = ctx.file;
  const fields = cells.map((bytes, j) => {
    const text = ctx.decoder.decode(bytes, 0, bytes.length);
    if (text === undefined)
      throw new GroveError(INVALID_UTF8, { file, code: 'E_DATA', row: headerLine, column: String(j + 1) });
    return text.trim();
  });
  const names = options.header !== false ? fields : fields.map((_, k) => `x${k}`);
  const seen = new Map<string, number>();
  for (let j = 0; j < names.length; j++) {
    const name = names[j];
    if (name === '')
      throw new GroveError(`empty column name in the header (column ${j + 1})`, {
        file,
        code: 'E_DATA',
        row: headerLine,
        column: String(j + 1),
      });
    if (seen.has(name))
      throw new GroveError(`duplicate column name '${name}' in the header`, {
        file,
        code: 'E_DATA',
        row: headerLine,
        column: name,
      });
    seen.set(name, j);
  }
  // Rows to predict (noTarget) may have a single feature; a table to train on needs two columns.
  if (names.length === 1 && !options.noTarget) {
    // No delimiter: the comma by default, none of the sniffed ones found either.
    const d = options.delimiter;
    const hint =
      d === undefined
        ? `no comma, and none of ${SNIFFED_DELIMITERS.map(delimiterName).join(', ')}; ` +
          'give the delimiter with --delimiter'
        : `split on ${delimiterName(d)}; is that the file's delimiter? --delimiter sets it`;
    throw new GroveError(`only one column '${names[0]}' in the header; need features and a target (${hint})`, {
      file,
      code: 'E_DATA',
      row: headerLine,
    });
  }
  return { names, seen };
}

/**
 * The header record's cells (or, without a header, the first record's) as checked column names,
 * the target, and a builder for each column.
 */
export function startColumns(
  cells: Uint8Array[],
  headerLine: number,
  options: DelimitedReadOptions,
  ctx: ColumnContext,
): DelimitedColumns {
  const { names, seen } = columnNames(cells, headerLine, options, ctx);
  const { targetIdx, forced, dropped } = planColumns(names, seen, options);
  const fastNumeric = new Uint8Array(names.length);
  const fastOk = [...ctx.na.set].some((t) => NUMBER_RE.test(t)) ? 0 : 1;
  const builders = names.map((name, j): ColumnBuilder => {
    if (j === targetIdx) return new CategoricalBuilder(name, ctx, true, INITIAL_ROWS);
    const kind = forced.get(name);
    if (kind === 'categorical') return new CategoricalBuilder(name, ctx, false, INITIAL_ROWS);
    // Not when a missing token looks like a number (`--na -999`); a forced column keeps no texts.
    fastNumeric[j] = fastOk === 0 ? 0 : kind === 'numeric' ? KEEPS_NO_TEXT : 1;
    return new NumericBuilder(name, ctx, kind === 'numeric', INITIAL_ROWS);
  });
  return { names, targetIdx, builders, fastNumeric, dropped };
}

/** The Dataset of `n` rows from the columns' builders; their warnings go to `options.onWarning`. */
export function finishColumns(columns: DelimitedColumns, n: number, options: DelimitedReadOptions): Dataset {
  const file = options.source;
  const { builders, targetIdx, names, dropped } = columns;
  const features: Column[] = [];
  const warnings: string[] = [];
  let labels: Int32Array = new Int32Array(0);
  let classes: Dataset['classes'] = [];
  for (let j = 0; j < builders.length; j++) {
    const b = builders[j];
    if (j === targetIdx) {
      ({ labels, classes } = (b as CategoricalBuilder).finishLabels(n));
      continue;
    }
    if (dropped.has(j)) continue;
    const { column, warning } = (b as NumericBuilder | CategoricalBuilder).finish(n);
    features.push(column);
    if (warning !== undefined) warnings.push(warning);
  }
  const onWarning = options.onWarning;
  // One printable line each, as GroveError messages are (names and cells may hold control characters).
  if (onWarning) for (const w of warnings) onWarning(escapeControl(file !== undefined ? `${file}: ${w}` : w));
  const targetName = targetIdx >= 0 ? names[targetIdx] : '';
  if (targetIdx < 0) labels = new Int32Array(n).fill(-1);
  return { features, labels, classes, targetName, nRows: n, ...(file !== undefined ? { source: file } : {}) };
}
