import { GroveError } from '../core/errors.js';
import { isCriterionName, listCriteria } from '../criteria/registry.js';
import type { Criterion } from '../criteria/types.js';
import type { NumberDescriptor, OptionDescriptor } from './descriptor.js';
import { optionDescriptor } from './descriptors.js';
import { knownPruneMethods } from './pruner-names.js';
import type { TreeOptions } from './types.js';

/**
 * How a message names an option: by its field (`maxDepth`, the API), its flag (`--max-depth`, the
 * CLI), or as the caller's map from field to the name the user wrote (`grove compare --configs`
 * keys; a field absent from the map is named as the field).
 */
export type OptionNaming = 'fields' | 'flags' | ReadonlyMap<string, string>;

/** The option's name as a message to this caller spells it. */
export function optionLabel(d: OptionDescriptor, naming: OptionNaming): string {
  if (naming === 'flags') return `--${d.flag}`;
  return naming === 'fields' ? d.name : (naming.get(d.name) ?? d.name);
}

/**
 * What is wrong with `value` for the option `d`, as the end of a sentence starting with the
 * option's name (`must be an integer ≥ 0, got -1`); undefined when it is valid. An option without
 * a default may be undefined. Criterion and pruner names are looked up in their registries.
 */
export function optionProblem(d: OptionDescriptor, value: unknown): string | undefined {
  if (value === undefined && d.default === undefined) return undefined;
  switch (d.type) {
    case 'integer': {
      const ok = (d.infinity === true && value === Infinity) || (Number.isInteger(value) && (value as number) >= d.min);
      if (!ok) return `must be an integer ≥ ${d.min}${d.infinity ? ' (or Infinity)' : ''}, got ${String(value)}`;
      if (d.max !== undefined && (value as number) > d.max) return `must be at most ${d.max}, got ${String(value)}`;
      return undefined;
    }
    case 'number':
      return numberProblem(d, value);
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `must be true or false, got ${String(value)}`;
    case 'choice':
      return d.choices.includes(value as string)
        ? undefined
        : `must be one of ${d.choices.join(', ')}, got '${String(value)}'`;
    case 'criterion':
      if (typeof value === 'string') {
        if (isCriterionName(value)) return undefined;
        const known = listCriteria().map((c) => c.name);
        return `must name a registered criterion, got '${value}' (known: ${known.join(', ')})`;
      }
      if (d.objects && typeof value === 'object' && value !== null) return undefined;
      return `must be a criterion's name${d.objects ? ' or a Criterion object' : ''}, got ${String(value)}`;
    case 'pruner': {
      const known = knownPruneMethods();
      if (typeof value !== 'string' || value === '') return `must be a pruning method's name, got ${String(value)}`;
      return known === undefined || known.includes(value)
        ? undefined
        : `must be one of ${known.join(', ')}, got '${value}'`;
    }
    case 'class-weight':
      return classWeightProblem(value);
    case 'ordered-categories':
      return orderedCategoriesProblem(value);
    case 'max-features':
      return maxFeaturesProblem(value);
  }
}

function maxFeaturesProblem(value: unknown): string | undefined {
  if (value === 'sqrt' || value === 'log2') return undefined;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0 && (Number.isInteger(value) || value < 1))
    return undefined;
  return `must be 'sqrt', 'log2', an integer ≥ 1 or a fraction in (0, 1), got ${String(value)}`;
}

/** Throw GroveError when `value` is not valid for `d`, naming the option as `naming` says. */
export function checkOption(d: OptionDescriptor, value: unknown, naming: OptionNaming): void {
  const problem = optionProblem(d, value);
  if (problem !== undefined) throw new GroveError(`${optionLabel(d, naming)} ${problem}`, { code: 'E_OPTION' });
}

