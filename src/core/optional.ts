/**
 * The optional packages: grove's heavy engines are optional peer dependencies, loaded with
 * `import()` when a feature needs one. A feature whose package is not installed fails with a
 * one-line GroveError naming the package and the command that installs it.
 */
import { GroveError } from './errors.js';

/** An optional package: what to install, and the module names whose absence means it is missing. */
export interface OptionalPackage {
  /** The `npm i` argument (name and the version grove is tested with, as in its peerDependencies). */
  readonly install: string;
  /** Module names (or prefixes: a native binding's platform package) that come with it. */
  readonly modules: readonly string[];
}

/** DuckDB: `--engine duckdb`, `duckdb:` sources, Parquet writing, Parquet files grove's decoder leaves to it. */
export const DUCKDB: OptionalPackage = {
  install: '@duckdb/node-api@^1.5.6-r.1',
  modules: ['@duckdb/node-api', '@duckdb/node-bindings'],
};

/** node-postgres: `postgres://` sources. */
export const PG: OptionalPackage = { install: 'pg@^8.23.1', modules: ['pg'] };

/** Apache Arrow's JavaScript library: Arrow IPC files. */
export const APACHE_ARROW: OptionalPackage = { install: 'apache-arrow@^21.2.0', modules: ['apache-arrow'] };

/** Every optional package (the package test checks these against package.json's peerDependencies). */
export const OPTIONAL_PACKAGES: readonly OptionalPackage[] = [DUCKDB, PG, APACHE_ARROW];

// Node's messages for a package or module it cannot find (ESM import and CommonJS require).
const NOT_FOUND = /Cannot find (?:package|module) '([^']+)'/;

/** True when `err` says a module of `pkg` cannot be found. */
function isMissing(err: unknown, pkg: OptionalPackage): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  const name = NOT_FOUND.exec(err.message)?.[1];
  if (name === undefined) return false;
  return pkg.modules.some((m) => name === m || name.startsWith(`${m}/`) || name.startsWith(`${m}-`));
}

/**
 * `load()` (an `import()` of `pkg` or of a module that imports it), or a GroveError saying that
 * `feature` needs `pkg` when it is not installed. Any other failure passes through unchanged.
 */
export async function loadOptional<T>(pkg: OptionalPackage, feature: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (!isMissing(err, pkg)) throw err;
    throw new GroveError(
      `${feature} needs the optional package ${pkg.modules[0]}, not installed: npm i ${pkg.install}`,
      {
        code: 'E_OPTION',
      },
    );
  }
}
