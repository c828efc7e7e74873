/**
 * Post-pruning (issue 3). Every pruner takes a flat `TreeNode[]` and returns a new, valid one
 * (renumbered, children consecutive, depths recomputed); the input is never modified.
 * docs/pruning.md describes each method, its source and its choices.
 */

import { GroveError } from '../core/errors.js';
import { subsetRows } from '../data/subset.js';
import { countLeaves } from '../model/compact.js';
import type { TreeNode } from '../model/node.js';
import { type GrownTree, nodesOf } from '../model/store.js';
import { DEFAULTS } from '../options/options.js';
import { chooseAlphaByCV, pruneCostComplexity, weakestLinks } from './cost-complexity.js';
import { pruneErrorBased } from './error-based.js';
import { prunePessimistic } from './pessimistic.js';
import { pruneReducedError, routeValidation, stratifiedHoldOut } from './reduced-error.js';
import type { PruneContext, PruneOptions, PruneResult, PruningInfo } from './types.js';

export { asLeaf, compactTree, countLeaves, fromLinked, type LinkedNode, toLinked } from '../model/compact.js';
export { chooseAlphaByCV, costComplexityPath, pruneCostComplexity, weakestLinks } from './cost-complexity.js';
export {
  addErrs,
  c45Coefficient,
  collapseTree,
  type ErrorBasedOptions,
  leafEstimate,
  pruneErrorBased,
} from './error-based.js';
export { type PessimisticOptions, pessimisticError, prunePessimistic } from './pessimistic.js';
export { branchOf, recount, routeRows } from './recount.js';
export { pruneReducedError, routeValidation, stratifiedHoldOut } from './reduced-error.js';
export type {
  CcpCv,
  CcpCvRow,
  CcpPathEntry,
  GrowFn,
  PruneContext,
  PruneOptions,
  PruneResult,
  PruningInfo,
} from './types.js';

/**
 * Prune `nodes` — a tree grown on `ctx.trainRows` of `ctx.data` (default all rows) — with
 * `ctx.options.prune`. reduced-error needs `ctx.validationRows` (held out from growing);
 * cost-complexity without `ccpAlpha` needs `ctx.grow` to grow the cross-validation trees.
 */
export function pruneTree(nodes: TreeNode[], ctx: PruneContext): PruneResult {
  const o: PruneOptions = { ...DEFAULTS, ...definedOnly(ctx.options) };
  const info: PruningInfo = { method: o.prune, leavesBefore: countLeaves(nodes), leavesAfter: 0 };
  let out: TreeNode[];
  switch (o.prune) {
    case 'none':
      out = nodes;
      break;
    case 'pessimistic':
      out = prunePessimistic(nodes);
      break;
    case 'error-based':
      info.confidence = o.confidence;
      info.subtreeRaising = o.subtreeRaising;
      out = pruneErrorBased(nodes, {
        confidence: o.confidence,
        subtreeRaising: o.subtreeRaising,
        data: ctx.data,
        weights: ctx.weights,
        rows: ctx.trainRows,
        missing: o.missing,
      });
      break;
    case 'reduced-error': {
      const { data, weights, validationRows } = ctx;
      if (!data || !weights || !validationRows)
        throw new GroveError('reduced-error pruning needs held-out validation rows');
      info.validationRows = validationRows.length;
      out = pruneReducedError(nodes, routeValidation(nodes, data, weights, validationRows, o.missing));
      break;
    }
    case 'cost-complexity': {
      const links = weakestLinks(nodes);
      info.path = links.path;
      let alpha = o.ccpAlpha;
      if (alpha === undefined) {
        const { data, weights, grow } = ctx;
        if (!data || !weights || !grow)
          throw new GroveError('choosing ccpAlpha by cross-validation needs the training data and a grower');
        const chosen = chooseAlphaByCV(
          nodes,
          data,
          weights,
          ctx.trainRows,
          grow,
          { folds: o.ccpFolds, rule: o.ccpRule, seed: o.seed, missing: o.missing },
          links.path,
        );
        alpha = chosen.alpha;
        info.cv = chosen.cv;
      }
      info.alpha = alpha;
      out = pruneCostComplexity(nodes, alpha, links);
      break;
    }
    default:
      throw new GroveError(`unknown pruning method '${String(o.prune)}'`);
  }
  info.leavesAfter = countLeaves(out);
  return { nodes: out, info };
}

/**
 * Grow with `ctx.grow` and prune: what `fit` does. For reduced-error a stratified
 * `pruneFraction` of the rows (seeded by `seed`) is held out and the tree is grown on the rest;
 * every other method grows on all rows. `info` is undefined when `prune` is 'none'.
 */
export function growAndPrune(ctx: PruneContext & Required<Pick<PruneContext, 'data' | 'weights' | 'grow'>>): {
  nodes: GrownTree;
  info?: PruningInfo;
} {
  const { data, weights, grow } = ctx;
  const options: PruneOptions = { ...DEFAULTS, ...definedOnly(ctx.options) };
  if (options.prune === 'none') return { nodes: grow(data, weights) };
  if (options.prune === 'reduced-error') {
    const { train, validation } = stratifiedHoldOut(
      data.labels,
      data.classes.length,
      options.pruneFraction,
      options.seed,
    );
    if (train.length === 0 || validation.length === 0) {
      // Too few rows to hold any out: grow on everything, prune nothing.
      const nodes = nodesOf(grow(data, weights));
      const leaves = countLeaves(nodes);
      return { nodes, info: { method: 'reduced-error', leavesBefore: leaves, leavesAfter: leaves, validationRows: 0 } };
    }
    const nodes = nodesOf(
      grow(
        subsetRows(data, train),
        Float64Array.from(train, (r) => weights[r]),
      ),
    );
    return pruneTree(nodes, { ...ctx, trainRows: train, validationRows: validation });
  }
  return pruneTree(nodesOf(grow(data, weights)), ctx);
}

/** The entries of `o` whose value is not undefined (so they do not hide a default). */
function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
