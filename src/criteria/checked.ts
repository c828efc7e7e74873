/**
 * The criterion building blocks as the public API exports them: each checks its arguments (a
 * GroveError naming the function and argument, never a TypeError) and then calls the unchecked
 * function the growers use on every candidate split, which stays free of the checks.
 */
import { badArgument, checkArrayLike, checkInteger, checkNumber, checkObject } from '../core/args.js';
import * as cart from './cart.js';
import * as gain from './gain.js';
import * as registry from './registry.js';
import * as table from './table.js';
import type { CountTable, Criterion } from './types.js';

/** Throw GroveError unless `t` is a consistent CountTable (as `createTable` / `tableFromCounts` make). */
export function checkTable(caller: string, t: unknown, name = 'table'): asserts t is CountTable {
  checkObject(caller, name, t);
  const c = t as Partial<Record<keyof CountTable, unknown>>;
  checkInteger(caller, `${name}.branches`, c.branches, 0);
  checkInteger(caller, `${name}.classes`, c.classes, 0);
  checkNumber(caller, `${name}.total`, c.total);
  const b = c.branches as number;
  const k = c.classes as number;
  const arrays: Array<[keyof CountTable, number]> = [
    ['counts', b * k],
    ['branchTotals', b],
    ['classTotals', k],
  ];
  for (const [key, length] of arrays) {
    const v = c[key];
    if (!(v instanceof Float64Array) || v.length !== length)
      badArgument(caller, `${name}.${key}`, `a Float64Array of ${length} counts`, v);
  }
}

/** Throw GroveError unless `c` looks like a Criterion: `better` 'higher' or 'lower', `evaluate` a function. */
function checkCriterion(caller: string, c: unknown): asserts c is Criterion {
  checkObject(caller, 'criterion', c);
  const { better, evaluate } = c as Partial<Criterion>;
  if (better !== 'higher' && better !== 'lower') badArgument(caller, 'criterion.better', "'higher' or 'lower'", better);
  if (typeof evaluate !== 'function') badArgument(caller, 'criterion.evaluate', 'a function', evaluate);
}

/** Throw GroveError unless `counts[offset .. offset + classes)` is a row of counts and `total` a number. */
function checkRow(caller: string, counts: unknown, offset: unknown, classes: unknown, total: unknown): void {
  checkArrayLike(caller, 'counts', counts);
  const n = (counts as ArrayLike<unknown>).length;
  checkInteger(caller, 'offset', offset, 0, n);
  checkInteger(caller, 'classes', classes, 0, n - (offset as number));
  checkNumber(caller, 'total', total);
}

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

/** {@inheritDoc table.singleBranchTable} */
export const singleBranchTable: typeof table.singleBranchTable = (classTotals) => {
  checkArrayLike('singleBranchTable', 'classTotals', classTotals);
  return tableFromCounts([classTotals]);
};

/** {@inheritDoc table.recomputeTotals} */
export const recomputeTotals: typeof table.recomputeTotals = (t) => {
  checkTable('recomputeTotals', t);
  table.recomputeTotals(t);
};

/** A function of one count table, checked. */
function ofTable<R>(name: string, f: (t: CountTable) => R): (t: CountTable) => R {
  return (t) => {
    checkTable(name, t);
    return f(t);
  };
}

/** {@inheritDoc table.parentEntropy} */
export const parentEntropy = ofTable('parentEntropy', table.parentEntropy);
/** {@inheritDoc table.childEntropy} */
export const childEntropy = ofTable('childEntropy', table.childEntropy);
/** {@inheritDoc table.informationGain} */
export const informationGain = ofTable('informationGain', table.informationGain);
/** {@inheritDoc table.nonEmptyBranches} */
export const nonEmptyBranches = ofTable('nonEmptyBranches', table.nonEmptyBranches);
/** {@inheritDoc table.distinctClasses} */
export const distinctClasses = ofTable('distinctClasses', table.distinctClasses);
/** {@inheritDoc gain.splitInfo} */
export const splitInfo = ofTable('splitInfo', gain.splitInfo);

/** {@inheritDoc gain.splitInfoWithUnknown} */
export const splitInfoWithUnknown: typeof gain.splitInfoWithUnknown = (t, unknownWeight) => {
  checkTable('splitInfoWithUnknown', t);
  checkNumber('splitInfoWithUnknown', 'unknownWeight', unknownWeight);
  return gain.splitInfoWithUnknown(t, unknownWeight);
};

/** {@inheritDoc table.entropyOfRow} */
export const entropyOfRow: typeof table.entropyOfRow = (counts, offset, classes, total) => {
  checkRow('entropyOfRow', counts, offset, classes, total);
  return table.entropyOfRow(counts, offset, classes, total);
};

/** {@inheritDoc table.distinctClassesOfRow} */
export const distinctClassesOfRow: typeof table.distinctClassesOfRow = (counts, offset, classes, total) => {
  checkRow('distinctClassesOfRow', counts, offset, classes, total);
  return table.distinctClassesOfRow(counts, offset, classes, total);
};

/** {@inheritDoc cart.giniOfRow} */
export const giniOfRow: typeof cart.giniOfRow = (counts, offset, classes, total) => {
  checkRow('giniOfRow', counts, offset, classes, total);
  return cart.giniOfRow(counts, offset, classes, total);
};

/** {@inheritDoc registry.orientedScore} */
export const orientedScore: typeof registry.orientedScore = (c, value) => {
  checkCriterion('orientedScore', c);
  checkNumber('orientedScore', 'value', value);
  return registry.orientedScore(c, value);
};

/** {@inheritDoc registry.improvement} */
export const improvement: typeof registry.improvement = (c, split, parent) => {
  checkCriterion('improvement', c);
  checkTable('improvement', split, 'split');
  checkTable('improvement', parent, 'parent');
  const score = (t: CountTable): number => {
    const v = c.evaluate(t);
    if (typeof v !== 'number') badArgument('improvement', 'criterion.evaluate(table)', 'a number', v);
    return v;
  };
  return registry.orientedScore(c, score(split)) - registry.orientedScore(c, score(parent));
};
