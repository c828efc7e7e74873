import { totalmem } from 'node:os';
import { GroveError } from '../core/errors.js';

/**
 * DuckDB's `memory_limit` at the start when grove trains or reads in an embedded DuckDB (not
 * DuckDB's default of 80 % of RAM): DuckDB runs inside grove's process, so this bounds grove's
 * memory; what does not fit spills to a temporary folder. `GROVE_DUCKDB_MEMORY` (e.g. `2GB`)
 * overrides it.
 */
export const DUCKDB_DEFAULT_MEMORY = '48MB';

/** Bytes in one unit of a DuckDB size setting (DuckDB's `MB` is 10⁶ bytes, `MiB` 2²⁰). */
const UNITS = new Map<string, number>([
  ['', 1],
  ['b', 1],
  ['bytes', 1],
  ['kb', 1e3],
  ['mb', 1e6],
  ['gb', 1e9],
  ['tb', 1e12],
  ['kib', 2 ** 10],
  ['mib', 2 ** 20],
  ['gib', 2 ** 30],
  ['tib', 2 ** 40],
]);

/** The bytes of a size as DuckDB's settings write it (`64MB`, `1.5 GiB`), or null. */
export function parseDuckDBSize(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = m ? UNITS.get(m[2].toLowerCase()) : undefined;
  return m && unit !== undefined ? Number(m[1]) * unit : null;
}

/**
 * DuckDB's memory: the limit a session starts with, and the most a statement that runs out of
 * memory may be given when it is run again (each time 1.5 × the last limit). A statement that
 * cannot spill (reading many columns at once on every core, say) needs what it needs; the
 * other statements keep the start limit.
 */
export interface DuckDBMemory {
  /** The start limit, as given (DuckDB's syntax). */
  readonly setting: string;
  /** The start limit in bytes. */
  readonly start: number;
  /** The largest limit a retried statement gets, in bytes. */
  readonly most: number;
}

/**
 * The memory settings from the environment: `GROVE_DUCKDB_MEMORY` (the start limit, default
 * {@link DUCKDB_DEFAULT_MEMORY}) and `GROVE_DUCKDB_MEMORY_MAX` (default a quarter of the machine's
 * memory, and never below the start limit).
 */
export function duckdbMemory(env: NodeJS.ProcessEnv = process.env): DuckDBMemory {
  const setting = env.GROVE_DUCKDB_MEMORY ?? DUCKDB_DEFAULT_MEMORY;
  const start = parseDuckDBSize(setting);
  if (start === null || start <= 0)
    throw new GroveError(`GROVE_DUCKDB_MEMORY: '${setting}' is not a size such as 64MB or 2GB`, { code: 'E_OPTION' });
  const maxText = env.GROVE_DUCKDB_MEMORY_MAX;
  const most = maxText === undefined ? totalmem() / 4 : parseDuckDBSize(maxText);
  if (most === null || most <= 0)
    throw new GroveError(`GROVE_DUCKDB_MEMORY_MAX: '${maxText}' is not a size such as 64MB or 2GB`, {
      code: 'E_OPTION',
    });
  return { setting, start, most: Math.max(start, most) };
}

/** True for DuckDB's error when a statement needs more memory than its limit lets it have. */
export function isOutOfMemory(e: unknown): boolean {
  return e instanceof Error && /^Out of Memory Error/.test(e.message);
}

/** A limit in bytes as a DuckDB setting (kilobytes: DuckDB's smallest named unit). */
export function duckdbSize(bytes: number): string {
  return `${Math.ceil(bytes / 1e3)}KB`;
}
