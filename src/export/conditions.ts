import { GroveError } from '../core/errors.js';
import { timeText } from '../data/time-units.js';
import type { TreeNode } from '../model/node.js';
import { type BranchDomain, branchDomain } from '../model/route.js';
import type { FeatureSchema } from '../model/schema.js';
import type { Split } from '../model/split.js';

/**
 * How a C-MBSV unclassified-region leaf reads in every view: `unclassified region` (no training
 * row reached it), plus the k-NN fallback when the model stores one.
 */
export function unclassifiedLabel(nodeOrKnnRows: TreeNode | number | undefined): string {
  const rows = typeof nodeOrKnnRows === 'object' ? nodeOrKnnRows.knn?.rows.length : nodeOrKnnRows;
  return rows !== undefined ? `unclassified region (k-NN over ${rows} rows)` : 'unclassified region';
}

/** Short number for display (the model file keeps full precision). */
export function formatNumber(x: number): string {
  return String(Number(x.toPrecision(6)));
}

/**
 * The test a row passes to take branch `b` of `split`, in words: `petal_length <= 2.45`,
 * `outlook = sunny`, `color in {red, blue}`. Written from `branchDomain`, the description of the
 * values that the routing functions send down that branch.
 */
export function branchCondition(split: Split, b: number, features: FeatureSchema[]): string {
  return domainCondition(features[split.feature], branchDomain(split, b));
}

/** A set of values of feature `f` in words, as `branchCondition` writes one branch's. */
export function domainCondition(f: FeatureSchema, domain: BranchDomain): string {
  if (domain.kind === 'interval') {
    const { low, high } = domain;
    // A feature read from dates or times: its thresholds as the dates or times they are.
    const unit = f.unit;
    const shown = unit !== undefined ? (x: number) => timeText(x, unit) : formatNumber;
    if (low === undefined && high === undefined) return `${f.name} is any value`;
    if (low === undefined) return `${f.name} <= ${shown(high!)}`;
    if (high === undefined) return `${f.name} > ${shown(low)}`;
    return `${shown(low)} < ${f.name} <= ${shown(high)}`;
  }
  const set = domain.codes.map((v) => f.categories![v]);
  return set.length === 1 ? `${f.name} = ${set[0]}` : `${f.name} in {${set.join(', ')}}`;
}

/** The values both domains hold (of one feature): the tighter interval, or the common categories in `a`'s order. */
export function intersectDomains(a: BranchDomain, b: BranchDomain): BranchDomain {
  if (a.kind === 'interval' && b.kind === 'interval') {
    const low = a.low === undefined ? b.low : b.low === undefined ? a.low : Math.max(a.low, b.low);
    const high = a.high === undefined ? b.high : b.high === undefined ? a.high : Math.min(a.high, b.high);
    return { kind: 'interval', ...(low !== undefined ? { low } : {}), ...(high !== undefined ? { high } : {}) };
  }
  if (a.kind === 'categories' && b.kind === 'categories') {
    const inB = new Set(b.codes);
    return { kind: 'categories', codes: a.codes.filter((c) => inB.has(c)) };
  }
  throw new GroveError('a numeric and a categorical test on the same feature', { code: 'E_MODEL' });
}
