import { escapeControl } from '../core/errors.js';
import { significant, textTable } from '../core/text-table.js';
import type { PermutationImportance } from '../explain/permutation.js';

/**
 * `grove explain --permutation`'s table: a line saying what was measured, then one row per feature
 * by decreasing mean decrease in accuracy (ties in the model's feature order), with the standard
 * deviation over the shuffles, 3 significant digits.
 */
export function permutationText(pi: PermutationImportance, rows: number, seed: number): string {
  const order = pi.features.map((_, j) => j).sort((a, b) => pi.mean[b] - pi.mean[a] || a - b);
  const head =
    `accuracy ${significant(pi.baseline, 4)} on ${rows} ${rows === 1 ? 'row' : 'rows'}; ` +
    `decrease when a feature is shuffled, over ${pi.repeats} ` +
    `${pi.repeats === 1 ? 'shuffle' : 'shuffles'} (seed ${seed})`;
  const table = textTable(
    ['feature', 'mean decrease', 'std'],
    order.map((j) => [escapeControl(pi.features[j]), significant(pi.mean[j]), significant(pi.sd[j])]),
  );
  return `${[head, ...table].join('\n')}\n`;
}
