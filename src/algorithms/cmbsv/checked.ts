/**
 * C-MBSV's pieces below `cmbsvSplit` as the public API exports them: each checks its arguments (a
 * GroveError naming the function and argument, never a TypeError) and then calls the unchecked
 * function the C-MBSV grower and the predictor use on every node or row.
 */
import {
  badArgument,
  checkArrayLike,
  checkBoolean,
  checkInt32Array,
  checkInteger,
  checkNumber,
  checkNumbers,
  checkObject,
} from '../../core/args.js';
import * as knn from '../../model/knn.js';
import * as select from './select.js';
import * as svm from './svm1d.js';
import * as thresholds from './thresholds.js';

/** Most classes or categories a count array is made for. */
const MAX_CODES = 2 ** 24;

/** `labels`: an Int32Array of codes in 0…classes−1; `classes` a count. */
function checkLabels(caller: string, labels: unknown, classes: unknown): asserts labels is Int32Array {
  checkInteger(caller, 'classes', classes, 1, MAX_CODES);
  checkInt32Array(caller, 'labels', labels);
  for (let i = 0; i < labels.length; i++)
    if (labels[i] < 0 || labels[i] >= classes)
      badArgument(caller, `labels[${i}]`, `a class in 0…${classes - 1}`, labels[i]);
}

/** `rows`: indexes into the n rows; `weights`: one number per row. */
function checkRowsAndWeights(caller: string, rows: unknown, weights: unknown, n: number): void {
  checkNumbers(caller, 'rows', rows);
  for (let j = 0; j < rows.length; j++)
    if (!Number.isInteger(rows[j]) || rows[j] < 0 || rows[j] >= n)
      badArgument(caller, `rows[${j}]`, `a row in 0…${n - 1}`, rows[j]);
  checkNumbers(caller, 'weights', weights);
  if (weights.length < n) badArgument(caller, 'weights', `${n} weights, one per row`, weights.length);
}

/** Numeric values, one per row. */
function checkValues(caller: string, values: unknown, n: number): void {
  if (!(values instanceof Float64Array || values instanceof Float32Array) || values.length !== n)
    badArgument(caller, 'values', `a Float64Array or Float32Array of ${n} values (one per label)`, values);
}

/** Category codes, one per row: -1 (missing) or 0…nCategories−1. */
function checkCodes(caller: string, name: string, codes: unknown, nCategories: number, n: number): void {
  checkInt32Array(caller, name, codes);
  if (codes.length !== n) badArgument(caller, name, `${n} codes, one per label`, codes.length);
  for (let i = 0; i < n; i++)
    if (codes[i] < -1 || codes[i] >= nCategories)
      badArgument(caller, `${name}[${i}]`, `-1 or a category in 0…${nCategories - 1}`, codes[i]);
}

function checkSelection(caller: string, opts: unknown): void {
  checkObject(caller, 'opts', opts);
  const o = opts as Partial<select.SelectionOptions>;
  if (o.labelCoding !== 'ordinal' && o.labelCoding !== 'one-vs-rest')
    badArgument(caller, 'opts.labelCoding', "'ordinal' or 'one-vs-rest'", o.labelCoding);
  checkBoolean(caller, 'opts.correlationCentring', o.correlationCentring, false);
}

/** {@inheritDoc select.bestFeature} */
export const bestFeature: typeof select.bestFeature = (scores) => {
  checkNumbers('bestFeature', 'scores', scores);
  return select.bestFeature(scores);
};

/** {@inheritDoc select.correlationScore} */
export const correlationScore: typeof select.correlationScore = (values, labels, classes, rows, weights, opts) => {
  checkLabels('correlationScore', labels, classes);
  checkValues('correlationScore', values, labels.length);
  checkRowsAndWeights('correlationScore', rows, weights, labels.length);
  checkSelection('correlationScore', opts);
  return select.correlationScore(values, labels, classes, rows, weights, opts);
};

