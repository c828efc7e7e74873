import { GroveError } from '../core/errors.js';
import { getCriterion } from '../criteria/registry.js';
import { OPTION_DESCRIPTORS } from './descriptors.js';
import { PRESETS, presetNamed } from './presets.js';
import type { FitOptions, ResolvedOptions, TreeOptions } from './types.js';
import { checkCombination, checkOption, type OptionNaming } from './validate.js';

/**
 * Who is asking: error messages name options by field (`maxDepth`, default), by CLI flag
 * (`--max-depth`) or as a map from field to the name the user wrote says (see `OptionNaming`).
 */
export interface ResolveContext {
  names?: OptionNaming;
}

/**
 * Apply the preset and the defaults, then check every value with a message that names the option.
 * The result's properties are created in one order by one builder, so every result shares one
 * hidden class in V8 and the grower's optimised code, which reads them on every node, stays valid
 * from one fit to the next.
 */
export function resolveOptions(user: FitOptions = {}, context: ResolveContext = {}): ResolvedOptions {
  if (user === null || typeof user !== 'object' || Array.isArray(user)) {
    throw new GroveError(`options must be an object of tree options, got ${user === null ? 'null' : typeof user}`, {
      code: 'E_OPTION',
    });
  }
  const names = context?.names;
  const naming: OptionNaming = names === 'flags' || names instanceof Map ? names : 'fields';
  const algorithm = user.algorithm ?? 'cart';
  const preset = typeof algorithm === 'string' ? presetNamed(algorithm) : undefined;
  if (!preset) {
    const label =
      naming === 'flags' ? '--algorithm' : naming === 'fields' ? 'algorithm' : (naming.get('algorithm') ?? 'algorithm');
    throw new GroveError(`unknown ${label} '${String(algorithm)}' (known: ${Object.keys(PRESETS).join(', ')})`, {
      code: 'E_OPTION',
    });
  }
  const given = withRandomState(user as Record<string, unknown>);
  const fromPreset = preset.options as Record<string, unknown>;
  const merged = Object.fromEntries(
    OPTION_DESCRIPTORS.map((d) => {
      if (Object.hasOwn(given, d.name) && given[d.name] !== undefined) return [d.name, given[d.name]];
      return [d.name, Object.hasOwn(fromPreset, d.name) ? fromPreset[d.name] : d.default];
    }),
  ) as TreeOptions;
  for (const d of OPTION_DESCRIPTORS) checkOption(d, merged[d.name], naming);
  const criterionImpl = typeof merged.criterion === 'string' ? getCriterion(merged.criterion) : merged.criterion;
  checkCombination(merged, algorithm, criterionImpl, naming);
  merged.criterion = criterionImpl.name;
  return Object.fromEntries([
    ['algorithm', algorithm],
    ...OPTION_DESCRIPTORS.map((d) => [d.name, merged[d.name]]),
    ['criterionImpl', criterionImpl],
  ]) as ResolvedOptions;
}

/** scikit-learn's `randomState` is grove's `seed`: the one value under `seed` (GroveError when both differ). */
function withRandomState(user: Record<string, unknown>): Record<string, unknown> {
  const state = user.randomState;
  if (state === undefined) return user;
  if (user.seed !== undefined && user.seed !== state)
    throw new GroveError(`randomState (${String(state)}) and seed (${String(user.seed)}) differ: give one of them`, {
      code: 'E_OPTION',
    });
  return { ...user, seed: state };
}
