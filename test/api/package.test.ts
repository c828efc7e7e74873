import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../src/core/version.js';

const root = resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Files reachable from the browser-safe entry point: everything but the Node readers, I/O and CLI. */
const NODE_ONLY = [
  'src/cli/',
  'src/io/',
  'src/learn/threads/',
  'src/ensemble/threads/',
  'src/explain/threads/',
  'src/optimal/threads/',
  'src/compare/',
  'src/sources/',
  'src/engines/',
  'src/explore/scripts.ts',
  'src/node.ts',
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('package shape', () => {
  it('declares the entry points, types and the grove binary', () => {
    expect(pkg.type).toBe('module');
    expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' });
    expect(pkg.exports['./node']).toEqual({ types: './dist/node.d.ts', import: './dist/node.js' });
    expect(pkg.exports['./extend']).toEqual({ types: './dist/extend.d.ts', import: './dist/extend.js' });
    expect(pkg.bin).toEqual({ grove: './dist/cli/main.js' });
    expect(pkg.version).toBe(VERSION);
  });

  it('keeps the core free of Node imports (it must run in a browser or a worker)', () => {
    const core = sources(join(root, 'src')).filter((f) => !NODE_ONLY.some((n) => relative(root, f).startsWith(n)));
    expect(core.length).toBeGreaterThan(20);
    for (const file of core) {
      const text = readFileSync(file, 'utf8');
      const nodeImport = text.match(/from '(node:[^']+|fs|path|os|url|child_process|worker_threads)'/);
      expect(nodeImport?.[1], `${relative(root, file)} imports ${nodeImport?.[1]}`).toBeUndefined();
      // Nothing browser-safe may import a Node-only module either.
      for (const m of text.matchAll(/from '(\.[^']+)'/g)) {
        const target = relative(root, resolve(dirname(file), m[1].replace(/\.js$/, '.ts')));
        expect(
          NODE_ONLY.some((n) => target.startsWith(n)),
          `${relative(root, file)} imports ${target}`,
        ).toBe(false);
      }
    }
  });
});
