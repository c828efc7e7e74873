import { orientedScore } from '../criteria/registry.js';
import { createTable, informationGain } from '../criteria/table.js';
import type { CountTable, Criterion } from '../criteria/types.js';
import type { MissingPolicy } from '../options/options.js';
import { type Candidate, J48_SMALL } from './candidate.js';

/**
 * Scores a feature's best split with the main criterion (`finalize`), holding what every call
 * shares: the criterion, the missing-value policy, the MDL switch, and scratch tables. Every
 * feature of a node without missing values has the same parent totals, so the parent is scored
 * once per node, not once per feature (a k-class evaluation each).
 */
export class Finalizer {
  private readonly table: CountTable;
  private readonly parent: CountTable;
  private parentCached = false;
  private parentOriented = 0;

  constructor(
    /** The main criterion: the one that compares features. */
    readonly criterion: Criterion,
    readonly missing: MissingPolicy,
    /** C4.5's MDL correction for numeric thresholds. */
    readonly mdl: boolean,
    /** Whether C4.5's average-gain rule reads the candidates' information gain. */
    readonly needGain: boolean,
    maxBranches: number,
    classes: number,
    /** J48's rules: per feature, whether it counts toward the average gain; null without them. */
    readonly j48Average: Uint8Array | null = null,
  ) {
    this.table = createTable(maxBranches, classes);
    this.parent = createTable(1, classes);
  }

  /** The oriented score of `t`'s class totals as one branch, from the cache when they are the same as last time. */
  private parentScore(t: CountTable): number {
    const k = t.classes;
    const p = this.parent;
    let same = this.parentCached && p.classes === k && p.total === t.total;
    for (let c = 0; c < k && same; c++) same = p.classTotals[c] === t.classTotals[c];
    if (same) return this.parentOriented;
    p.branches = 1;
    p.classes = k;
    for (let c = 0; c < k; c++) {
      p.counts[c] = t.classTotals[c];
      p.classTotals[c] = t.classTotals[c];
    }
    p.branchTotals[0] = t.total;
    p.total = t.total;
    this.parentCached = true;
    this.parentOriented = orientedScore(this.criterion, this.criterion.evaluate(p));
    return this.parentOriented;
  }

  /**
   * Fill the comparison fields of `cand` (a scanner's result):
   * - `raw`: the criterion's value as its paper defines it;
   * - `key`: improvement over the node (its known rows as one branch), times the known share of
   *   the weight (C4.5), unless the criterion handles unknown mass itself (`evaluateWithUnknown`);
   * - `gain`: information gain likewise scaled, for C4.5's average-gain rule.
   * With `mdl`, a numeric split pays log2(thresholds tried) / weight in gain (Quinlan 1996), and a
   * criterion with `mdlCorrected` recomputes its value from that gain; a split left with no gain
   * is dropped.
   */
  finalize(cand: Candidate): void {
    if (!cand.found) return;
    const crit = this.criterion;
    const t = this.table;
    loadCandidateTable(cand, t);
    const unknown = cand.unknownInTable ? 0 : cand.unknownWeight;
    const all = t.total + unknown;
    const share = all > 0 ? t.total / all : 0;
    const parentOriented = this.parentScore(t);
    const penalty = this.mdl && cand.kind === 'numeric' && cand.tried > 1 && all > 0 ? Math.log2(cand.tried) / all : 0;
    // Information gain is needed only by C4.5's rule and the MDL correction: skip its logarithms otherwise.
    let gain = this.needGain || penalty > 0 ? share * informationGain(t) : 0;
    gain -= penalty;
    if (penalty > 0 && gain <= 0) {
      cand.found = false;
      return;
    }
    // J48 drops a numeric split whose (corrected) gain is not above Weka's 1e-6.
    if (this.j48Average && cand.kind === 'numeric' && gain <= J48_SMALL) {
      cand.found = false;
      return;
    }
    if (this.j48Average) cand.inAverage = this.j48Average[cand.feature] === 1;
    if (this.missing === 'fractional' && unknown > 0 && crit.evaluateWithUnknown) {
      cand.raw = crit.evaluateWithUnknown(t, unknown);
      cand.key = orientedScore(crit, cand.raw) - parentOriented;
    } else {
      cand.raw = crit.evaluate(t);
      cand.key = share * (orientedScore(crit, cand.raw) - parentOriented);
    }
    if (penalty > 0 && crit.mdlCorrected) cand.raw = cand.key = crit.mdlCorrected(t, unknown, gain);
    cand.gain = gain;
  }
}

/** Load the candidate's best table into `t` (computing totals), with the candidate's class columns. */
export function loadCandidateTable(cand: Candidate, t: CountTable): void {
  const k = cand.k;
  t.classes = k;
  t.branches = cand.branches;
  t.classTotals.fill(0, 0, k);
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