/** Rules that join several options (each option already valid on its own). */
export function checkCombination(o: TreeOptions, algorithm: string, criterion: Criterion, naming: OptionNaming): void {
  const label = (name: keyof TreeOptions) => optionLabel(optionDescriptor(name)!, naming);
  if (criterion.binaryOnly && o.categoricalSplit === 'multiway') {
    throw new GroveError(
      `criterion '${criterion.name}' scores binary splits only; use ${label('categoricalSplit')} 'binary'`,
      { code: 'E_OPTION' },
    );
  }
  checkOptimal(o, algorithm, label);
  if (
    algorithm === 'cmbsv' &&
    (o.maxFeatures !== undefined || o.minWeightFractionLeaf > 0 || o.minImpurityDecrease > 0)
  ) {
    const name =
      o.maxFeatures !== undefined
        ? 'maxFeatures'
        : o.minWeightFractionLeaf > 0
          ? 'minWeightFractionLeaf'
          : 'minImpurityDecrease';
    throw new GroveError(`algorithm 'cmbsv' chooses its splits its own way and takes no ${label(name)}`, {
      code: 'E_OPTION',
    });
  }
  if (o.splitter === 'random' && (o.bins !== undefined || o.j48Rules || algorithm === 'cmbsv')) {
    const other = o.bins !== undefined ? label('bins') : o.j48Rules ? label('j48Rules') : "algorithm 'cmbsv'";
    throw new GroveError(
      `${label('splitter')} random draws thresholds in exact mode only; it cannot go with ${other}`,
      {
        code: 'E_OPTION',
      },
    );
  }
  if (algorithm === 'cmbsv' && o.missing !== 'majority') {
    throw new GroveError(
      `algorithm 'cmbsv' supports ${label('missing')} 'majority' only ` +
        `(rows with a missing value follow the heaviest branch), got '${o.missing}'`,
      { code: 'E_OPTION' },
    );
  }
}

/** Largest `maxDepth` of an optimal tree: the search's cost grows as tests^(depth − 1). */
export const OPTIMAL_MAX_DEPTH = 10;

/** The optimal-tree options: only with `optimal`, which needs a bounded depth. */
function checkOptimal(o: TreeOptions, algorithm: string, label: (name: keyof TreeOptions) => string): void {
  if (o.optimal) {
    if (algorithm === 'cmbsv')
      throw new GroveError(`algorithm 'cmbsv' grows no optimal tree (${label('optimal')})`, { code: 'E_OPTION' });
    if (!(o.maxDepth >= 1 && o.maxDepth <= OPTIMAL_MAX_DEPTH))
      throw new GroveError(
        `optimal trees need ${label('maxDepth')} between 1 and ${OPTIMAL_MAX_DEPTH}, got ${String(o.maxDepth)}`,
        { code: 'E_OPTION' },
      );
    return;
  }
  const stray = (['maxLeaves', 'timeLimit'] as const).find((name) => o[name] !== undefined);
  const changed = o.objective !== 'misclassification' ? 'objective' : undefined;
  const name = stray ?? changed;
  if (name)
    throw new GroveError(`${label(name)} applies to optimal trees only (${label('optimal')})`, { code: 'E_OPTION' });
}

function numberProblem(d: NumberDescriptor, value: unknown): string | undefined {
  const v = value as number;
  const ok =
    typeof value === 'number' &&
    Number.isFinite(v) &&
    (d.above === undefined || v > d.above) &&
    (d.atLeast === undefined || v >= d.atLeast) &&
    (d.below === undefined || v < d.below) &&
    (d.atMost === undefined || v <= d.atMost);
  if (ok) return undefined;
  const low = d.above ?? d.atLeast;
  const high = d.below ?? d.atMost;
  const got = `got ${String(value)}`;
  if (low !== undefined && high !== undefined) {
    return `must be in ${d.above !== undefined ? '(' : '['}${low}, ${high}${d.below !== undefined ? ')' : ']'}, ${got}`;
  }
  if (low !== undefined) return `must be a finite number ${d.above !== undefined ? '>' : '≥'} ${low}, ${got}`;
  if (high !== undefined) return `must be a finite number ${d.below !== undefined ? '<' : '≤'} ${high}, ${got}`;
  return `must be a finite number, ${got}`;
}

function classWeightProblem(value: unknown): string | undefined {
  if (value === 'balanced' || value === 'balancedSubsample') return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `must be 'balanced', 'balancedSubsample' or a map from class label to weight`;
  for (const [label, w] of Object.entries(value)) {
    if (!(typeof w === 'number' && w >= 0 && Number.isFinite(w)))
      return `for '${label}' must be a finite number ≥ 0, got ${String(w)}`;
  }
  return undefined;
}

function orderedCategoriesProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'must map feature names to lists of levels';
  for (const [name, levels] of Object.entries(value)) {
    if (!Array.isArray(levels) || levels.length === 0 || new Set(levels).size !== levels.length)
      return `for '${name}' must be a non-empty list of distinct levels`;
  }
  return undefined;
}