/** {@inheritDoc select.cramersV} */
export const cramersV: typeof select.cramersV = (codes, nCategories, labels, classes, rows, weights) => {
  checkLabels('cramersV', labels, classes);
  checkInteger('cramersV', 'nCategories', nCategories, 0, MAX_CODES);
  if (nCategories * classes > MAX_CODES)
    badArgument('cramersV', 'nCategories × classes', `at most ${MAX_CODES}`, nCategories * classes);
  checkCodes('cramersV', 'codes', codes, nCategories, labels.length);
  checkRowsAndWeights('cramersV', rows, weights, labels.length);
  return select.cramersV(codes, nCategories, labels, classes, rows, weights);
};

/** {@inheritDoc select.featureScores} */
export const featureScores: typeof select.featureScores = (
  features,
  labels,
  classes,
  rows,
  weights,
  opts,
  excluded,
) => {
  checkLabels('featureScores', labels, classes);
  checkArrayLike('featureScores', 'features', features);
  features.forEach((col: unknown, f) => {
    checkObject('featureScores', `features[${f}]`, col);
    const c = col as { kind?: unknown; values?: unknown; codes?: unknown; categories?: unknown };
    if (c.kind === 'numeric') checkValues('featureScores', c.values, labels.length);
    else if (c.kind === 'categorical') {
      checkArrayLike('featureScores', `features[${f}].categories`, c.categories);
      checkCodes('featureScores', `features[${f}].codes`, c.codes, c.categories.length, labels.length);
    } else badArgument('featureScores', `features[${f}].kind`, "'numeric' or 'categorical'", c.kind);
  });
  checkRowsAndWeights('featureScores', rows, weights, labels.length);
  checkSelection('featureScores', opts);
  if (excluded !== undefined) checkNumbers('featureScores', 'excluded', excluded);
  return select.featureScores(features, labels, classes, rows, weights, opts, excluded);
};

/** {@inheritDoc thresholds.branchOfValue} */
export const branchOfValue: typeof thresholds.branchOfValue = (t, v) => {
  checkNumbers('branchOfValue', 'thresholds', t);
  checkNumber('branchOfValue', 'v', v);
  return thresholds.branchOfValue(t, v);
};

/** {@inheritDoc thresholds.nodeThresholds} */
export const nodeThresholds: typeof thresholds.nodeThresholds = (x, labels, classes, rows, weights, opts) => {
  checkLabels('nodeThresholds', labels, classes);
  checkValues('nodeThresholds', x, labels.length);
  checkRowsAndWeights('nodeThresholds', rows, weights, labels.length);
  checkObject('nodeThresholds', 'opts', opts);
  const o = opts as Partial<thresholds.ThresholdOptions>;
  if (!(typeof o.svmC === 'number' && o.svmC > 0 && Number.isFinite(o.svmC)))
    badArgument('nodeThresholds', 'opts.svmC', 'a finite number > 0', o.svmC);
  checkBoolean('nodeThresholds', 'opts.svmBalance', o.svmBalance, false);
  if (o.svmBias !== 'midpoint' && o.svmBias !== 'max-alpha')
    badArgument('nodeThresholds', 'opts.svmBias', "'midpoint' or 'max-alpha'", o.svmBias);
  if (typeof o.svmScaling !== 'string')
    badArgument('nodeThresholds', 'opts.svmScaling', 'a scaling name', o.svmScaling);
  return thresholds.nodeThresholds(x, labels, classes, rows, weights, opts);
};

/** {@inheritDoc svm.balancedBoxConstraints} */
export const balancedBoxConstraints: typeof svm.balancedBoxConstraints = (n1, n2, C) => {
  checkNumber('balancedBoxConstraints', 'n1', n1);
  checkNumber('balancedBoxConstraints', 'n2', n2);
  checkNumber('balancedBoxConstraints', 'C', C);
  return svm.balancedBoxConstraints(n1, n2, C);
};

