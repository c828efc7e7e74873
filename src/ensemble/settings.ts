import { GroveError } from '../core/errors.js';
import {
  type FitOptions,
  OPTION_DESCRIPTORS,
  type OptionDescriptor,
  optionDescriptor,
  type ResolveContext,
  resolveOptions,
  type TreeOptions,
} from '../options/options.js';

/** The four kinds of forest (the `forest` option). */
export type ForestKind = TreeOptions['forest'];

/** How trees are combined (the `vote` option). */
export type ForestVote = TreeOptions['vote'];

/** A forest's own settings, resolved: what the forest file's header records under `forest`. */
export interface ForestSettings {
  kind: ForestKind;
  /** Trees in the forest. */
  trees: number;
  /** Draw each tree's rows with replacement. */
  bootstrap: boolean;
  /** As given: a fraction in (0, 1] of the rows or a count > 1; null: as many as the rows. */
  maxSamples: number | null;
  oobScore: boolean;
  vote: ForestVote;
  /** The forest's seed: tree i grows from (seed, i). */
  seed: number;
  /** Random subspaces: the features each tree gets (maxFeatures, default half of them); else null. */
  subspace: TreeOptions['maxFeatures'] | null;
  /** scikit-learn's balanced_subsample: class weights balanced over each tree's bootstrap sample. */
  balancedSubsample: boolean;
}

/** The forest options (the option table's `forest` group), by name. */
const FOREST_NAMES: ReadonlySet<string> = new Set(
  (OPTION_DESCRIPTORS as readonly OptionDescriptor[]).filter((d) => d.group === 'forest').map((d) => d.name),
);

/** True when `options` ask for a forest: any forest option (`forest`, `trees`, `oobScore`, ...) given. */
export function isForestOptions(options: FitOptions): boolean {
  const given = options as Record<string, unknown>;
  for (const name of FOREST_NAMES) if (given[name] !== undefined) return true;
  return false;
}

/** Kinds whose trees draw their rows with replacement unless told otherwise (scikit-learn's defaults). */
const BOOTSTRAPPED: ReadonlySet<ForestKind> = new Set(['random-forest', 'bagging']);

function labelOf(name: string, context: ResolveContext): string {
  return context.names === 'flags' ? `--${optionDescriptor(name)!.flag}` : name;
}

/**
 * Split `options` into the trees' options and the forest's settings, with each kind's defaults:
 * random-forest `maxFeatures: 'sqrt'` and bootstrap; extra-trees random thresholds, `sqrt`, no
 * bootstrap; bagging every feature and bootstrap; random-subspace a subset of the features per
 * tree (`maxFeatures`, default 0.5) and no bootstrap. Trees are unpruned unless `prune` is
 * given (a preset's pruning does not apply). Every value is checked (GroveError naming
 * the option), including the rules that join them (out-of-bag needs the bootstrap).
 */
export function forestSettings(
  options: FitOptions,
  context: ResolveContext = {},
): { settings: ForestSettings; treeOptions: FitOptions } {
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw new GroveError('options must be an object of tree and forest options', { code: 'E_OPTION' });
  const given = options as Record<string, unknown>;
  // resolveOptions checks every option of the table, the forest's among them.
  const all = resolveOptions(options, context);
  const kind = all.forest;
  const treeOptions: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(given)) if (!FOREST_NAMES.has(key)) treeOptions[key] = value;
  const bootstrap = given.bootstrap === undefined ? BOOTSTRAPPED.has(kind) : all.bootstrap;
  const label = (name: string) => labelOf(name, context);
  if (all.oobScore && !bootstrap)
    throw new GroveError(`${label('oobScore')} needs the bootstrap: without it no row is out of bag`, {
      code: 'E_OPTION',
    });
  if (all.maxSamples !== undefined && !bootstrap)
    throw new GroveError(`${label('maxSamples')} sets the bootstrap's size; it needs ${label('bootstrap')}`, {
      code: 'E_OPTION',
    });
  if (all.maxSamples !== undefined && all.maxSamples > 1 && !Number.isInteger(all.maxSamples))
    throw new GroveError(
      `${label('maxSamples')} must be a fraction in (0, 1] or a whole number of rows, got ${all.maxSamples}`,
      { code: 'E_OPTION' },
    );
  let subspace: ForestSettings['subspace'] = null;
  if (kind === 'random-subspace') {
    subspace = all.maxFeatures ?? 0.5;
    delete treeOptions.maxFeatures;
  } else if (kind !== 'bagging' && given.maxFeatures === undefined && all.algorithm !== 'cmbsv')
    treeOptions.maxFeatures = 'sqrt';
  if (kind === 'extra-trees' && given.splitter === undefined) treeOptions.splitter = 'random';
  // A forest's trees grow unpruned (Breiman; scikit-learn) whatever the preset, unless asked.
  if (given.prune === undefined) treeOptions.prune = 'none';
  const balancedSubsample = all.classWeight === 'balancedSubsample';
  if (balancedSubsample) delete treeOptions.classWeight;
  const settings: ForestSettings = {
    kind,
    trees: all.trees,
    bootstrap,
    maxSamples: all.maxSamples ?? null,
    oobScore: all.oobScore,
    vote: all.vote,
    seed: all.seed,
    subspace,
    balancedSubsample,
  };
  return { settings, treeOptions: treeOptions as FitOptions };
}

/** Rows each bootstrap draws, from `maxSamples` and the rows it draws from (GroveError above them). */
export function bootstrapSize(settings: ForestSettings, rows: number, context: ResolveContext = {}): number {
  const m = settings.maxSamples;
  if (m === null) return rows;
  if (m <= 1) return Math.max(1, Math.round(m * rows));
  if (m > rows)
    throw new GroveError(`${labelOf('maxSamples', context)} is ${m}, more than the data's ${rows} rows`, {
      code: 'E_OPTION',
    });
  return m;
}
