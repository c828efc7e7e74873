import { closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { GroveError } from '../core/errors.js';

/** The lock file in an output folder: the pid of the `grove compare` writing there. */
export const LOCK_FILE = '.grove-compare.lock';

/**
 * A lock file with no pid is a run that has just created it, unless it is older than this: then
 * the run died between creating and writing it.
 */
const EMPTY_LOCK_GRACE_MS = 10_000;

/** True when a process with this pid exists (EPERM: it exists but is another user's). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid in a lock file; undefined when it holds none; null when the file is gone. */
function holderOf(file: string): number | undefined | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new GroveError(`cannot read the lock (${(err as NodeJS.ErrnoException).code})`, { file });
  }
  return /^\d+\n?$/.test(text) ? Number(text.trim()) : undefined;
}

function ageMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Exclusive use of a compare output folder, so that two runs never interleave their cells:
 * `take` creates the lock file with O_EXCL and writes this process's pid; a lock whose process
 * is gone is taken over (with a note); a live one refuses the run. `release` removes the lock
 * (also done on process exit, whatever ends the run).
 */
export class OutLock {
  private held = true;
  private readonly onExit = () => this.release();

  private constructor(private readonly file: string) {
    process.on('exit', this.onExit);
  }

  static take(dir: string, note: (message: string) => void): OutLock {
    try {
      mkdirSync(dir, { recursive: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new GroveError(code === 'EEXIST' ? 'not a folder (--out)' : `cannot create the folder (${code})`, {
        file: dir,
      });
    }
    const file = join(dir, LOCK_FILE);
    // A few attempts: the lock may be released, or taken over, between our tries.
    for (let attempt = 0; attempt < 5; attempt++) {
      let fd: number;
      try {
        fd = openSync(file, 'wx');
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOTDIR') throw new GroveError('not a folder (--out)', { file: dir });
        if (code !== 'EEXIST') throw new GroveError(`cannot lock the folder (${code})`, { file: dir });
        const holder = holderOf(file);
        if (holder === null) continue;
        // Our own pid in a lock we did not take is a dead run's that had the same pid.
        const stale =
          holder === undefined ? ageMs(file) > EMPTY_LOCK_GRACE_MS : holder === process.pid || !alive(holder);
        if (!stale)
          throw new GroveError(
            `another grove compare ${holder === undefined ? '(starting)' : `(pid ${holder})`} ` +
              'is writing to this folder; ' +
              `wait for it to finish or choose another --out (lock: ${LOCK_FILE})`,
            { file: dir },
          );
        note(
          `taking over the lock of ${dir} left by ` +
            (holder === undefined ? 'a run that did not write its pid' : `pid ${holder}, which is no longer running`),
        );
        try {
          unlinkSync(file);
        } catch {
          // removed meanwhile
        }
        continue;
      }
      try {
        writeSync(fd, `${process.pid}\n`);
      } finally {
        closeSync(fd);
      }
      return new OutLock(file);
    }
    throw new GroveError('cannot lock the folder (the lock keeps changing hands)', { file: dir });
  }

  /** Remove the lock if it is still ours (a lock taken over meanwhile is left to its new holder). */
  release(): void {
    if (!this.held) return;
    this.held = false;
    process.off('exit', this.onExit);
    try {
      if (holderOf(this.file) === process.pid) unlinkSync(this.file);
    } catch {
      // gone, or unreadable: nothing of ours to remove
    }
  }
}
