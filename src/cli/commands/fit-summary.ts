/** `grove fit`'s held-out rows (--test, --test-fraction) and its one-line summary. */

import { GroveError } from '../../core/errors.js';
import { stratifiedHoldOut } from '../../core/folds.js';
import { counted } from '../../core/text-table.js';
import type { Dataset } from '../../data/dataset.js';
import { subsetRows } from '../../data/subset.js';
import { evaluate } from '../../eval/evaluate.js';
import type { DecisionTree } from '../../model/decision-tree.js';
import { parseNumber } from '../../options/options.js';

/** `--test-fraction`'s value: a number strictly between 0 and 1. */
export function fractionOption(raw: string): number {
  const x = parseNumber(raw, '--test-fraction');
  if (!(x > 0 && x < 1))
    throw new GroveError(`option --test-fraction expects a number between 0 and 1 (exclusive), got '${raw}'`, {
      code: 'E_OPTION',
    });
  return x;
}

/** The training rows and the held-out rows of `--test-fraction` (stratified, seeded). */
export function holdOut(data: Dataset, fraction: number, seed: number): { train: Dataset; test: Dataset } {
  const { train, validation } = stratifiedHoldOut(data.labels, data.classes.length, fraction, seed);
  if (validation.length === 0)
    throw new GroveError(`--test-fraction ${fraction} holds out no row of ${data.nRows}: give a larger fraction`, {
      code: 'E_OPTION',
    });
  return { train: subsetRows(data, train), test: subsetRows(data, validation) };
}

/** `accuracy 0.9533` with four decimals. */
const acc = (x: number): string => x.toFixed(4);

/**
 * The summary line of a fit (for `note`): the tree's size, its pruning, its accuracy on the training rows (when
 * given) and on held-out rows (when given), and where it went.
 */
export function fitSummary(
  tree: DecisionTree,
  where: string,
  parts: { train?: Dataset; test?: Dataset; out?: string },
): string {
  const s = tree.stats();
  const p = tree.pruning;
  const pruned = p
    ? `; pruned (${p.method}${p.alpha !== undefined ? `, α = ${p.alpha.toPrecision(4)}` : ''}) ` +
      `from ${counted(p.leavesBefore, 'leaf', 'leaves')}`
    : '';
  const train = parts.train ? `; training accuracy ${acc(evaluate(tree, parts.train).accuracy)}` : '';
  let test = '';
  if (parts.test) {
    const e = evaluate(tree, parts.test);
    const unseen = e.unseenRows > 0 ? `, ${counted(e.unseenRows, 'row')} of classes the model never saw` : '';
    test = `; held-out accuracy ${acc(e.accuracy)} on ${counted(e.rows, 'row')}${unseen}`;
  }
  return (
    `${tree.options.algorithm} tree (${tree.options.criterion}) ${where}: ` +
    `${counted(s.nodes, 'node')}, ${counted(s.leaves, 'leaf', 'leaves')}, height ${s.height}${pruned}${train}${test}` +
    `${parts.out ? ` → ${parts.out}` : ''}`
  );
}
