/** The SQL of a row's next node in a level step: tests of code ranges, CASEs over parents, lookup lists. */
import type { WalkRoute } from '../sql/index.js';

/**
 * How a split node sends rows on: the code column it reads, each code's branch, each branch's
 * child, and the children's sizes and stop tests (which child's histogram is made by subtraction).
 */
export interface Route extends WalkRoute {
  sizes: Int32Array;
  leaf: readonly boolean[];
  /**
   * C4.5's fractional policy, when rows reach the split with its value missing: each branch's
   * share of such a row's weight (the missing code's branch is −1: the row goes down every branch).
   */
  shares?: Float64Array;
}

/** Entries (parents × codes) of a level step by lookups at most (Router's lookup step, routing.ts). */
export const LOOKUP_STEP_CELLS = 1 << 20;

/** A lookup step's lists (stepTables). */
export interface StepTables {
  feature: Int32Array;
  child: Int32Array;
  width: number;
  split: ReadonlySet<number>;
}

/**
 * SQL that is true when `column` holds a code of branch `b` (`branchOfCode`): runs of
 * consecutive codes as ranges, so a numeric split reads as `c <= s` (and its missing code).
 */
export function codesTest(column: string, branchOfCode: Int32Array, b: number): string | null {
  const last = branchOfCode.length - 1;
  const parts: string[] = [];
  for (let lo = 0; lo <= last; lo++) {
    if (branchOfCode[lo] !== b) continue;
    let hi = lo;
    while (hi < last && branchOfCode[hi + 1] === b) hi++;
    if (lo === hi) parts.push(`${column} = ${lo}`);
    else if (lo === 0) parts.push(`${column} <= ${hi}`);
    else if (hi === last) parts.push(`${column} >= ${lo}`);
    else parts.push(`${column} BETWEEN ${lo} AND ${hi}`);
    lo = hi;
  }
  return parts.length === 0 ? null : parts.length === 1 ? parts[0] : `(${parts.join(' OR ')})`;
}

/**
 * A lookup step's slot: `lc` at `base` (the parent slot's first index) plus the code of the
 * parent's split feature `sf`, under a CASE over the features split on; −1 for a row whose parent
 * split on none (a row in no node, whose `sf` is NULL).
 */
export function lookupCase(sf: string, base: string, split: ReadonlySet<number>): string {
  const whens = Array.from(split, (f) => `WHEN ${f} THEN lc[${base} + c${f}]`);
  return whens.length === 0 ? '-1' : `CASE ${sf} ${whens.join(' ')} ELSE -1 END`;
}

/** A row's slot in the next level as a searched CASE over the parents split in this level. */
export function caseStep(
  node: string,
  routed: ReadonlyMap<number, Route>,
  slotOf: ReadonlyMap<number, number>,
  slots: ReadonlyMap<number, number>,
): string {
  const whens: string[] = [];
  for (const [parent, route] of routed) {
    const step = nodeStep(route, slots);
    if (step) whens.push(`WHEN ${node} = ${slotOf.get(parent)} THEN ${step}`);
  }
  // A searched CASE: ClickHouse's `CASE x WHEN` (transform) takes only constant results.
  return whens.length === 0 ? '-1' : `CASE ${whens.join(' ')} ELSE -1 END`;
}

/**
 * A lookup step's lists: each parent slot's split feature (−1: none), and the child's slot (−1:
 * none) at parent slot × `width` + code; with the features split on. Null when they would be
 * longer than {@link LOOKUP_STEP_CELLS} (held in grove and sent as text; many categories).
 */
export function stepTables(
  routed: ReadonlyMap<number, Route>,
  slotOf: ReadonlyMap<number, number>,
  slots: ReadonlyMap<number, number>,
): StepTables | null {
  let width = 1;
  let parentSlots = 0;
  for (const [parent, route] of routed) {
    width = Math.max(width, route.branchOfCode.length);
    parentSlots = Math.max(parentSlots, slotOf.get(parent)! + 1);
  }
  if (parentSlots * width > LOOKUP_STEP_CELLS) return null;
  const feature = new Int32Array(parentSlots).fill(-1);
  const child = new Int32Array(parentSlots * width).fill(-1);
  const split = new Set<number>();
  for (const [parent, route] of routed) {
    const at = slotOf.get(parent)!;
    route.branchOfCode.forEach((b, code) => {
      const slot = b < 0 ? undefined : slots.get(route.children[b]);
      if (slot === undefined) return;
      child[at * width + code] = slot;
      feature[at] = route.feature;
      split.add(route.feature);
    });
  }
  return { feature, child, width, split };
}

/**
 * SQL of the slot a row of a node split by `route` goes to (−1: to no node in `slots`); null when none goes
 * anywhere.
 */
export function nodeStep(route: Route, slots: ReadonlyMap<number, number>): string | null {
  const code = `c${route.feature}`;
  const whens: string[] = [];
  route.children.forEach((c, b) => {
    const slot = slots.get(c);
    if (slot === undefined) return;
    const test = codesTest(code, route.branchOfCode, b);
    if (test) whens.push(`WHEN ${test} THEN ${slot}`);
  });
  return whens.length === 0 ? null : `CASE ${whens.join(' ')} ELSE -1 END`;
}
