import { csvLine } from '../data/csv-write.js';
import type { PartialDependence } from '../explain/partial.js';
import type { ShapValues } from '../explain/shap.js';
import type { ShapSummary } from '../explain/summary.js';
import { type OutColumn, writeParquetFile } from '../sources/index.js';
import { writeStreamed } from './commands/predict.js';

/**
 * `grove explain`'s outputs. Wide: one line per row, for each class its expected value (column
 * `CLASS:(base)`) then one contribution per feature (`CLASS:FEATURE`). Long: `row,class,feature,
 * contribution`, one line per (row, class, feature), the feature `(base)` holding the expected
 * value; rows numbered from 1 as in the data. Numbers are written in full (shortest round-trip form),
 * so the base plus the contributions add up to the probability.
 */

export const BASE = '(base)';

/** Rows of lines written per chunk, so memory stays bounded on big outputs. */
const CHUNK = 2048;

export function wideHeader(shap: ShapValues): string[] {
  return shap.classes.flatMap((c) => [`${c}:${BASE}`, ...shap.features.map((f) => `${c}:${f}`)]);
}

/** Write the contributions as CSV to `out` (atomically) or stdout. */
export async function writeShapCsv(shap: ShapValues, long: boolean, out: string | undefined): Promise<void> {
  const f = shap.features.length;
  const k = shap.classes.length;
  await writeStreamed(out, async (write) => {
    await write(`${csvLine(long ? ['row', 'class', 'feature', 'contribution'] : wideHeader(shap))}\n`);
    for (let start = 0; start < shap.nRows; start += CHUNK) {
      const lines: string[] = [];
      for (let i = start; i < Math.min(shap.nRows, start + CHUNK); i++) {
        if (!long) {
          const row: number[] = [];
          for (let c = 0; c < k; c++) {
            row.push(shap.expected[c]);
            for (let j = 0; j < f; j++) row.push(shap.values[(i * f + j) * k + c]);
          }
          lines.push(`${row.join(',')}\n`);
          continue;
        }
        for (let c = 0; c < k; c++) {
          lines.push(`${csvLine([i + 1, shap.classes[c], BASE, shap.expected[c]])}\n`);
          for (let j = 0; j < f; j++)
            lines.push(`${csvLine([i + 1, shap.classes[c], shap.features[j], shap.values[(i * f + j) * k + c]])}\n`);
        }
      }
      await write(lines.join(''));
    }
  });
}

/** Write the contributions to the Parquet file `path`, wide or long as the CSV. */
export async function writeShapParquet(shap: ShapValues, long: boolean, path: string): Promise<void> {
  const f = shap.features.length;
  const k = shap.classes.length;
  if (!long) {
    const columns: OutColumn[] = wideHeader(shap).map((name, at) => {
      const c = Math.floor(at / (f + 1));
      const j = (at % (f + 1)) - 1;
      const value = j < 0 ? () => shap.expected[c] : (i: number) => shap.values[(i * f + j) * k + c];
      return { name, type: 'DOUBLE', value };
    });
    await writeParquetFile(path, columns, shap.nRows);
    return;
  }
  // Line n of the long form: row ⌊n / (k(f+1))⌋, then class, then (base) and the features.
  const per = k * (f + 1);
  const part = (n: number) => ({ i: Math.floor(n / per), c: Math.floor((n % per) / (f + 1)), j: (n % (f + 1)) - 1 });
  const columns: OutColumn[] = [
    { name: 'row', type: 'BIGINT', value: (n) => part(n).i + 1 },
    { name: 'class', type: 'VARCHAR', value: (n) => String(shap.classes[part(n).c]) },
    { name: 'feature', type: 'VARCHAR', value: (n) => (part(n).j < 0 ? BASE : shap.features[part(n).j]) },
    {
      name: 'contribution',
      type: 'DOUBLE',
      value: (n) => {
        const { i, c, j } = part(n);
        return j < 0 ? shap.expected[c] : shap.values[(i * f + j) * k + c];
      },
    },
  ];
  await writeParquetFile(path, columns, shap.nRows * per);
}

/** The summary table: features by decreasing mean |contribution|, the total then one column per class. */
export function summaryText(summary: ShapSummary, classes: readonly unknown[]): string {
  const k = classes.length;
  const head = ['feature', 'mean |contribution|', ...classes.map(String)];
  const rows = summary.order.map((j) => [
    summary.features[j],
    summary.total[j].toFixed(6),
    ...classes.map((_, c) => summary.perClass[j * k + c].toFixed(6)),
  ]);
  const widths = head.map((h, col) => Math.max(h.length, ...rows.map((r) => r[col].length)));
  const line = (r: string[]) =>
    r.map((s, col) => (col === 0 ? s.padEnd(widths[col]) : s.padStart(widths[col]))).join('  ');
  return `${[head, ...rows].map(line).join('\n')}\n`;
}

/** The partial dependence curve: the feature's grid value, then the mean probability of each class. */
export async function writePartial(pd: PartialDependence, out: string | undefined): Promise<void> {
  const k = pd.classes.length;
  if (out !== undefined && /\.parquet$/i.test(out)) {
    const numeric = pd.grid.every((v) => typeof v === 'number');
    const columns: OutColumn[] = [
      numeric
        ? { name: pd.feature, type: 'DOUBLE', value: (g) => pd.grid[g] as number }
        : { name: pd.feature, type: 'VARCHAR', value: (g) => String(pd.grid[g]) },
      ...pd.classes.map(
        (c, ci): OutColumn => ({ name: String(c), type: 'DOUBLE', value: (g) => pd.average[g * k + ci] }),
      ),
    ];
    await writeParquetFile(out, columns, pd.grid.length);
    return;
  }
  await writeStreamed(out, async (write) => {
    const lines = [csvLine([pd.feature, ...pd.classes])];
    pd.grid.forEach((v, g) => lines.push(csvLine([v, ...Array.from(pd.average.subarray(g * k, (g + 1) * k))])));
    await write(`${lines.join('\n')}\n`);
  });
}
