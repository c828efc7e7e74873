/** The header's checks and the options that pick the target and force a feature's kind, shared by every reader. */

import { GroveError } from '../core/errors.js';
import type { EncodeOptions } from './encode-options.js';

/** The header's names for a message (the first 30). */
export function listColumns(header: readonly string[]): string {
  const shown = header.slice(0, 30).join(', ');
  return header.length > 30 ? `${shown}, ... (${header.length} in all)` : shown;
}

/**
 * Each column's index by name, after checking the names are non-empty and distinct. Shared by the
 * readers of typed columns (Parquet, Arrow) and {@link encodeTable}.
 */
export function indexColumns(header: readonly string[], file: string | undefined): Map<string, number> {
  if (header.length === 0) throw new GroveError('no columns', { file, code: 'E_DATA' });
  const colIndex = new Map<string, number>();
  for (let j = 0; j < header.length; j++) {
    const name = header[j];
    if (name.trim() === '')
      throw new GroveError(`empty column name (column ${j + 1})`, { file, code: 'E_DATA', column: String(j + 1) });
    if (colIndex.has(name))
      throw new GroveError(`duplicate column name '${name}'`, { file, code: 'E_DATA', column: name });
    colIndex.set(name, j);
  }
  return colIndex;
}

/** Which column is the target and which features have a forced kind. */
export interface ColumnPlan {
  /** Index of the class column in the header, or -1 with `noTarget`. */
  targetIdx: number;
  /** Feature kinds forced by the `categorical` / `numeric` options. */
  forced: Map<string, 'numeric' | 'categorical'>;
  /** Header indexes of the columns the `drop` / `features` options leave out (never the target). */
  dropped: ReadonlySet<number>;
}

/**
 * Check `options.target`, `categorical`, `numeric` and `declaredTypes` against the header
 * (`colIndex`: name -> index, names already checked to be distinct and non-empty) and say which
 * column is the target. Shared by every reader so they refuse the same options the same way.
 */
export function planColumns(
  header: readonly string[],
  colIndex: ReadonlyMap<string, number>,
  options: EncodeOptions,
): ColumnPlan {
  const file = options.source;
  const nCols = header.length;
  let targetIdx = options.noTarget ? -1 : nCols - 1;
  if (options.target !== undefined && !options.noTarget) {
    const t = colIndex.get(options.target);
    if (t === undefined) {
      throw new GroveError(`unknown target column '${options.target}' (columns: ${listColumns(header)})`, {
        file,
        code: 'E_OPTION',
      });
    }
    targetIdx = t;
  }
  const targetName = targetIdx >= 0 ? header[targetIdx] : '';
  if (nCols < 2 && targetIdx >= 0) {
    throw new GroveError(`no feature columns: the only column is the target '${targetName}'`, { file, code: 'E_DATA' });
  }

  const forced = new Map<string, 'numeric' | 'categorical'>();
  for (const [kind, names] of [
    ['categorical', options.categorical],
    ['numeric', options.numeric],
  ] as const) {
    for (const name of names ?? []) {
      if (!colIndex.has(name)) {
        if (options.ignoreUnknownColumns) continue;
        throw new GroveError(`unknown ${kind} column '${name}' (columns: ${listColumns(header)})`, {
          file,
          code: 'E_OPTION',
          column: name,
        });
      }
      const prev = forced.get(name);
      if (prev !== undefined && prev !== kind) {
        throw new GroveError(`column '${name}' is listed as both categorical and numeric`, {
          file,
          code: 'E_OPTION',
          column: name,
        });
      }
      forced.set(name, kind);
    }
  }
  if (forced.get(targetName) === 'numeric') {
    throw new GroveError(`the target column '${targetName}' holds class labels and cannot be numeric`, {
      file,
      code: 'E_OPTION',
      column: targetName,
    });
  }
  if (options.declaredTypes) {
    for (const name of Object.keys(options.declaredTypes)) {
      if (!colIndex.has(name))
        throw new GroveError(`declared type for unknown column '${name}'`, { file, code: 'E_DATA', column: name });
    }
  }

  return { targetIdx, forced, dropped: droppedColumns(header, colIndex, targetIdx, options) };
}

/**
 * The header indexes `options.drop` and `options.features` leave out: every column not in
 * `features` (when given; the target is kept anyway) and every column in `drop`. Unknown names
 * and a dropped target are refused, naming the columns there are.
 */
function droppedColumns(
  header: readonly string[],
  colIndex: ReadonlyMap<string, number>,
  targetIdx: number,
  options: EncodeOptions,
): ReadonlySet<number> {
  const dropped = new Set<number>();
  if (options.drop === undefined && options.features === undefined) return dropped;
  const file = options.source;
  const indexOf = (name: string, what: string): number => {
    const j = colIndex.get(name);
    if (j === undefined)
      throw new GroveError(`unknown column '${name}' ${what} (columns: ${listColumns(header)})`, {
        file,
        code: 'E_OPTION',
        column: name,
      });
    return j;
  };
  if (options.features !== undefined) {
    const kept = new Set(options.features.map((name) => indexOf(name, 'among the features to keep')));
    for (let j = 0; j < header.length; j++) if (!kept.has(j) && j !== targetIdx) dropped.add(j);
  }
  for (const name of options.drop ?? []) {
    const j = indexOf(name, 'to drop');
    if (j === targetIdx)
      throw new GroveError(`cannot drop the target column '${name}'; choose another target column to drop it`, {
        file,
        code: 'E_OPTION',
        column: name,
      });
    dropped.add(j);
  }
  if (dropped.size + (targetIdx >= 0 ? 1 : 0) >= header.length)
    throw new GroveError('no feature columns left once the columns to drop are left out', { file, code: 'E_OPTION' });
  return dropped;
}
