/** Why a search stopped before it proved its tree optimal. */
export type StopReason = 'time' | 'memory';

/** Node's process object where there is one (main thread or worker), without importing Node. */
const node = (globalThis as { process?: { memoryUsage?: { rss?: () => number } } }).process;

/**
 * Reads the process's resident memory in bytes (every thread's): Node's `process.memoryUsage.rss()`
 * on the main thread and in workers alike; none in a browser, where only the cache's bound holds.
 */
const nodeResident = typeof node?.memoryUsage?.rss === 'function' ? () => node.memoryUsage!.rss!() : null;
let readResident = nodeResident;

/**
 * Replace the reader of the resident memory (tests: a fixed reading), remove it (null), or
 * restore Node's (undefined).
 */
export function setResidentMemory(read: (() => number) | null | undefined): void {
  readResident = read === undefined ? nodeResident : read;
}

/** The process's resident memory in bytes now, or undefined where it cannot be read. */
export function residentMemory(): number | undefined {
  return readResident?.();
}

/** Thrown inside the search to unwind it when the time limit or the memory bound is reached. */
export class StopSearch extends Error {
  constructor(
    readonly reason: StopReason,
    /** At a memory stop: the process's resident bytes then (when known). */
    readonly resident: number | undefined = reason === 'memory' ? residentMemory() : undefined,
  ) {
    super(`optimal search stopped (${reason})`);
  }
}

/** Least time between two reads of the resident memory (each costs a system call, 5–20 µs). */
const MEMORY_CHECK_MS = 20;

/**
 * The limits a search checks every few sub-problems: its deadline, and the process's resident
 * memory (main thread and every worker: the reading is process-wide), read at the first check and
 * then at most every MEMORY_CHECK_MS. Either one past its limit throws StopSearch.
 */
export class SearchLimits {
  private lastMemoryCheck = -Infinity;

  constructor(
    private readonly deadline: number | undefined,
    /** Resident bytes past which the search stops (undefined: no such check). */
    private readonly memoryBytes: number | undefined,
  ) {}

  /** Throw StopSearch when `now` (Date.now()) is past the deadline or the process past its memory. */
  check(now: number): void {
    if (this.deadline !== undefined && now > this.deadline) throw new StopSearch('time');
    if (this.memoryBytes === undefined || now - this.lastMemoryCheck < MEMORY_CHECK_MS) return;
    this.lastMemoryCheck = now;
    const resident = residentMemory();
    if (resident !== undefined && resident > this.memoryBytes) throw new StopSearch('memory', resident);
  }
}
