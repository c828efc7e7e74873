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

/**
 * Stratified hold-out: from each class, round(fraction · n_c) rows (chosen with the seeded
 * generator) go to validation, but never all of a class's rows when it has more than one.
 */
export function stratifiedHoldOut(
  labels: Int32Array,
  nClasses: number,
  fraction: number,
  seed: number,
): { train: number[]; validation: number[] } {
  const random = mulberry32(seed);
  const byClass: number[][] = Array.from({ length: nClasses }, () => []);
  labels.forEach((c, i) => byClass[c].push(i));
  const isValidation = new Uint8Array(labels.length);
  for (const rows of byClass) {
    if (rows.length === 0) continue;
    let take = Math.round(fraction * rows.length);
    if (take >= rows.length && rows.length > 1) take = rows.length - 1;
    for (const i of shuffle(rows, random).slice(0, take)) isValidation[i] = 1;
  }
  const train: number[] = [];
  const validation: number[] = [];
  for (let i = 0; i < labels.length; i++) (isValidation[i] ? validation : train).push(i);
  return { train, validation };
}
