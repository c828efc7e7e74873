/**
 * The pruning functions as the public API exports them: each checks its arguments (a GroveError
 * naming the function and argument, never a TypeError) and then calls the function `fit` uses.
 */
import { badArgument, checkFinite, checkNumber, checkNumbers, checkObject } from '../core/args.js';
import { checkDataset } from '../data/check.js';
import { checkNodes } from '../model/check-nodes.js';
import { resolveOptions } from '../options/options.js';
import * as costComplexity from './cost-complexity.js';
import * as errorBased from './error-based.js';
import * as pruning from './index.js';
import * as pessimistic from './pessimistic.js';

/** {@inheritDoc errorBased.addErrs} */
export const addErrs: typeof errorBased.addErrs = (N, e, cf, coeff) => {
  checkFinite('addErrs', 'N', N, 0);
  checkFinite('addErrs', 'e', e, 0);
  if (!(typeof cf === 'number' && cf > 0 && cf < 1)) badArgument('addErrs', 'cf', 'a number in (0, 1)', cf);
  if (coeff !== undefined) checkFinite('addErrs', 'coeff', coeff, 0);
  return errorBased.addErrs(N, e, cf, coeff);
};

/** {@inheritDoc pruning.costComplexityPath} */
export const costComplexityPath: typeof pruning.costComplexityPath = (nodes) => {
  checkNodes('costComplexityPath', nodes);
  return pruning.costComplexityPath(nodes);
};

/** {@inheritDoc pessimistic.pessimisticError} */
export const pessimisticError: typeof pessimistic.pessimisticError = (nodes) => {
  checkNodes('pessimisticError', nodes);
  return pessimistic.pessimisticError(nodes);
};

/** {@inheritDoc costComplexity.pruneCostComplexity} */
export const pruneCostComplexity: typeof costComplexity.pruneCostComplexity = (nodes, alpha, links) => {
  checkNodes('pruneCostComplexity', nodes);
  checkNumber('pruneCostComplexity', 'alpha', alpha);
  if (links !== undefined) {
    checkObject('pruneCostComplexity', 'links', links);
    const { pruneAlpha } = links;
    if (!ArrayBuffer.isView(pruneAlpha) && !Array.isArray(pruneAlpha))
      badArgument('pruneCostComplexity', 'links.pruneAlpha', 'an array (from weakestLinks(nodes))', pruneAlpha);
    if ((pruneAlpha as ArrayLike<number>).length !== nodes.length)
      badArgument(
        'pruneCostComplexity',
        'links.pruneAlpha',
        `${nodes.length} entries, one per node`,
        (pruneAlpha as ArrayLike<number>).length,
      );
  }
  return costComplexity.pruneCostComplexity(nodes, alpha, links);
};

/** {@inheritDoc pruning.pruneTree} */
export const pruneTree: typeof pruning.pruneTree = (nodes, ctx) => {
  checkNodes('pruneTree', nodes);
  checkObject('pruneTree', 'ctx', ctx);
  checkObject('pruneTree', 'ctx.options', ctx.options);
  resolveOptions(ctx.options);
  const { data, weights, trainRows, validationRows } = ctx;
  if (data !== undefined) {
    checkDataset(data, { caller: 'pruneTree', labelled: true });
    if (nodes[0].counts.length !== data.classes.length)
      badArgument(
        'pruneTree',
        'nodes[0].counts',
        `${data.classes.length} counts, one per class of ctx.data`,
        nodes[0].counts.length,
      );
    if (!(weights instanceof Float64Array) || weights.length !== data.nRows)
      badArgument(
        'pruneTree',
        'ctx.weights',
        `a Float64Array of ${data.nRows} weights, one per row of ctx.data`,
        weights,
      );
    for (const [name, rows] of [
      ['ctx.trainRows', trainRows],
      ['ctx.validationRows', validationRows],
    ] as const) {
      if (rows === undefined) continue;
      checkNumbers('pruneTree', name, rows);
      for (let j = 0; j < rows.length; j++)
        if (!Number.isInteger(rows[j]) || rows[j] < 0 || rows[j] >= data.nRows)
          badArgument('pruneTree', `${name}[${j}]`, `a row of ctx.data (0…${data.nRows - 1})`, rows[j]);
    }
  } else if (weights !== undefined || trainRows !== undefined || validationRows !== undefined) {
    badArgument('pruneTree', 'ctx.data', 'a Dataset when weights or rows are given', data);
  }
  if (ctx.grow !== undefined && typeof ctx.grow !== 'function')
    badArgument('pruneTree', 'ctx.grow', 'a function', ctx.grow);
  return pruning.pruneTree(nodes, ctx);
};
