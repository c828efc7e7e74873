import { type BigIntStats, statSync } from 'node:fs';
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
 * Refuse, before any work, an output that is one of the inputs: the same path, or the same file
 * reached through a symbolic link or a hard link (same device and inode). Writing it would
 * destroy the input.
 */
export function refuseOutputOverInput(outputs: readonly OutputPath[], inputs: readonly string[]): void {
  const read = inputs.map((path) => ({ path, id: identity(path) }));
  for (const out of outputs) {
    const id = identity(out.path);
    if (!id) continue;
    const input = read.find((i) => i.id && i.id.dev === id.dev && i.id.ino === id.ino);
    if (input)
      throw new GroveError(
        `${out.flag} ${out.path} is also an input${input.path === out.path ? '' : ` (${input.path})`}; refusing to overwrite it (write to another file)`,
      );
  }
}
