import { optionDescriptor } from '../options/descriptors.js';
import { type OptionNaming, optionLabel } from '../options/validate.js';

/**
 * What the optimal-tree search proved about a model (`fitOptimal`); saved in the model file as
 * `optimality`. Objective values and bounds are rates over the training weight: the misclassified
 * share, plus `alpha` × leaves under the sparse objective.
 */
export interface OptimalityInfo {
  /** True when the search finished: no tree within the depth (and leaf) limits does better. */
  proven: boolean;
  /** Why the search stopped early (then `proven` is false): the time limit or the memory bound. */
  stopped?: 'time' | 'memory';
  objective: 'misclassification' | 'sparse';
  /** The tree's objective value. */
  value: number;
  /** No tree within the limits has an objective value below this (= `value` when proven). */
  lowerBound: number;
  /** The tree's misclassified share of the training weight. */
  trainingError: number;
  /** The greedy tree's (the search's first upper bound) misclassified share, same depth. */
  greedyError: number;
  /** Binary tests searched over (without the two directions of missing values). */
  tests: number;
  /** Sub-problems opened, of them solved by the depth-2 solver, cache hits and cache entries at the end. */
  subproblems: number;
  depth2: number;
  cacheHits: number;
  cacheEntries: number;
  /**
   * What the cache's entries take, estimated (bytes), and the bound the process had to stay
   * within (MB, `memoryLimit`).
   */
  cacheBytes?: number;
  memoryLimit?: number;
  /** At a memory stop: the process's resident memory then (bytes, where it could be read). */
  residentBytes?: number;
  /**
   * Categorical features with more categories than the search tries every subset of (`above`):
   * at a node that sees more than `above` of their categories, the search tries each category
   * against the rest only, so a greedy tree's subset test there is outside the search.
   */
  oneVsRest?: { above: number; features: string[] };
  /** Seconds the search took. */
  seconds: number;
}

/**
 * One line for `grove show`: proven or not, objective value, bound, search effort; `naming` says
 * how a memory stop names the options to change (`--memory-limit` on the command line).
 */
export function describeOptimality(o: OptimalityInfo, naming: OptionNaming = 'fields'): string {
  const pct = (x: number) => `${(100 * x).toFixed(3)}%`;
  const value = o.objective === 'sparse' ? o.value.toPrecision(6) : pct(o.value);
  const bound = o.objective === 'sparse' ? o.lowerBound.toPrecision(6) : pct(o.lowerBound);
  const status = o.proven
    ? `proven optimal (${o.objective} ${value})`
    : `NOT proven optimal: the search stopped at its ${stopCause(o, naming)} ` +
      `(${o.objective} ${value}, lower bound ${bound})`;
  return (
    `Optimal tree: ${status}; misclassified ${pct(o.trainingError)} of the training weight ` +
    `(greedy tree ${pct(o.greedyError)}); ` +
    `${o.tests} tests, ${o.subproblems} sub-problems (${o.depth2} depth-2), ${o.cacheHits} cache hits, ` +
    `${o.seconds.toFixed(2)} s${wide(o)}`
  );
}

/** The features whose wide nodes tried one category against the rest, not every subset. */
function wide(o: OptimalityInfo): string {
  const f = o.oneVsRest?.features;
  if (!f?.length) return '';
  const names = f.slice(0, 5).join(', ') + (f.length > 5 ? `, and ${f.length - 5} more` : '');
  const where = `where a node sees more than ${o.oneVsRest!.above} categories of ${names}`;
  return `; one category against the rest (not every subset) ${where}`;
}

/** The memory stop: the limit, the resident memory and the cache then, and what to change (older files say less). */
/** What stopped an unproven search: its time limit or its memory bound. */
function stopCause(o: OptimalityInfo, naming: OptionNaming): string {
  return o.stopped === 'memory' ? memoryBound(o, naming) : 'time limit';
}

function memoryBound(o: OptimalityInfo, naming: OptionNaming): string {
  if (o.memoryLimit === undefined) return 'memory bound';
  const label = (name: string) => optionLabel(optionDescriptor(name)!, naming);
  const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
  const resident = o.residentBytes === undefined ? '' : `resident ${mb(o.residentBytes)} MB of `;
  return (
    `memory limit (${resident}${label('memoryLimit')} ${o.memoryLimit} MB, ${o.cacheEntries} cache entries ` +
    `of about ${mb(o.cacheBytes ?? 0)} MB; set ${label('bins')} or ${label('maxDepth')} lower, or raise ` +
    `${label('memoryLimit')})`
  );
}
