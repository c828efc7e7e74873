import { unlinkSync } from 'node:fs';

/** Temporary files written but not yet renamed into place (or removed). */
const inFlight = new Set<string>();

/** Exit code of a process stopped by a signal, as a shell reports it: 128 + the signal's number. */
const SIGNAL_EXIT: ReadonlyMap<NodeJS.Signals, number> = new Map([
  ['SIGINT', 130],
  ['SIGTERM', 143],
]);

let guardWanted = false;
let guardInstalled = false;

/** Remove every temporary file still in flight (best effort: each may already be gone). */
export function removeTempFiles(): void {
  for (const path of inFlight) {
    try {
      unlinkSync(path);
    } catch {
      // already renamed or removed
    }
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

/** Record a temporary file about to be created (and install the signal guard if wanted). */
export function trackTemp(path: string): void {
  installGuard();
  inFlight.add(path);
}

/** The temporary file was renamed into place or removed. */
export function untrackTemp(path: string): void {
  inFlight.delete(path);
}
