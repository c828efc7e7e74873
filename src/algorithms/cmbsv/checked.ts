/**
 * C-MBSV's 1-D SVM as `grove/extend` exports it: the arguments checked (a GroveError naming the
 * function and argument, never a TypeError), then the unchecked solver the grower calls per pair.
 */
import { badArgument, checkBoolean, checkNumbers, checkObject } from '../../core/args.js';
import * as svm from './svm1d.js';

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
