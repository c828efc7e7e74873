/**
 * The README's examples as a user meets them: its fenced blocks, and a throwaway project that
 * imports `grove` by name (node_modules/grove → this repository, its built dist and types).
 */
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { repoRoot } from '../helpers/cli.js';

/** A fenced block of README.md: its language and text, and the line its fence opens on. */
export interface Block {
  lang: string;
  text: string;
  line: number;
}

/** Every fenced block of README.md, in order. */
export function readmeBlocks(): Block[] {
  const lines = readFileSync(resolve(repoRoot, 'README.md'), 'utf8').split('\n');
  const blocks: Block[] = [];
  let open: { lang: string; line: number; body: string[] } | undefined;
  lines.forEach((l, i) => {
    const fence = /^```(\S*)/.exec(l);
    if (!fence) {
      open?.body.push(l);
      return;
    }
    if (open) {
      blocks.push({ lang: open.lang, text: open.body.join('\n'), line: open.line });
      open = undefined;
    } else {
      open = { lang: fence[1] ?? '', line: i + 1, body: [] };
    }
  });
  return blocks;
}

/** Packages a README example imports besides grove (devDependencies here, the user's own there). */
const OTHER_PACKAGES = ['apache-arrow', 'onnxruntime-web', '@types/node'];

/**
 * A new project directory: `"type": "module"`, node_modules/grove linked to this repository,
 * the other packages the examples import, and `data/` (the shipped data sets).
 */
export function userProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'grove-readme-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'readme-user', type: 'module' }));
  const link = (target: string, path: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    symlinkSync(target, join(dir, path), 'dir');
  };
  link(repoRoot, 'node_modules/grove');
  for (const name of OTHER_PACKAGES) link(resolve(repoRoot, 'node_modules', name), `node_modules/${name}`);
  link(resolve(repoRoot, 'data'), 'data');
  return dir;
}
