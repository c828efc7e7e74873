/**
 * Post-pruning. Every pruner takes a flat `TreeNode[]` and returns a new, valid one
 * (renumbered, children consecutive, depths recomputed); the input is never modified, and the
 * new nodes may share its arrays (counts, split, knn; see src/model/compact.ts). A pruner with
 * `pruneGrown` (cost-complexity) is given a grown `TreeStore` as it is and returns a store.
 * docs/pruning.md describes each method, its source and its choices.
 */

import { subsetRows } from '../data/subset.js';
import { countLeaves } from '../model/compact.js';
import type { TreeNode } from '../model/node.js';
import { type GrownTree, nodesOf } from '../model/store.js';
import { DEFAULTS, type TreeOptions } from '../options/options.js';
import { NO_PRUNING } from './none.js';
import { getPruner } from './registry.js';
import type { PruneContext, PruneResult, PruningInfo } from './types.js';

export { asLeaf, compactTree, countLeaves } from '../model/compact.js';
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
export type { Pruner, PrunerInput, PrunerOutput, PruningDetails } from './pruner.js';
export { recount, routeRows } from './recount.js';
export { pruneReducedError, routeValidation, stratifiedHoldOut } from './reduced-error.js';
export { BUILTIN_PRUNERS, getPruner, listPruners, type RegisterPrunerOptions, registerPruner } from './registry.js';
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
 * Prune `nodes` — a tree grown on `ctx.trainRows` of `ctx.data` (default all rows) — with the
 * pruner named by `ctx.options.prune`. Methods with a hold-out need `ctx.validationRows` (held
 * out from growing); cost-complexity without `ccpAlpha` needs `ctx.grow` to grow the
 * cross-validation trees. `nodes` is not modified; the pruned nodes are new objects that may share
 * arrays and objects (counts, split, knn) with it, so treat both as read-only.
 */
export function pruneTree(nodes: TreeNode[], ctx: PruneContext): PruneResult {
  return pruneGrownTree(nodes, ctx) as PruneResult;
}

/**
 * `pruneTree` on a tree as grown: a `TreeStore` goes to the pruner's `pruneGrown` when it has one
 * (and comes back a store), else is made node objects for `prune`.
 */
function pruneGrownTree(tree: GrownTree, ctx: PruneContext): { nodes: GrownTree; info: PruningInfo } {
  const options = withDefaults(ctx.options);
  const pruner = getPruner(options.prune);
  const leavesBefore = leavesOf(tree);
  const out =
    pruner.pruneGrown && !Array.isArray(tree)
      ? pruner.pruneGrown({ ...ctx, tree, options })
      : pruner.prune({ ...ctx, nodes: nodesOf(tree), options });
  const info: PruningInfo = { method: pruner.name, leavesBefore, leavesAfter: 0, ...out.details };
  info.leavesAfter = leavesOf(out.nodes);
  return { nodes: out.nodes, info };
}

function leavesOf(tree: GrownTree): number {
  if (Array.isArray(tree)) return countLeaves(tree);
  let leaves = 0;
  for (let id = 0; id < tree.size; id++) if (tree.branches[id] === 0) leaves++;
  return leaves;
}

/** What `growThenPrune` needs: the data, the row weights and the way to grow. */
export type GrowAndPruneContext = PruneContext & Required<Pick<PruneContext, 'data' | 'weights' | 'grow'>>;

/**
 * Grow with `ctx.grow` and prune, what `fit` does, in two steps: the tree that pruning cuts is
 * grown when this returns, and `prune` prunes it (growing whatever else the method grows), so a
 * caller can show the tree in between. A pruner with a hold-out gets the tree grown on the rows it
 * keeps for training; every other method gets the tree grown on all rows. `info` is undefined when
 * `prune` is 'none'.
 */
export function growThenPrune(ctx: GrowAndPruneContext): { prune(): { nodes: GrownTree; info?: PruningInfo } } {
  const { data, weights, grow } = ctx;
  const options = withDefaults(ctx.options);
  const pruner = getPruner(options.prune);
  if (pruner.name === NO_PRUNING) {
    const nodes = grow(data, weights);
    return { prune: () => ({ nodes }) };
  }
  if (!pruner.holdOut) {
    const grown = grow(data, weights);
    return { prune: () => pruneGrownTree(grown, ctx) };
  }
  const { train, validation } = pruner.holdOut(data, options);
  if (train.length === 0 || validation.length === 0) {
    // Too few rows to hold any out: grow on everything, prune nothing.
    const nodes = nodesOf(grow(data, weights));
    const leaves = countLeaves(nodes);
    return {
      prune: () => ({
        nodes,
        info: { method: pruner.name, leavesBefore: leaves, leavesAfter: leaves, validationRows: 0 },
      }),
    };
  }
  const nodes = nodesOf(
    grow(
      subsetRows(data, train),
      Float64Array.from(train, (r) => weights[r]),
    ),
  );
  return { prune: () => pruneTree(nodes, { ...ctx, trainRows: train, validationRows: validation }) };
}

/** The options given, with every one left out (or undefined) taking its default. */
function withDefaults(given: PruneContext['options']): TreeOptions {
  const defined = Object.entries(given).filter(([, v]) => v !== undefined);
  return { ...DEFAULTS, ...Object.fromEntries(defined) };
}
