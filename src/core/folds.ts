import { badArgument, checkInt32Array, checkInteger, checkNumber } from './args.js';
import { mulberry32, shuffle } from './random.js';

/**
 * Stratified k-fold assignment: `fold[i]` in 0..k-1 for row i. Each class's rows are shuffled
 * with the seed and dealt round-robin, continuing the deal across classes, so every fold gets
 * its share of each class and fold sizes differ by at most one. Same seed, same folds, for every
 * competitor.
 */
export function stratifiedFolds(labels: Int32Array, nClasses: number, k: number, seed: number): Int32Array {
  checkInt32Array('stratifiedFolds', 'labels', labels);
  checkInteger('stratifiedFolds', 'nClasses', nClasses, 0, 2 ** 20);
  checkInteger('stratifiedFolds', 'k', k, 1);
  checkNumber('stratifiedFolds', 'seed', seed);
  for (let i = 0; i < labels.length; i++)
    if (labels[i] < 0 || labels[i] >= nClasses)
      badArgument('stratifiedFolds', `labels[${i}]`, `a class in 0…${nClasses - 1}`, labels[i]);
  const random = mulberry32(seed);
  const byClass: number[][] = Array.from({ length: nClasses }, () => []);
  labels.forEach((c, i) => byClass[c].push(i));
  const fold = new Int32Array(labels.length);
  let next = 0;
  for (const rows of byClass) {
    for (const i of shuffle(rows, random)) {
      fold[i] = next;
      next = (next + 1) % k;
    }
  }
  return fold;
}
