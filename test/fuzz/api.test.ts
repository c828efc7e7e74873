/**
 * API fuzz: every function exported from the built library (dist/index.js and dist/extend.js;
 * `npm test` builds first) and every method of a fitted DecisionTree, called with junk arguments. Property: it returns,
 * or throws a GroveError; nothing else escapes, and no call hangs. The calls run in a worker thread
 * so that a hang is reported (and the worker ended) instead of stopping the suite.
 */
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { FUZZ_TIMEOUT, fuzzParams } from './config.js';
import { KNOWN_API } from './known.js';

/** The entry points fuzzed, and the prefix of their targets' names. */
const LIBRARIES: [string, string][] = [
  ['', resolve(repoRoot, 'dist/index.js')],
  ['extend.', resolve(repoRoot, 'dist/extend.js')],
];
const WORKER = resolve(repoRoot, 'test/fuzz/api-worker.mjs');
const { seed, numRuns } = fuzzParams(150);
/** A target still running after this long is a hang. */
const HANG_MS = numRuns * 20 + 2000;

type Outcome = { failure?: string };

/** Run `names` in a worker; on a hang, end it, record the hang, go on in a new worker. */
async function runTargets(library: string, prefix: string, names: string[], out: Map<string, Outcome>): Promise<void> {
  let rest = names;
  while (rest.length) {
    const pending = rest;
    rest = await new Promise<string[]>((done, fail) => {
      const worker = new Worker(WORKER, { workerData: { library, names: pending, seed, numRuns } });
      let current: string | undefined;
      let timer: NodeJS.Timeout | undefined;
      worker.on('message', (m: { type: string; name: string; failure?: string }) => {
        clearTimeout(timer);
        if (m.type === 'start') {
          current = m.name;
          timer = setTimeout(() => {
            out.set(prefix + m.name, { failure: `no answer within ${HANG_MS} ms (a hang)` });
            void worker.terminate();
            done(pending.slice(pending.indexOf(m.name) + 1));
          }, HANG_MS);
        } else if (m.type === 'done') out.set(prefix + m.name, { failure: m.failure });
      });
      worker.on('error', (e) => fail(new Error(`api fuzz worker died in ${current}: ${e.message}`)));
      worker.on('exit', () => {
        clearTimeout(timer);
        done([]);
      });
    });
  }
}

/** The targets, as the worker lists them. */
async function listTargets(library: string): Promise<string[]> {
  return new Promise((done, fail) => {
    const worker = new Worker(WORKER, { workerData: { library, names: [], list: true, seed, numRuns } });
    worker.on('message', (m: { type: string; names: string[] }) => m.type === 'list' && done(m.names));
    worker.on('error', fail);
  });
}

const outcomes = new Map<string, Outcome>();
const targets: string[] = [];

beforeAll(async () => {
  for (const [prefix, library] of LIBRARIES) {
    const names = await listTargets(library);
    await runTargets(library, prefix, names, outcomes);
    targets.push(...names.map((n) => prefix + n));
  }
}, FUZZ_TIMEOUT);

describe('API fuzz: junk arguments give a result or a GroveError', () => {
  it('covers every exported function and the known-failure list names only real targets', () => {
    expect(targets.length).toBeGreaterThan(50);
    expect(outcomes.size).toBe(targets.length);
    expect([...KNOWN_API.keys()].filter((k) => !targets.includes(k))).toEqual([]);
  });

  it('no API target is a known failure: every exported function checks its arguments (item 8)', () => {
    expect([...KNOWN_API.keys()]).toEqual([]);
  });

  it('every target outside the known list holds', () => {
    const failing = [...outcomes]
      .filter(([n, o]) => o.failure && !KNOWN_API.has(n))
      .map(([n, o]) => `${n}: ${o.failure}`);
    expect(failing).toEqual([]);
  });

  // One test per known failure: it.fails turns red once the fix lands, so the entry can go.
  for (const [name, reason] of KNOWN_API) {
    it.fails(`${name} (${reason})`, () => {
      expect(outcomes.get(name)?.failure).toBeUndefined();
    });
  }
});
