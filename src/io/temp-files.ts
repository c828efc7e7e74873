import { readdirSync, rmdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';

/** Temporary files (false) and folders (true) made but not yet renamed into place or removed. */
const inFlight = new Map<string, boolean>();

/** Attempts at emptying and removing a folder that another thread may still be creating a file in. */
const FOLDER_ATTEMPTS = 100;

/** Exit code of a process stopped by a signal, as a shell reports it: 128 + the signal's number. */
const SIGNAL_EXIT: ReadonlyMap<NodeJS.Signals, number> = new Map([
  ['SIGINT', 130],
  ['SIGTERM', 143],
]);

let guardWanted = false;
let guardInstalled = false;

/** Remove a temporary file (best effort: it may not exist). */
function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already renamed or removed, or never created
  }
}

/**
 * Remove a temporary folder and what is in it, synchronously. Another program's thread (DuckDB's
 * writer) may create its file there meanwhile: then the folder is not empty and is emptied again;
 * once the folder is gone, no file can be created in it.
 */
function removeFolder(path: string): void {
  for (let attempt = 0; attempt < FOLDER_ATTEMPTS; attempt++) {
    let names: string[];
    try {
      names = readdirSync(path);
    } catch {
      return; // gone, or never made
    }
    for (const name of names) removeFile(join(path, name));
    try {
      rmdirSync(path);
      return;
    } catch {
      // a file appeared since the listing: empty it again
    }
  }
}

/** Remove a temporary file or folder now and stop tracking it. */
export function removeTempNow(path: string): void {
  const folder = inFlight.get(path);
  if (folder) removeFolder(path);
  else removeFile(path);
  inFlight.delete(path);
}

/** Remove every temporary file and folder still in flight. */
export function removeTempFiles(): void {
  for (const [path, folder] of inFlight) {
    if (folder) removeFolder(path);
    else removeFile(path);
  }
  inFlight.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  removeTempFiles();
  // Another listener (compare's Ctrl-C handling) decides what happens next; alone, stop as the
  // signal's default action would, with the shell's exit code for it.
  if (process.listenerCount(signal) > 1) return;
  process.exit(SIGNAL_EXIT.get(signal) ?? 1);
}

function installGuard(): void {
  if (guardInstalled || !guardWanted) return;
  guardInstalled = true;
  for (const signal of SIGNAL_EXIT.keys()) process.on(signal, onSignal);
}

/**
 * Ask that SIGINT and SIGTERM never leave a temporary file behind (the CLI does; a library
 * user's process keeps its own signal handling). The handlers are installed at the first
 * atomic write, not now: once a listener exists, a signal waits for JavaScript to yield, and a
 * long synchronous fit before any output must stay interruptible at once.
 */
export function guardTempFilesOnSignal(): void {
  guardWanted = true;
}

const nextCheckPhase = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Let a signal that arrived during synchronous work be handled now; call before exiting
 * normally. Its listener runs in the event loop's poll phase: the first immediate may still run
 * in the current loop iteration (when this is called from an I/O callback), the second comes
 * after a poll.
 */
export async function settleSignals(): Promise<void> {
  await nextCheckPhase();
  await nextCheckPhase();
}

/** Record a temporary file (or `folder`) about to be created, and install the signal guard if wanted. */
export function trackTemp(path: string, folder = false): void {
  installGuard();
  inFlight.set(path, folder);
}

/** The temporary file was renamed into place or removed. */
export function untrackTemp(path: string): void {
  inFlight.delete(path);
}
