import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** The project's test/fixtures folder. */
export const fixtures = resolve(here, '../fixtures');

/** The shared UCI corpus: $GROVE_DATA_DIR, else ../shared/datasets beside the project. */
export const dataDir = process.env.GROVE_DATA_DIR ?? resolve(here, '../../../shared/datasets');

/** True when the corpus is present; tests that need it are skipped with a message otherwise. */
export const haveCorpus = existsSync(resolve(dataDir, 'iris.csv'));
if (!haveCorpus) console.warn(`skipping tests on the UCI corpus: ${dataDir} not found (set GROVE_DATA_DIR)`);

export const fixture = (name: string): string => resolve(fixtures, name);
export const corpus = (name: string): string => resolve(dataDir, `${name}.csv`);
