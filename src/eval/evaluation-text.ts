/** The text report of an {@link Evaluation}: headline figures, per-class table, confusion matrix. */

import { escapeControl } from '../core/errors.js';
import { textTable } from '../core/text-table.js';
import type { Evaluation } from './evaluate.js';

const f4 = (x: number): string => (Number.isFinite(x) ? x.toFixed(4) : '—');

/** Lines of `grove evaluate`'s report (no trailing newline). */
export function evaluationText(e: Evaluation): string[] {
  const lines = [
    `rows              ${e.rows}`,
    `accuracy          ${f4(e.accuracy)}`,
    `balanced accuracy ${f4(e.balancedAccuracy)}`,
    `macro F1          ${f4(e.macroF1)}`,
    `log loss          ${f4(e.logLoss)}`,
  ];
  if (e.unseenClasses.length > 0)
    lines.push(
      `classes the model never saw: ${e.unseenClasses.map((c) => `'${escapeControl(String(c))}'`).join(', ')} ` +
        `(${e.unseenRows} ${e.unseenRows === 1 ? 'row' : 'rows'}, all counted as errors)`,
    );
  const unclassified = e.unclassified.reduce((a, b) => a + b, 0);
  if (unclassified > 0) lines.push(`unclassified rows (counted as errors): ${unclassified}`);
  lines.push('');
  lines.push(
    ...textTable(
      ['class', 'precision', 'recall', 'F1', 'support', 'predicted'],
      e.perClass.map((c) => [
        `${String(c.label)}${c.unseen ? ' (unseen)' : ''}`,
        f4(c.precision),
        f4(c.recall),
        f4(c.f1),
        String(c.support),
        String(c.predicted),
      ]),
    ),
  );
  lines.push('', 'confusion matrix (rows: actual class, columns: predicted class)');
  const header = ['', ...e.labels.map(String), ...(unclassified > 0 ? ['unclassified'] : [])];
  lines.push(
    ...textTable(
      header,
      e.labels.map((label, a) => [
        String(label),
        ...e.confusion[a].map(String),
        ...(unclassified > 0 ? [String(e.unclassified[a])] : []),
      ]),
    ),
  );
  return lines;
}
