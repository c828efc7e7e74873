import { GroveError } from '../core/errors.js';
import { stratifiedFolds } from '../core/folds.js';
import type { Dataset } from '../data/dataset.js';
import { subsetRows } from '../data/subset.js';
import { compactTree } from '../model/compact.js';
import type { TreeNode } from '../model/node.js';
import { type GrownTree, TreeStore } from '../model/store.js';
import { shapeOf, type TreeShape } from '../model/tree-shape.js';
import type { MissingPolicy, TreeOptions } from '../options/options.js';
import type { GrownPrunerInput, GrownPrunerOutput, Pruner, PruningDetails } from './pruner.js';
import { reachOfMajority } from './recount.js';
import type { CcpCv, CcpCvRow, GrowFn } from './types.js';

/**
 * CART's minimal cost-complexity (weakest-link) pruning, Breiman et al. (1984) ch. 3.
 *
 * R(t) = weighted training misclassification of node t seen as a leaf, divided by the root's total
 * weight W (scikit-learn's scale: R ∈ [0, 1]); R(T_t) = Σ R over the leaves of the subtree T_t.
 * g(t) = (R(t) − R(T_t)) / (|leaves(T_t)| − 1). Starting from T(0) — the full tree with every
 * subtree that does not lower the training error (g = 0) made a leaf — the weakest links (the
 * nodes with the smallest g) are pruned in turn: α_{k+1} = min g over T(α_k), and
 * T(α_{k+1}) = T(α_k) with every node of g = α_{k+1} made a leaf, down to the root alone.
 * T(α) for α in [α_k, α_{k+1}) is T(α_k). Ties are within a relative 1e-9.
 */

import { costComplexityPath, REL, type WeakestLinks, weakestLinks } from '../model/weakest-links.js';

export { costComplexityPath, weakestLinks } from '../model/weakest-links.js';

/**
 * T(α): every node whose weakest-link α is ≤ `alpha` (within a relative 1e-9) becomes a leaf.
 * Returns a new tree.
 */
export function pruneCostComplexity(
  nodes: readonly TreeNode[],
  alpha: number,
  links = weakestLinks(nodes),
): TreeNode[] {
  return compactTree(nodes, cutBelow(alpha, links));
}

/** `pruneCostComplexity` for a tree as grown: a store stays a store (same nodes, same numbering). */
export function pruneGrownCostComplexity(tree: GrownTree, alpha: number, links = weakestLinks(tree)): GrownTree {
  const cut = cutBelow(alpha, links);
  return tree instanceof TreeStore ? tree.cutAndRenumber((id) => !cut(id)) : compactTree(tree, cut);
}

function cutBelow(alpha: number, links: WeakestLinks): (id: number) => boolean {
  if (!(alpha >= 0)) throw new GroveError(`ccpAlpha must be a finite number ≥ 0, got ${alpha}`);
  const limit = alpha * (1 + REL);
  return (id) => links.pruneAlpha[id] <= limit;
}

export interface CcpCvOptions {
  folds: number;
  rule: TreeOptions['ccpRule'];
  seed: number;
  missing: MissingPolicy;
}

/**
 * Choose α for the tree `nodes` (grown on `rows` of `data`) by stratified k-fold cross-validation:
 * per fold a full tree is grown on the other folds (`grow`) and its test error measured at the
 * geometric midpoints β_k = √(α_k α_{k+1}) of the full tree's sequence (Breiman; rpart), β = 1
 * for the last tree (every g ≤ 1, so α = 1 prunes any tree to its root). Errors are weighted and
 * pooled over the folds. `min` picks the α_k with the smallest CV error; `1se` the largest α_k
 * whose CV error ≤ min + SE(min), SE the binomial √(e(1 − e) / n_eff) as rpart's xstd.
 * Test rows with an unknown branch follow the missing policy, shared by the children's training weight.
 */
