/**
 * The count-table constructors as `grove/extend` exports them (to test a measure by hand): the
 * arguments checked (a GroveError naming the function and argument, never a TypeError), then the
 * unchecked constructors the scanners use.
 */
import { badArgument, checkArrayLike, checkInteger } from '../core/args.js';
import * as table from './table.js';

/** {@inheritDoc table.createTable} */
export const createTable: typeof table.createTable = (branches, classes) => {
  checkInteger('createTable', 'branches', branches, 0, 2 ** 24);
  checkInteger('createTable', 'classes', classes, 0, 2 ** 24);
  if (branches * classes > 2 ** 26)
    badArgument('createTable', 'branches × classes', 'at most 2^26', branches * classes);
  return table.createTable(branches, classes);
};

/** {@inheritDoc table.tableFromCounts} */
export const tableFromCounts: typeof table.tableFromCounts = (rows) => {
  checkArrayLike('tableFromCounts', 'rows', rows);
  for (let b = 0; b < rows.length; b++) checkArrayLike('tableFromCounts', `rows[${b}]`, rows[b]);
  const cells = rows.length * (rows.length > 0 ? rows[0].length : 0);
  if (cells > 2 ** 26) badArgument('tableFromCounts', 'rows', 'at most 2^26 counts', cells);
  return table.tableFromCounts(rows);
};