/** {@inheritDoc svm.solveSvm1d} */
export const solveSvm1d: typeof svm.solveSvm1d = (x, y, c, options = {}) => {
  checkNumbers('solveSvm1d', 'x', x);
  for (const [name, v] of [
    ['y', y],
    ['c', c],
  ] as const) {
    checkNumbers('solveSvm1d', name, v);
    if (v.length !== x.length) badArgument('solveSvm1d', name, `${x.length} values, as many as x`, v.length);
  }
  for (let i = 0; i < y.length; i++)
    if (y[i] !== 1 && y[i] !== -1) badArgument('solveSvm1d', `y[${i}]`, '1 or -1', y[i]);
  checkObject('solveSvm1d', 'options', options);
  checkBoolean('solveSvm1d', 'options.sorted', options.sorted);
  if (options.bias !== undefined && options.bias !== 'midpoint' && options.bias !== 'max-alpha')
    badArgument('solveSvm1d', 'options.bias', "'midpoint' or 'max-alpha'", options.bias);
  return svm.solveSvm1d(x, y, c, options);
};

/** {@inheritDoc knn.knnVote} */
export const knnVote: typeof knn.knnVote = (region, kinds, columns, i, k, classes, out, offset = 0, weight = 1) => {
  const caller = 'knnVote';
  checkInteger(caller, 'classes', classes, 1, MAX_CODES);
  checkArrayLike(caller, 'kinds', kinds);
  const d = kinds.length;
  for (let f = 0; f < d; f++)
    if (kinds[f] !== 'numeric' && kinds[f] !== 'categorical')
      badArgument(caller, `kinds[${f}]`, "'numeric' or 'categorical'", kinds[f]);
  checkObject(caller, 'region', region);
  checkNumbers(caller, 'region.scale', region.scale);
  if (region.scale.length !== d)
    badArgument(caller, 'region.scale', `${d} values, one per feature`, region.scale.length);
  checkArrayLike(caller, 'region.rows', region.rows);
  checkNumbers(caller, 'region.labels', region.labels);
  if (region.labels.length !== region.rows.length)
    badArgument(caller, 'region.labels', `${region.rows.length} labels, one per row`, region.labels.length);
  region.rows.forEach((row: unknown, r) => {
    checkArrayLike(caller, `region.rows[${r}]`, row);
    const values = row as ArrayLike<unknown>;
    if (values.length !== d) badArgument(caller, `region.rows[${r}]`, `${d} values, one per feature`, values.length);
    for (let f = 0; f < d; f++)
      if (values[f] !== null && typeof values[f] !== 'number')
        badArgument(caller, `region.rows[${r}][${f}]`, 'a number or null', values[f]);
    const c = region.labels[r];
    if (!Number.isInteger(c) || c < 0 || c >= classes)
      badArgument(caller, `region.labels[${r}]`, `a class in 0…${classes - 1}`, c);
  });
  checkArrayLike(caller, 'columns', columns);
  if (columns.length !== d) badArgument(caller, 'columns', `${d} columns, one per feature`, columns.length);
  for (let f = 0; f < d; f++) checkNumbers(caller, `columns[${f}]`, columns[f]);
  let rowsIn = Number.MAX_SAFE_INTEGER;
  for (let f = 0; f < d; f++) rowsIn = Math.min(rowsIn, columns[f].length);
  checkInteger(caller, 'i', i, 0, Math.max(0, rowsIn - 1));
  checkInteger(caller, 'k', k, 0);
  checkInteger(caller, 'offset', offset, 0);
  checkNumber(caller, 'weight', weight);
  if (out !== undefined && (!(out instanceof Float64Array) || out.length < offset + classes))
    badArgument(caller, 'out', `a Float64Array of at least offset + classes = ${offset + classes} entries`, out);
  return knn.knnVote(region, kinds, columns, i, k, classes, out, offset, weight);
};
