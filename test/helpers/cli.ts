/**
 * Helpers for the CLI tests: run the BUILT binary (`dist/cli/main.js`) as a child process.
 * `npm test` builds first (the `pretest` script); run `npm run build` before `npx vitest run test/cli`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** The repository root (two levels above test/helpers). */
export const repoRoot = resolve(here, '../..');

/** The built CLI entry point. */
export const cliPath = resolve(repoRoot, 'dist/cli/main.js');

/** Absolute path of a file in test/fixtures. */
export const fixture = (name: string): string => resolve(repoRoot, 'test/fixtures', name);

/** Throw a clear error when the CLI has not been built. */
export function assertBuilt(): void {
  if (!existsSync(cliPath)) {
    throw new Error(
      `${cliPath} is missing: the CLI tests run the built binary; run \`npm run build\` first (\`npm test\` does it via pretest)`,
    );
  }
}

export interface CliResult {
  /** Exit code (null if the process was killed). */
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Run `node dist/cli/main.js ...args` synchronously. */
export function grove(args: readonly string[], options: { cwd?: string } = {}): CliResult {
  const r = spawnSync(process.execPath, [cliPath, ...args], {
    cwd: options.cwd ?? repoRoot,
    encoding: 'utf8',
    timeout: 20_000,
    // No GROVE_DEBUG (it would turn internal errors into stack traces); no colours.
    env: { ...process.env, GROVE_DEBUG: '', NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Non-empty lines of a text. */
export function lines(text: string): string[] {
  return text.split(/\r?\n/).filter((l) => l.length > 0);
}

/** A tiny RFC 4180 CSV parser for the CLI's output (quoted fields, `""` escapes). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += ch;
      i++;
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
    i++;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** Leftover temporary files (from atomic writes) in a directory. */
export function tmpLeftovers(dir: string): string[] {
  return readdirSync(dir).filter((f) => f.endsWith('.tmp'));
}

/**
 * Run `body` (e.g. the CLI's `run(argv)` in this process) with this process's stdout and stderr
 * captured, and restored afterwards even if it throws.
 */
export async function withCapturedOutput<T>(
  body: () => Promise<T>,
): Promise<{ value: T; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const { write: ow } = process.stdout;
  const { write: ew } = process.stderr;
  process.stdout.write = ((c: string | Uint8Array) => out.push(String(c)) > 0) as typeof process.stdout.write;
  process.stderr.write = ((c: string | Uint8Array) => err.push(String(c)) > 0) as typeof process.stderr.write;
  try {
    const value = await body();
    return { value, stdout: out.join(''), stderr: err.join('') };
  } finally {
    process.stdout.write = ow;
    process.stderr.write = ew;
  }
}
