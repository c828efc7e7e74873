/**
 * The grower reads the resolved options on every node, so every `resolveOptions` result must be a
 * fast-properties object of one hidden class. Checked in a child process with V8's natives syntax,
 * on dist/ (npm test builds first).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';

describe('resolveOptions', () => {
  it('builds objects with fast properties that share one map, whatever the presets and options', () => {
    const script = `
      const { resolveOptions } = await import(${JSON.stringify(pathToFileURL(join(repoRoot, 'dist', 'options', 'options.js')).href)});
      const same = new Function('a', 'b', 'return %HaveSameMap(a, b)');
      const fast = new Function('a', 'return %HasFastProperties(a)');
      const make = (i) => resolveOptions(i % 2
        ? { algorithm: ['c45', 'cart', 'zaki', 'id3'][i % 4], maxDepth: i, bins: 16, classWeight: 'balanced' }
        : { criterion: 'dcsm', prune: 'none' });
      for (let i = 0; i < 20; i++) make(i);
      const first = make(0);
      let shared = true;
      let allFast = true;
      for (let i = 0; i < 40; i++) {
        const o = make(i);
        shared = same(first, o) && shared;
        allFast = fast(o) && allFast;
      }
      console.log(JSON.stringify({ shared, allFast }));`;
    const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(JSON.parse(out)).toEqual({ shared: true, allFast: true });
  });
});
