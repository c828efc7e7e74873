/**
 * A synchronous answer to "is that worker thread still running?", which the main thread needs
 * while it blocks in Atomics.wait (a worker's 'exit' event only arrives through the event loop,
 * so a worker that died out of memory would otherwise be waited for forever). Linux only: each
 * worker records its kernel thread id, and the thread is alive while /proc/self/task/<tid> exists.
 * Elsewhere the id is 0 and every thread counts as alive.
 */
import { existsSync, readlinkSync } from 'node:fs';

/** The calling thread's kernel thread id, or 0 where /proc/thread-self does not exist. */
export function ownThreadId(): number {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : 0;
  } catch {
    return 0;
  }
}

/** False only when thread `tid` of this process is known to have ended. */
export function threadAlive(tid: number): boolean {
  return tid <= 0 || existsSync(`/proc/self/task/${tid}`);
}
