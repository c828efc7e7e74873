import { z } from 'zod';
import { GroveError } from '../core/errors.js';
import { validateModel } from '../model/schema.js';
import { explanationSchema } from './explanations.js';
import { type CompareResults, RESULTS_FORMAT, RESULTS_VERSION } from './results.js';

const num = z.number();
const int = z.number().int().nonnegative();
const fold = z.object({
  dataset: z.string(),
  config: z.string(),
  repeat: int,
  fold: int,
  trainRows: int,
  testRows: int,
  testAccuracy: num.min(0).max(1),
  trainAccuracy: num.min(0).max(1),
  nodes: int,
  leaves: int,
  height: int,
  needlessFeatures: int,
  fitMs: num,
  predictMs: num,
  confusion: z.array(z.array(int)).optional(),
  optimal: z.object({ proven: z.boolean(), lowerBound: num }).optional(),
});
const schema = z.object({
  format: z.literal(RESULTS_FORMAT),
  version: z.literal(RESULTS_VERSION),
  grove: z.string(),
  runtime: z.string().optional(),
  created: z.string(),
  complete: z.boolean(),
  settings: z.object({ folds: int, repeats: int, seed: int, models: z.boolean() }),
  datasets: z.array(
    z.object({
      name: z.string(),
      file: z.string(),
      rows: int,
      features: int,
      numeric: int,
      categorical: int,
      classes: int,
      foldsPlanned: int,
      classLabels: z.array(z.string()).optional(),
      sha256: z.string().optional(),
    }),
  ),
  configs: z.array(z.object({ label: z.string(), options: z.record(z.string(), z.unknown()) })),
  folds: z.array(fold),
  models: z.array(
    z.object({
      dataset: z.string(),
      config: z.string(),
      fitMs: num,
      nodes: int,
      leaves: int,
      height: int,
      needlessFeatures: z.array(z.string()),
      model: z.unknown(),
    }),
  ),
  explanations: z.array(explanationSchema).optional(),
});

/**
 * Check that `value` is a results file written by `grove compare` (results.json) and return it;
 * every saved model is validated as a grove model too. Derived fields (summary, statistics) are
 * dropped: the report recomputes them. Throws GroveError with a one-line reason.
 */
export function parseResults(value: unknown, file?: string): CompareResults {
  if (typeof value !== 'object' || value === null || (value as { format?: unknown }).format !== RESULTS_FORMAT) {
    throw new GroveError(`not a grove compare results file (expected "format": "${RESULTS_FORMAT}")`, { file });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new GroveError(`corrupt results file: ${issue.path.join('.') || '(root)'}: ${issue.message}`, { file });
  }
  const r = parsed.data;
  const names = new Set(r.datasets.map((d) => d.name));
  const labels = new Set(r.configs.map((c) => c.label));
  for (const f of [...r.folds, ...r.models, ...(r.explanations ?? [])]) {
    if (!names.has(f.dataset) || !labels.has(f.config))
      throw new GroveError(
        `corrupt results file: a result for unknown data set or configuration '${f.dataset}' × '${f.config}'`,
        { file },
      );
  }
  const models = r.models.map((m) => ({ ...m, model: validateModel(m.model, file) }));
  return { ...r, models } as CompareResults;
}
