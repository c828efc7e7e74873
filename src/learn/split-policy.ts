import { chiSquareSf } from '../core/distributions.js';
import { chiSquare } from '../criteria/statistics.js';
import type { CountTable } from '../criteria/types.js';
import { branchCount } from '../model/route.js';
import type { ResolvedOptions } from '../options/options.js';
import { type Candidate, J48_SMALL, type Split } from '../split/candidate.js';
import { selectCandidate, selectJ48 } from '../split/evaluate.js';
import { loadCandidateTable } from '../split/finalize.js';

/**
 * Where missing values go below this split: `majority` → the heaviest branch; `learned` → the
 * side the scan chose (binary splits), else the heaviest; `fractional` → -1 (every branch).
 */
export function chooseMissingBranch(best: Candidate, split: Split, policy: ResolvedOptions['missing']): number {
  if (policy === 'fractional') return -1;
  if (policy === 'learned' && best.unknownInTable && best.missingBranch >= 0) {
    return best.subsetSwapped() ? 1 - best.missingBranch : best.missingBranch;
  }
  const branches = branchCount(split);
  let heaviest = 0;
  for (let b = 1; b < branches; b++) if (best.branchWeight(b) > best.branchWeight(heaviest)) heaviest = b;
  return best.subsetSwapped() ? 1 - heaviest : heaviest;
}

/**
 * Chi-square pre-pruning (the tutorial's "stop if the class distribution is independent of the
 * split"): true when the split's table rejects independence at significance `alpha`.
 */
export function significant(best: Candidate, t: CountTable, alpha: number): boolean {
  loadCandidateTable(best, t);
  let rows = 0;
  let cols = 0;
  for (let b = 0; b < t.branches; b++) if (t.branchTotals[b] > 0) rows++;
  for (let c = 0; c < t.classes; c++) if (t.classTotals[c] > 0) cols++;
  const df = (rows - 1) * (cols - 1);
  if (df <= 0) return false;
  return chiSquareSf(chiSquare.evaluate(t), df) <= alpha;
}

/** The options the stopping rule reads. */
export type StopOptions = Pick<ResolvedOptions, 'minSamplesSplit' | 'maxDepth' | 'purity'> &
  Partial<Pick<ResolvedOptions, 'minSamplesLeaf' | 'j48Rules'>>;

/**
 * Zaki's stopping rules on a node's size, depth and class totals (η as minSamplesSplit, depth,
 * π as purity); a pure or weightless node always stops. With J48's rules, so does a node whose
 * weight is under 2 · minSamplesLeaf (J48 counts its minimum number of objects in weight).
 */
export function stopsHere(opts: StopOptions, size: number, depth: number, totals: ArrayLike<number>): boolean {
  if (size < opts.minSamplesSplit || depth >= opts.maxDepth) return true;
  let total = 0;
  let majority = 0;
  for (let c = 0; c < totals.length; c++) {
    total += totals[c];
    if (totals[c] > majority) majority = totals[c];
  }
  if (opts.j48Rules && 2 * (opts.minSamplesLeaf ?? 1) - total > J48_SMALL) return true;
  return total <= 0 || majority >= opts.purity * total * (1 - 1e-12);
}

/** The split a node gets (null elsewhere: it stays a leaf), as the tree records it. */
export interface NodeSplit {
  split: Split;
  branches: number;
  /** Branch for missing values (majority/learned), or -1 (fractional: every branch). */
  missingBranch: number;
  /** The node's `score`: the measure's value for the split, as its paper defines it. */
  score: number;
  /** The node's `improvement`: what the split gains over the node (feature importances read it). */
  improvement: number;
}

/** A split chosen among per-feature candidates, with the winning candidate. */
export interface ChosenSplit extends NodeSplit {
  best: Candidate;
}

/**
 * From the per-feature candidates to the node's split, the same for every candidate-based grower:
 * the selector (C4.5's rule when asked), the minimum-gain and chi-square pre-pruning tests, the
 * missing-value branch. `view` is scratch for the chi-square test; `nodeShare` is the node's
 * share of the fit's total weight (N_t / N), which `minImpurityDecrease` weighs the improvement by.
 */
export function chooseSplit(
  cands: Candidate[],
  opts: ResolvedOptions,
  view: CountTable,
  nodeShare = 1,
): ChosenSplit | null {
  const best = opts.j48Rules ? selectJ48(cands) : selectCandidate(cands, opts.averageGainRule);
  if (!best) return null;
  if (best.key < opts.minGain - 1e-12 * Math.max(1, Math.abs(opts.minGain))) return null;
  // scikit-learn's test: its weighted decrease plus its EPSILON (the double's machine epsilon).
  const decrease = opts.minImpurityDecrease;
  if (decrease > 0 && best.key * nodeShare + Number.EPSILON < decrease) return null;
  if (opts.chiSquareAlpha > 0 && !significant(best, view, opts.chiSquareAlpha)) return null;
  const split = best.toSplit();
  return {
    best,
    split,
    branches: branchCount(split),
    missingBranch: chooseMissingBranch(best, split, opts.missing),
    score: best.raw,
    improvement: best.key,
  };
}

/**
 * `chosen` with its own copy of the winning candidate, for a split applied after other nodes'
 * searches have reused the grower's candidates (best-first growth).
 */
export function heldSplit(chosen: ChosenSplit, fresh: Candidate): ChosenSplit {
  fresh.copyFrom(chosen.best);
  return { ...chosen, best: fresh };
}
