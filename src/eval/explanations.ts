import { z } from 'zod';

/**
 * What the report's explanation pictures of one (data set, configuration) show, as plain numbers:
 * the model fitted on all rows (a tree or a forest), explained on a seeded sample of the rows.
 * `grove compare` computes it while it has the data (src/compare/explain-cell.ts); the results
 * file keeps it, so `grove report` draws the pictures from the file alone.
 */
export interface ExplanationRecord {
  dataset: string;
  config: string;
  /** Rows explained: the data set's rows, or a sample of them drawn with `seed`. */
  rows: number;
  seed: number;
  features: string[];
  /** The class labels as text, in the model's order (the innermost axis below). */
  classes: string[];
  /** The expected value (mean predicted probability) of each class. */
  expected: number[];
  /** Mean |SHAP value| over the rows explained: `meanAbs[feature * classes.length + c]`. */
  meanAbs: number[];
  /** The waterfall's row (see `representativeRow`): its index in the data set (from 0), its class, its SHAP values. */
  row: { index: number; class: number; contributions: number[] };
  /** Partial dependence curves of the features contributing most: `average[g * classes.length + c]`. */
  partial: Array<{ feature: string; grid: Array<number | string>; method: 'recursion' | 'brute'; average: number[] }>;
  /** Time to fit and explain, in milliseconds. */
  ms: number;
}

const num = z.number();
const int = z.number().int().nonnegative();

/** The results file's `explanations` entries (absent from files written before they were recorded). */
export const explanationSchema = z
  .object({
    dataset: z.string(),
    config: z.string(),
    rows: int,
    seed: z.number().int(),
    features: z.array(z.string()),
    classes: z.array(z.string()),
    expected: z.array(num),
    meanAbs: z.array(num.nonnegative()),
    row: z.object({ index: int, class: int, contributions: z.array(num) }),
    partial: z.array(
      z.object({
        feature: z.string(),
        grid: z.array(z.union([num, z.string()])),
        method: z.enum(['recursion', 'brute']),
        average: z.array(num),
      }),
    ),
    ms: num,
  })
  .superRefine((x, ctx) => {
    const k = x.classes.length;
    const f = x.features.length;
    const bad = (message: string) => ctx.addIssue({ code: 'custom', message });
    if (x.expected.length !== k) bad(`expected has ${x.expected.length} values for ${k} classes`);
    if (x.meanAbs.length !== f * k) bad(`meanAbs has ${x.meanAbs.length} values for ${f} features × ${k} classes`);
    if (x.row.contributions.length !== f * k) bad(`row.contributions has ${x.row.contributions.length} values`);
    if (x.row.class >= k) bad(`row.class ${x.row.class} is not a class index`);
    for (const p of x.partial)
      if (p.average.length !== p.grid.length * k) bad(`partial '${p.feature}': average does not match its grid`);
  });
