import { splitInfoWithUnknown } from '../criteria/gain.js';
import { orientedScore } from '../criteria/registry.js';
import { createTable, informationGain } from '../criteria/table.js';
import type { CountTable, Criterion } from '../criteria/types.js';
import type { MissingPolicy } from '../options/options.js';
import type { Candidate } from './candidate.js';

/**
 * Scratch for `finalizeCandidate`: a view of the candidate's table, the parent table, and the
 * parent's last score. Every feature of a node without missing values has the same parent totals,
 * so the parent is scored once per node, not once per feature (a k-class evaluation each).
 */
export class FinalizeScratch {
  readonly table: CountTable;
  readonly parent: CountTable;
  private parentCriterion: Criterion | null = null;
  private parentOriented = 0;

  constructor(maxBranches: number, classes: number) {
    this.table = createTable(maxBranches, classes);
    this.parent = createTable(1, classes);
  }

  /** The oriented score of `t`'s class totals as one branch, from the cache when they are the same as last time. */
  parentScore(crit: Criterion, t: CountTable): number {
    const k = t.classes;
    const p = this.parent;
    let same = this.parentCriterion === crit && p.total === t.total;
    for (let c = 0; c < k && same; c++) same = p.classTotals[c] === t.classTotals[c];
    if (same) return this.parentOriented;
    p.branches = 1;
    for (let c = 0; c < k; c++) {
      p.counts[c] = t.classTotals[c];
      p.classTotals[c] = t.classTotals[c];
    }
    p.branchTotals[0] = t.total;
    p.total = t.total;
    this.parentCriterion = crit;
    this.parentOriented = orientedScore(crit, crit.evaluate(p));
    return this.parentOriented;
  }
}

/** Load the candidate's best table into `t` (computing totals). */
export function loadCandidateTable(cand: Candidate, t: CountTable): void {
  const k = t.classes;
  t.branches = cand.branches;
  t.classTotals.fill(0);
  let total = 0;
  for (let b = 0; b < cand.branches; b++) {
    let bt = 0;
    for (let c = 0; c < k; c++) {
      const v = cand.table[b * k + c];
      t.counts[b * k + c] = v;
      t.classTotals[c] += v;
      bt += v;
    }
    t.branchTotals[b] = bt;
    total += bt;
  }
  t.total = total;
}

/**
 * Score a feature's best split with the main criterion and fill the comparison fields:
 * - `raw`: the criterion's value as its paper defines it;
 * - `key`: improvement over the node (its known rows as one branch), times the known share of the
 *   weight (C4.5), unless the criterion handles unknown mass itself (`evaluateWithUnknown`);
 * - `gain`: information gain likewise scaled, for C4.5's average-gain rule.
 * With `mdl`, a numeric split pays log2(thresholds tried) / weight in gain (Quinlan 1996); a split
 * left with no gain is dropped.
 */
export function finalizeCandidate(
  cand: Candidate,
  crit: Criterion,
  missing: MissingPolicy,
  mdl: boolean,
  s: FinalizeScratch,
  needGain = true,
): void {
  if (!cand.found) return;
  const t = s.table;
  loadCandidateTable(cand, t);
  const unknown = cand.unknownInTable ? 0 : cand.unknownWeight;
  const all = t.total + unknown;
  const share = all > 0 ? t.total / all : 0;
  const parentOriented = s.parentScore(crit, t);
  const penalty = mdl && cand.kind === 'numeric' && cand.tried > 1 && all > 0 ? Math.log2(cand.tried) / all : 0;
  // Information gain is needed only by C4.5's rule and the MDL correction: skip its logarithms otherwise.
  let gain = needGain || penalty > 0 ? share * informationGain(t) : 0;
  gain -= penalty;
  if (penalty > 0 && gain <= 0) {
    cand.found = false;
    return;
  }
  if (missing === 'fractional' && unknown > 0 && crit.evaluateWithUnknown) {
    cand.raw = crit.evaluateWithUnknown(t, unknown);
    cand.key = orientedScore(crit, cand.raw) - parentOriented;
  } else {
    cand.raw = crit.evaluate(t);
    cand.key = share * (orientedScore(crit, cand.raw) - parentOriented);
  }
  if (penalty > 0) {
    // C4.5 (release 8) charges the threshold to the gain itself, and so to the gain ratio.
    if (crit.name === 'info-gain') cand.raw = cand.key = gain;
    else if (crit.name === 'gain-ratio') {
      const si = splitInfoWithUnknown(t, unknown);
      cand.raw = cand.key = si > 0 ? gain / si : 0;
    }
  }
  cand.gain = gain;
}
