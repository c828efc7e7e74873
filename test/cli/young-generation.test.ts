import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, repoRoot } from '../helpers/cli.js';

/**
 * A child Node process that runs `calls` of young-generation.js, then makes a million small
 * objects that survive young collections; the new space's size before and after them.
 */
function newSpaceSizes(calls: string): { before: number; after: number } {
  const module = pathToFileURL(resolve(repoRoot, 'dist/cli/young-generation.js')).href;
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    import { holdYoungGeneration, releaseYoungGeneration } from ${JSON.stringify(module)};
    const newSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
    ${calls};
    const before = newSpace();
    const kept = [];
    for (let i = 0; i < 1 << 20; i++) kept.push({ i, s: 'x' + i });
    console.log(JSON.stringify({ before, after: newSpace(), kept: kept.length }));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout);
}

describe('the young generation held small (in-database fits)', () => {
  beforeAll(assertBuilt);

  it('held, V8 does not grow it; released, or never held, it grows', () => {
    // Node 20's new space starts at 1 MB and grows to 32 MB under this load; held, it may double once.
    const grown = newSpaceSizes('');
    expect(grown.after).toBeGreaterThanOrEqual(8 * grown.before);
    const held = newSpaceSizes('holdYoungGeneration()');
    expect(held.after).toBeLessThanOrEqual(2 * held.before);
    const released = newSpaceSizes('holdYoungGeneration(); releaseYoungGeneration()');
    expect(released.after).toBeGreaterThanOrEqual(8 * released.before);
  });
});
