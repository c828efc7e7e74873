import { accessSync, type BigIntStats, constants, statSync } from 'node:fs';
import { GroveError } from '../core/errors.js';

/** An output file and the flag that named it (for the message). */
export interface OutputPath {
  flag: string;
  path: string;
}

/** The file's identity (device and inode, following symbolic links), or undefined when it does not exist. */
function identity(path: string): BigIntStats | undefined {
  try {
    return statSync(path, { bigint: true });
  } catch {
    return undefined;
  }
}

/**
 * The file an input spec reads: the path itself, or the database file of `duckdb:PATH` (with its
 * write-ahead log, which DuckDB replays into it). Other databases are no local file.
 */
function inputFiles(spec: string): string[] {
  if (spec.startsWith('duckdb:')) {
    const hash = spec.indexOf('#');
    const path = spec.slice('duckdb:'.length, hash < 0 ? undefined : hash);
    return path === '' || path === ':memory:' ? [] : [path, `${path}.wal`];
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(spec)) return [];
  return [spec];
}

/**
 * True when an existing regular file is read-only: no write bit at all (which root, who may write
 * anything, must respect too, as `cp` and editors do), or not writable by this process.
 */
export function isReadOnly(path: string, st: { mode: number | bigint }): boolean {
  if ((Number(st.mode) & 0o222) === 0) return true;
  try {
    accessSync(path, constants.W_OK);
    return false;
  } catch {
    return true;
  }
}

/** The message that refuses a read-only output. */
export function readOnlyMessage(what: string): string {
  return `${what} is read-only; refusing to replace it (make it writable, or write to another file)`;
}

/**
 * Check the outputs before any work: refuse one that is one of the inputs (the same path, or the
 * same file reached through a symbolic link or a hard link: same device and inode; a
 * `duckdb:FILE` input is its database file), as writing it would destroy the input; and refuse
 * an existing read-only file, which grove must not replace.
 */
export function refuseOutputOverInput(outputs: readonly OutputPath[], inputs: readonly string[]): void {
  const read = inputs.flatMap(inputFiles).map((path) => ({ path, id: identity(path) }));
  for (const out of outputs) {
    const id = identity(out.path);
    if (!id) continue;
    const input = read.find((i) => i.id && i.id.dev === id.dev && i.id.ino === id.ino);
    if (input)
      throw new GroveError(
        `${out.flag} ${out.path} is also an input${input.path === out.path ? '' : ` (${input.path})`}; ` +
          'refusing to overwrite it (write to another file)',
      );
    if (id.isFile() && isReadOnly(out.path, id))
      throw new GroveError(readOnlyMessage(`${out.flag} ${out.path}`), { code: 'E_IO' });
  }
}
