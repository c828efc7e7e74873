/**
 * Seed and budget of the fuzz suite. `npm test` runs it small and with a fixed seed, so a failure
 * there is reproducible as it stands; `npm run fuzz` (test/fuzz/run.mjs) sets GROVE_FUZZ_RUNS for a
 * long run and GROVE_FUZZ_SEED to a random seed it prints, so any failure can be replayed with the
 * same two variables.
 */
import type fc from 'fast-check';

const runsFromEnv = process.env.GROVE_FUZZ_RUNS ? Number(process.env.GROVE_FUZZ_RUNS) : undefined;

/** True in a long run (`npm run fuzz`). */
export const LONG_RUN = runsFromEnv !== undefined;

/** The seed every property starts from: GROVE_FUZZ_SEED, else a fixed one. */
export const SEED = process.env.GROVE_FUZZ_SEED ? Number(process.env.GROVE_FUZZ_SEED) : 18;

/**
 * fast-check parameters for a property: `small` runs in `npm test`; in a long run GROVE_FUZZ_RUNS
 * times `weight` (properties that spawn processes or fit models weigh less than 1).
 */
export function fuzzParams<T>(small: number, weight = 1): fc.Parameters<T> {
  const numRuns = runsFromEnv === undefined ? small : Math.max(1, Math.round(runsFromEnv * weight));
  return { seed: SEED, numRuns };
}

/** vitest's timeout for a property: enough for the small budget, unbounded in a long run. */
export const FUZZ_TIMEOUT = LONG_RUN ? 24 * 3600_000 : 60_000;
