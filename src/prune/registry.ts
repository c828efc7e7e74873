/**
 * The pruner table: name -> Pruner, in registration order, pre-filled with the built-in methods.
 * The `prune` option, the CLI's `--prune`, `compare` configurations and the docs' list of methods
 * all read it.
 */
import { GroveError } from '../core/errors.js';
import { optionDescriptor, providePruneMethods } from '../options/options.js';
import { costComplexityPruner } from './cost-complexity.js';
import { errorBasedPruner } from './error-based.js';
import { nonePruner } from './none.js';
import { pessimisticPruner } from './pessimistic.js';
import type { Pruner } from './pruner.js';
import { reducedErrorPruner } from './reduced-error.js';

/** The built-in pruning methods, in the order they are registered. */
export const BUILTIN_PRUNERS: readonly Pruner[] = Object.freeze([
  nonePruner,
  pessimisticPruner,
  errorBasedPruner,
  reducedErrorPruner,
  costComplexityPruner,
]);

const registry = new Map<string, Pruner>();

export interface RegisterPrunerOptions {
  /** Allow replacing an already registered pruner of the same name (keeps its list position). */
  replace?: boolean;
}

/**
 * Add a post-pruning method to the pruner table, after which `fit(data, { prune: p.name })` uses
 * it and the model file names it in `pruning.method`. Throws GroveError when the pruner is
 * malformed, reads an option that does not exist, or takes a registered name without
 * `options.replace`.
 *
 * @example
 * ```ts
 * registerPruner({
 *   name: 'stump',
 *   description: 'keep the root split only',
 *   reads: [],
 *   prune: ({ nodes }) => ({ nodes: keepRootSplit(nodes) }),
 * });
 * const tree = fit(data, { prune: 'stump' });
 * ```
 */
export function registerPruner(p: Pruner, options: RegisterPrunerOptions = {}): void {
  if (p === null || typeof p !== 'object') throw new GroveError('registerPruner: expected a pruner object');
  if (typeof p.name !== 'string' || p.name.trim() === '') {
    throw new GroveError('registerPruner: pruner name must be a non-empty string');
  }
  if (typeof p.prune !== 'function')
    throw new GroveError(`registerPruner: pruner '${p.name}': prune must be a function`);
  if (p.holdOut !== undefined && typeof p.holdOut !== 'function') {
    throw new GroveError(`registerPruner: pruner '${p.name}': holdOut must be a function`);
  }
  if (!Array.isArray(p.reads)) throw new GroveError(`registerPruner: pruner '${p.name}': reads must list option names`);
  for (const name of p.reads) {
    if (optionDescriptor(name) === undefined)
      throw new GroveError(`registerPruner: pruner '${p.name}' reads '${name}', which is not a tree option`);
  }
  if (registry.has(p.name) && options.replace !== true) {
    throw new GroveError(
      `registerPruner: pruner '${p.name}' is already registered (pass { replace: true } to replace it)`,
    );
  }
  registry.set(p.name, p);
}

/** The pruner registered under `name`; GroveError listing the known names otherwise. */
export function getPruner(name: string): Pruner {
  const p = registry.get(name);
  if (p === undefined) {
    throw new GroveError(`unknown pruning method '${name}' (known: ${[...registry.keys()].join(', ')})`);
  }
  return p;
}

/** Every registered pruner, in registration order. */
export function listPruners(): Pruner[] {
  return [...registry.values()];
}

for (const p of BUILTIN_PRUNERS) registerPruner(p);
providePruneMethods(() => [...registry.keys()]);
