/**
 * The criterion registry: name -> Criterion, in registration order, pre-filled with the built-in
 * measures. `orientedScore` is the one place a measure's direction (`better`) is applied.
 */
import { GroveError } from '../core/errors.js';
import { NamedRegistry } from '../core/registry.js';
import { gini, twoing } from './cart.js';
import { chandraVarghese } from './chandra-varghese.js';
import { dcsm } from './dcsm.js';
import { averageGain, gainRatio, infoGain, normalizedGain } from './gain.js';
import { hellinger } from './hellinger.js';
import { chiSquare, gStatistic } from './statistics.js';
import type { CountTable, Criterion } from './types.js';

/** The built-in measures, in the order they are registered. */
export const BUILTIN_CRITERIA: readonly Criterion[] = Object.freeze([
  infoGain,
  gainRatio,
  normalizedGain,
  averageGain,
  gini,
  twoing,
  chiSquare,
  gStatistic,
  dcsm,
  chandraVarghese,
  hellinger,
]);

const registry = new NamedRegistry<Criterion>({
  register: 'registerCriterion',
  noun: 'criterion',
  unknown: 'criterion',
});

export interface RegisterOptions {
  /** Allow replacing an already registered criterion of the same name (keeps its list position). */
  replace?: boolean;
}

/**
 * Add a criterion to the registry. Throws GroveError when the criterion is malformed or when the
 * name is already taken and `options.replace` is not true.
 */
export function registerCriterion(c: Criterion, options: RegisterOptions = {}): void {
  registry.add(c, options?.replace === true, checkCriterion);
}

function checkCriterion(c: Criterion, prefix: string): void {
  if (c.better !== 'higher' && c.better !== 'lower') {
    throw new GroveError(`${prefix}: better must be 'higher' or 'lower', got ${JSON.stringify(c.better)}`);
  }
  if (typeof c.evaluate !== 'function') throw new GroveError(`${prefix}: evaluate must be a function`);
  if (c.mdlCorrected !== undefined && typeof c.mdlCorrected !== 'function') {
    throw new GroveError(`${prefix}: mdlCorrected must be a function when given`);
  }
}

/**
 * Other names of built-in measures, as scikit-learn spells them (`criterion='entropy'` and
 * `'log_loss'` are its information gain). A criterion registered under one of these names wins.
 */
export const CRITERION_ALIASES: ReadonlyMap<string, string> = new Map([
  ['entropy', 'info-gain'],
  ['log_loss', 'info-gain'],
]);

/** True when `name` is a registered criterion or an alias of one. */
export function isCriterionName(name: string): boolean {
  return registry.has(name) || CRITERION_ALIASES.has(name);
}

/** The criterion registered under `name` (or its alias); GroveError listing the known names otherwise. */
export function getCriterion(name: string): Criterion {
  return registry.get(registry.has(name) ? name : (CRITERION_ALIASES.get(name) ?? name));
}

/** Every registered criterion, in registration order. */
export function listCriteria(): Criterion[] {
  return registry.list();
}

/**
 * The value turned into a "higher is better" score: `value` for maximised measures, `-value` for
 * minimised ones. This is the only place the orientation is applied.
 */
export function orientedScore(c: Criterion, value: number): number {
  return c.better === 'higher' ? value : -value;
}

/**
 * How much the split improves on not splitting, higher is better:
 * `orientedScore(c, c.evaluate(split)) - orientedScore(c, c.evaluate(parent))`, where `parent` is
 * the node as a one-branch table (see `singleBranchTable`). For the gain measures the parent value
 * is 0, for gini it is the node impurity, for DCSM the node's own M.
 */
export function improvement(c: Criterion, split: CountTable, parent: CountTable): number {
  return orientedScore(c, c.evaluate(split)) - orientedScore(c, c.evaluate(parent));
}

for (const c of BUILTIN_CRITERIA) registerCriterion(c);
