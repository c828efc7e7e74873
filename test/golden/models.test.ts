import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ES module script without types
import { goldenRun } from '../../scripts/golden-models.mjs';
import { dataDir, haveCorpus } from '../helpers/paths.js';

// Models, predictions and exports must stay byte-identical across refactors: the hashes in
// models.json were recorded by `node scripts/golden-models.mjs --save` before the renovation.
describe('golden models', () => {
  it('every model file, prediction and export is byte-identical to the recorded one', async () => {
    const expected = JSON.parse(readFileSync(resolve(__dirname, 'models.json'), 'utf8')) as Record<string, unknown>;
    const got = (await goldenRun({ dataDir, local: !haveCorpus })) as Map<string, unknown>;
    expect(got.size).toBeGreaterThanOrEqual(haveCorpus ? 400 : 300);
    const differing = [...got]
      .filter(([key, entry]) => JSON.stringify(entry) !== JSON.stringify(expected[key]))
      .map(([key]) => key);
    expect(differing).toEqual([]);
  }, 180_000);
});
