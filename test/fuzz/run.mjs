/**
 * `npm run fuzz`: the fuzz suite with a long budget and a random seed, printed first so that a
 * failure can be replayed: GROVE_FUZZ_SEED=<seed> GROVE_FUZZ_RUNS=<runs> npm run fuzz.
 * GROVE_FUZZ_RUNS (default 5000) is the number of cases per property (processes and fits weigh less).
 */
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';

const seed = process.env.GROVE_FUZZ_SEED ?? String(randomInt(2 ** 31));
const runs = process.env.GROVE_FUZZ_RUNS ?? '5000';
console.log(`grove fuzz: seed ${seed}, ${runs} runs per property (replay: GROVE_FUZZ_SEED=${seed} GROVE_FUZZ_RUNS=${runs} npm run fuzz)`);
const r = spawnSync('npx', ['vitest', 'run', 'test/fuzz', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, GROVE_FUZZ_SEED: seed, GROVE_FUZZ_RUNS: runs },
});
if (r.status !== 0) console.log(`grove fuzz failed: replay with GROVE_FUZZ_SEED=${seed} GROVE_FUZZ_RUNS=${runs} npm run fuzz`);
process.exitCode = r.status ?? 1;
