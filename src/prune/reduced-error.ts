import { GroveError } from '../core/errors.js';
import { stratifiedHoldOut } from '../core/folds.js';
import type { Dataset } from '../data/dataset.js';
import { compactTree, total } from '../model/compact.js';
import { majorityClass, type TreeNode } from '../model/node.js';
import type { MissingPolicy } from '../options/options.js';
import type { Pruner } from './pruner.js';
import { routeRows } from './recount.js';

export { stratifiedHoldOut };

/**
 * Reduced-error pruning (Quinlan 1987): grow on part of the rows, then, bottom-up, replace a
 * subtree by a leaf whenever that does not increase the (weighted) errors on the held-out rows.
 * A leaf keeps its class from the training counts; validation rows only decide what is pruned.
 * A subtree no validation row reaches makes no validation errors either way, so it is pruned.
 */

/**
 * @param validation per node, the weighted validation class counts reaching it (`routeValidation`)
 * @returns a new tree
 */
export function pruneReducedError(
  nodes: readonly TreeNode[],
  validation: ReadonlyArray<ArrayLike<number>>,
): TreeNode[] {
  const m = nodes.length;
  const errors = new Float64Array(m);
  const collapse = new Uint8Array(m);
  for (let i = m - 1; i >= 0; i--) {
    const node = nodes[i];
    const v = validation[i];
    const asLeaf = total(v) - v[majorityClass(node.counts)];
    if (!node.split || !node.children) {
      errors[i] = asLeaf;
      continue;
    }
    let sub = 0;
    for (const c of node.children) sub += errors[c];
    if (asLeaf <= sub + 1e-9 * Math.max(1, sub)) {
      collapse[i] = 1;
      errors[i] = asLeaf;
    } else errors[i] = sub;
  }
  return compactTree(nodes, (id) => collapse[id] === 1);
}

/**
 * Weighted class counts of the validation rows at every node. Rows with an unknown branch follow
 * the missing policy, shared by the children's training weight (see `RouteOptions`).
 */
export function routeValidation(
  nodes: readonly TreeNode[],
  data: Dataset,
  weights: ArrayLike<number>,
  rows: ArrayLike<number>,
  missing: MissingPolicy,
): number[][] {
  return routeRows(nodes, data, weights, rows, { missing, shares: 'stored' }).counts;
}

/** Table entry (src/prune/registry.ts): grows on a stratified share of the rows, prunes on the rest. */
export const reducedErrorPruner: Pruner = {
  name: 'reduced-error',
  description: 'reduced-error pruning on a stratified hold-out (Quinlan 1987)',
  reads: ['pruneFraction', 'seed', 'missing'],
  holdOut: (data, o) => stratifiedHoldOut(data.labels, data.classes.length, o.pruneFraction, o.seed),
  prune: ({ nodes, options, data, weights, validationRows }) => {
    if (!data || !weights || !validationRows)
      throw new GroveError('reduced-error pruning needs held-out validation rows');
    return {
      details: { validationRows: validationRows.length },
      nodes: pruneReducedError(nodes, routeValidation(nodes, data, weights, validationRows, options.missing)),
    };
  },
};
