/**
 * `grove fit`'s fits with their progress on a terminal (`ttyProgress`): a greedy tree, a forest,
 * an optimal tree's search.
 */
import { type FitProgress, fit } from '../algorithms/fit.js';
import type { Dataset } from '../data/dataset.js';
import { fitForest } from '../ensemble/fit-forest.js';
import type { Forest } from '../ensemble/forest.js';
import type { DecisionTree } from '../model/decision-tree.js';
import { fitOptimal } from '../optimal/fit-optimal.js';
import type { FitOptions } from '../options/options.js';
import { searchProgressLine } from './search-progress.js';
import { compactCount, compactRate, countText, type TtyProgressOptions, ttyProgress } from './tty-progress.js';

/**
 * A greedy tree: the share of the training weight in finished leaves (over every tree pruning
 * grows), the nodes grown and their rate.
 */
export function fitShown(data: Dataset, options: FitOptions, where: TtyProgressOptions): DecisionTree {
  const shown = ttyProgress('growing', where);
  let earlier = 0; // nodes of the trees already grown
  let current = 0;
  let growing = 1;
  const onProgress = ({ tree, trees, nodes, settled, weight }: FitProgress): void => {
    if (tree !== growing) {
      earlier += current;
      growing = tree;
    }
    current = nodes;
    const which = trees > 1 ? `tree ${tree} of ${trees}, ` : '';
    const all = earlier + nodes;
    const text = `${which}${compactCount(all)} nodes | ${compactRate(shown.rate(all))} nodes/s`;
    shown.update((tree - 1) * 1000 + Math.floor((1000 * settled) / Math.max(weight, 1e-300)), trees * 1000, text);
  };
  try {
    return fit(data, options, { names: 'flags', ...(shown.shown ? { onProgress } : {}) });
  } finally {
    shown.stop();
  }
}

/** A forest: trees grown of the total, and their rate. */
export function fitForestShown(data: Dataset, options: FitOptions, where: TtyProgressOptions): Forest {
  const shown = ttyProgress('growing a forest', where);
  const onTree = ({ grown, total }: { grown: number; total: number }) =>
    shown.update(grown, total, countText(shown, grown, total, 'trees'));
  try {
    return fitForest(data, options, { names: 'flags', ...(shown.shown ? { onTree } : {}) });
  } finally {
    shown.stop();
  }
}

/** An optimal tree, with the search's status line. */
export function fitSearched(data: Dataset, options: FitOptions, where: TtyProgressOptions): DecisionTree {
  const line = searchProgressLine(where.show !== false, where.stream);
  try {
    return fitOptimal(data, options, { names: 'flags', onProgress: line.onProgress });
  } finally {
    line.stop();
  }
}