export function chooseAlphaByCV(
  nodes: readonly TreeNode[] | TreeStore,
  data: Dataset,
  weights: ArrayLike<number>,
  rows: ArrayLike<number> | undefined,
  grow: GrowFn,
  options: CcpCvOptions,
  path = costComplexityPath(nodes),
): { alpha: number; cv: CcpCv } {
  const idx = rows ? Array.from(rows) : Array.from({ length: data.nRows }, (_, i) => i);
  const labels = Int32Array.from(idx, (r) => data.labels[r]);
  const k = data.classes.length;
  const K = options.folds;
  const fold = stratifiedFolds(labels, k, K, options.seed);
  const evalAlpha = path.map((p, j) => (j + 1 < path.length ? Math.sqrt(p.alpha * path[j + 1].alpha) : 1));
  const wrong = new Float64Array(path.length);
  let testWeight = 0;
  const foldErrors: number[][] = path.map(() => []);
  for (let f = 0; f < K; f++) {
    const train: number[] = [];
    const test: number[] = [];
    idx.forEach((r, j) => (fold[j] === f ? test : train).push(r));
    if (test.length === 0 || train.length === 0) continue;
    const trainWeights = Float64Array.from(train, (r) => weights[r]);
    const foldTree = grow(subsetRows(data, train), trainWeights);
    const links = weakestLinks(foldTree);
    const shape = shapeOf(foldTree);
    const reach = reachOfMajority(foldTree, data, weights, test, { missing: options.missing, shares: 'stored' });
    let foldWeight = 0;
    for (const r of test) foldWeight += weights[r];
    testWeight += foldWeight;
    evalAlpha.forEach((beta, j) => {
      const errors = testErrors(shape, links.pruneAlpha, beta * (1 + REL), reach);
      wrong[j] += errors;
      foldErrors[j].push(foldWeight > 0 ? errors / foldWeight : 0);
    });
  }
  let sw = 0;
  let sw2 = 0;
  for (const r of idx) {
    sw += weights[r];
    sw2 += weights[r] * weights[r];
  }
  const nEff = sw2 > 0 ? (sw * sw) / sw2 : 0;
  const table: CcpCvRow[] = path.map((p, j) => {
    const error = testWeight > 0 ? wrong[j] / testWeight : 0;
    const se = nEff > 0 ? Math.sqrt(Math.max(0, error * (1 - error)) / nEff) : 0;
    return { alpha: p.alpha, evalAlpha: evalAlpha[j], leaves: p.leaves, error, se, foldErrors: foldErrors[j] };
  });
  let minIndex = 0;
  table.forEach((row, j) => {
    if (row.error < table[minIndex].error - 1e-12) minIndex = j;
  });
  let chosenIndex = minIndex;
  if (options.rule === '1se') {
    const limit = table[minIndex].error + table[minIndex].se + 1e-12;
    table.forEach((row, j) => {
      if (row.error <= limit) chosenIndex = Math.max(chosenIndex, j);
    });
  }
  return {
    alpha: table[chosenIndex].alpha,
    cv: { folds: K, rule: options.rule, seed: options.seed, table, minIndex, chosenIndex },
  };
}

/** Weighted errors of T(limit) on rows that reach each node with `reach` (`reachOfMajority`). */
function testErrors(
  nodes: TreeShape,
  pruneAlpha: Float64Array,
  limit: number,
  reach: { total: Float64Array; majority: Float64Array },
): number {
  let errors = 0;
  const stack = [0];
  while (stack.length > 0) {
    const i = stack.pop()!;
    const b = nodes.branches(i);
    if (b === 0 || pruneAlpha[i] <= limit) {
      errors += reach.total[i] - reach.majority[i];
      continue;
    }
    for (let j = 0; j < b; j++) stack.push(nodes.child(i, j));
  }
  return errors;
}

/** Table entry (src/prune/registry.ts): a fixed `ccpAlpha`, or α chosen by cross-validation. */
export const costComplexityPruner: Pruner = {
  name: 'cost-complexity',
  description: "CART's weakest-link pruning, α fixed or chosen by cross-validation (Breiman et al. 1984, ch. 3)",
  reads: ['ccpAlpha', 'ccpFolds', 'ccpRule', 'seed', 'missing'],
  prune: (input) => {
    const { nodes, details } = pruneGrown({ ...input, tree: input.nodes });
    return { nodes: nodes as TreeNode[], details };
  },
  pruneGrown,
};

/** The pruner on a tree as grown: a store is pruned as a store (no node objects). */
function pruneGrown({ tree, options: o, data, weights, trainRows, grow }: GrownPrunerInput): GrownPrunerOutput {
  const links = weakestLinks(tree);
  const details: PruningDetails = { path: links.path };
  let alpha = o.ccpAlpha;
  // A tree that is one leaf (a one-class data set) has one α to choose: no fold is grown for it.
  if (alpha === undefined && links.path.length === 1) alpha = links.path[0].alpha;
  if (alpha === undefined) {
    if (!data || !weights || !grow)
      throw new GroveError('choosing ccpAlpha by cross-validation needs the training data and a grower');
    const folds = { folds: o.ccpFolds, rule: o.ccpRule, seed: o.seed, missing: o.missing };
    const chosen = chooseAlphaByCV(tree, data, weights, trainRows, grow, folds, links.path);
    alpha = chosen.alpha;
    details.cv = chosen.cv;
  }
  details.alpha = alpha;
  return { nodes: pruneGrownCostComplexity(tree, alpha, links), details };
}
