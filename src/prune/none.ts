import type { Pruner } from './pruner.js';

/** The method that keeps the tree as grown; `fit` then records no pruning. */
export const NO_PRUNING = 'none';

export const nonePruner: Pruner = {
  name: NO_PRUNING,
  description: 'no post-pruning: the tree as grown',
  reads: [],
  prune: ({ nodes }) => ({ nodes }),
};
