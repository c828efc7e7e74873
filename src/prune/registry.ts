/**
 * The pruner table: name -> Pruner, in registration order, pre-filled with the built-in methods.
 * The `prune` option, the CLI's `--prune`, `compare` configurations and the docs' list of methods
 * all read it.
 */
import { GroveError } from '../core/errors.js';
import { NamedRegistry } from '../core/registry.js';
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

const registry = new NamedRegistry<Pruner>({
  register: 'registerPruner',
  noun: 'pruner',
  unknown: 'pruning method',
});

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
  registry.add(p, options?.replace === true, checkPruner);
}

function checkPruner(p: Pruner, prefix: string): void {
  if (typeof p.prune !== 'function') throw new GroveError(`${prefix}: prune must be a function`);
  if (p.holdOut !== undefined && typeof p.holdOut !== 'function') {
    throw new GroveError(`${prefix}: holdOut must be a function`);
  }
  if (!Array.isArray(p.reads)) throw new GroveError(`${prefix}: reads must list option names`);
  for (const name of p.reads) {
    if (optionDescriptor(name) === undefined) {
      throw new GroveError(`${prefix} reads '${name}', which is not a tree option`);
    }
  }
}

/** The pruner registered under `name`; GroveError listing the known names otherwise. */
export function getPruner(name: string): Pruner {
  return registry.get(name);
}

/** Every registered pruner, in registration order. */
export function listPruners(): Pruner[] {
  return registry.list();
}

for (const p of BUILTIN_PRUNERS) registerPruner(p);
providePruneMethods(() => registry.keys());
