import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  realpathSync,
  renameSync,
  type Stats,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { GroveError } from '../core/errors.js';
import { isReadOnly, readOnlyMessage } from './same-file.js';
import { removeTempNow, trackTemp, untrackTemp } from './temp-files.js';

/** Links followed before giving up, as the kernel does (ELOOP). */
const MAX_LINKS = 40;

/**
 * The file a write to `path` must replace: `path` itself, or, when it is a symbolic link (to a
 * link…), the file the chain ends at, which may not exist yet. Replacing the link itself would
 * turn it into a regular file.
 */
function resolveLinks(path: string): string {
  let p = path;
  for (let hops = 0; hops <= MAX_LINKS; hops++) {
    let st: Stats;
    try {
      st = lstatSync(p);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return p;
      throw err;
    }
    if (!st.isSymbolicLink()) return p;
    p = resolve(dirname(p), readlinkSync(p));
  }
  throw new GroveError('cannot write file (too many levels of symbolic links)', { file: path });
}

/** What a non-regular file is, for the message that refuses it. */
function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return 'a special file';
}

/** `: target` when `path` is a symbolic link to another name, for messages. */
function linkedTo(path: string): string {
  try {
    if (!lstatSync(path).isSymbolicLink()) return '';
    const real = realpathSync(path);
    lstatSync(real); // a /proc link's target (`pipe:[…]`) is no path: name none
    return `: ${real}`;
  } catch {
    return '';
  }
}

/**
 * Fault injection for tests: `GROVE_TEST_PAUSE_<stage>=name:ms` waits `ms` at `stage` of the write of
 * a file called `name` — AFTER_TEMP once the temporary file is written, IN_WRITE where a writer hands
 * the file to another program (announced on stderr, so a test can send a signal inside the pause).
 */
export function pauseForTests(target: string, stage: 'AFTER_TEMP' | 'IN_WRITE' = 'AFTER_TEMP'): void {
  const hook = process.env[`GROVE_TEST_PAUSE_${stage}`];
  if (!hook) return;
  const at = hook.lastIndexOf(':');
  if (hook.slice(0, at) !== basename(target)) return;
  if (stage === 'IN_WRITE') process.stderr.write(`grove: test pause in the write of ${basename(target)}\n`);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(hook.slice(at + 1)));
}

/**
 * Write `content` (text, bytes, or a function given the open file's descriptor, which it may
 * write at any offset and read back) to `path` so that readers never see half a file: write a
 * temporary file in the same directory, then rename it over the target. On failure (the function
 * throwing included) nothing is left behind.
 *
 * A symbolic link is written through (the file it points to is replaced; the link stays). A
 * directory, FIFO, socket or device is refused, never replaced, and so is a read-only file. An existing file keeps its
 * permission bits; a new one gets the process's default mode (0o666 less the umask).
 */
export function writeFileAtomic(path: string, content: string | Uint8Array | ((fd: number) => void)): void {
  const { target, mode, tmp } = prepareWrite(path);
  try {
    // Never more open than the target while being written; creation applies the umask, so an
    // existing target's own bits are then restored exactly.
    if (typeof content === 'function') writeWith(tmp, content, mode ?? 0o666);
    else writeFileSync(tmp, content, { flag: 'wx', mode: mode ?? 0o666 });
    commitWrite(tmp, target, mode);
  } catch (err) {
    throw abandonWrite(path, tmp, err);
  } finally {
    untrackTemp(tmp);
  }
}

/** Create `file` for reading and writing and let `write` fill it through its descriptor. */
function writeWith(file: string, write: (fd: number) => void, mode: number): void {
  const fd = openSync(file, 'wx+', mode);
  try {
    write(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * {@link writeFileAtomic} for a file another program may write (DuckDB's Parquet writer): `write`
 * creates the temporary file it is given; the same refusals, link handling and permission bits
 * apply, and nothing is left behind on failure. The temporary file is made inside a temporary
 * folder of its own: another program's thread may create the file after a signal's handler has
 * removed what existed, but not inside a folder the handler has removed.
 */
export async function writeAtomicWith(path: string, write: (tmp: string) => Promise<void>): Promise<void> {
  const { target, mode, tmp: folder } = prepareWrite(path, true);
  const tmp = join(folder, basename(target));
  try {
    mkdirSync(folder, { mode: 0o700 });
    await write(tmp);
    commitWrite(tmp, target, mode);
  } catch (err) {
    throw abandonWrite(path, folder, err);
  } finally {
    removeTempNow(folder);
  }
}

/** The checks before a write: refuse a non-regular target, find the file behind links, name a temporary file. */
function prepareWrite(path: string, folder = false): { target: string; mode: number | undefined; tmp: string } {
  // The kernel follows the links first: that also sees through /dev/stdout's /proc links, which
  // name a pipe or a terminal that no path leads to.
  let mode: number | undefined;
  try {
    const st = statSync(path);
    if (!st.isFile())
      throw new GroveError(`not a regular file (${kindOf(st)}${linkedTo(path)}); grove writes only to regular files`, {
        file: path,
      });
    if (isReadOnly(path, st)) throw new GroveError(readOnlyMessage(path), { code: 'E_IO' });
    mode = st.mode & 0o7777;
  } catch (err) {
    if (err instanceof GroveError) throw err;
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw cannotWrite(path, err);
  }
  const target = resolveLinks(path);
  // A fresh, unguessable name, created exclusively: never a file (or planted link) that exists.
  const tmp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  trackTemp(tmp, folder);
  return { target, mode, tmp };
}

function commitWrite(tmp: string, target: string, mode: number | undefined): void {
  if (mode !== undefined) chmodSync(tmp, mode);
  pauseForTests(target);
  renameSync(tmp, target);
}

function abandonWrite(path: string, tmp: string, err: unknown): GroveError {
  removeTempNow(tmp);
  return err instanceof GroveError ? err : cannotWrite(path, err);
}

function cannotWrite(path: string, err: unknown): GroveError {
  const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  return new GroveError(`cannot write file (${reason})`, { file: path });
}
