import { renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { GroveError } from '../core/errors.js';

/**
 * Write `content` to `path` so that readers never see half a file: write a temporary file in the
 * same directory, then rename it over the target. On failure nothing is left behind.
 */
export function writeFileAtomic(path: string, content: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, content);
    renameSync(tmp, path);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // the temporary file was never created
    }
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new GroveError(`cannot write file (${reason})`, { file: path });
  }
}
