/**
 * The information-gain family: plain gain (ID3), gain ratio (C4.5), normalized gain and average
 * gain. All entropies are in bits (log base 2). All four are maximised.
 */

import { EntropySums } from './incremental.js';
import { informationGain, nonEmptyBranches, ZERO_TOLERANCE } from './table.js';
import type { CountTable, Criterion } from './types.js';

/** An entropy-sums incremental form whose value is `f(sums, nL, nR)`. */
function entropyForm(f: (s: EntropySums, nL: number, nR: number) => number): () => EntropySums {
  return () => {
    const s = new EntropySums();
    s.value = (nL: number, nR: number) => f(s, nL, nR);
    return s;
  };
}

/**
 * Information gain divided by a measure's normaliser of the split, or 0 where the normaliser is not
 * positive: the shape of gain ratio, normalized gain and average gain.
 */
function gainPer(normaliser: (t: CountTable) => number): (t: CountTable) => number {
  return (t) => {
    const d = normaliser(t);
    return d > 0 ? informationGain(t) / d : 0;
  };
}

/** The incremental form of `gainPer`: the gain of a two-branch scan over `normaliser(sums, nL, nR)`. */
function gainPerForm(normaliser: (s: EntropySums, nL: number, nR: number) => number): () => EntropySums {
  return entropyForm((s, nL, nR) => {
    const d = normaliser(s, nL, nR);
    return d > 0 ? s.gain(nL, nR) / d : 0;
  });
}

/** Non-empty branches of a two-branch scan. */
function branchesOf(nL: number, nR: number): number {
  return (nL > 0 ? 1 : 0) + (nR > 0 ? 1 : 0);
}

/** Quinlan's split information `-Σ_v (n_v/n) log2(n_v/n)` over non-empty branches, in bits. */
export function splitInfo(t: CountTable): number {
  const n = t.total;
  if (!(n > 0)) return 0;
  const tol = n * ZERO_TOLERANCE;
  let s = 0;
  for (let b = 0; b < t.branches; b++) {
    const nv = t.branchTotals[b];
    if (nv > tol) {
      const p = nv / n;
      s -= p * Math.log2(p);
    }
  }
  return s > 0 ? s : 0;
}

export const infoGain: Criterion = {
  name: 'info-gain',
  better: 'higher',
  formula: 'IG = H(parent) - sum_v (n_v/n) H(v), H(x) = -sum_k p_k log2 p_k',
  source: 'Quinlan 1986 (ID3); Zaki & Meira, Data Mining and Analysis, ch. 19 (information gain)',
  evaluate: informationGain,
  // EntropySums' own value is the gain.
  incremental: () => new EntropySums(),
  /** C4.5: the gain on the known rows times their share of the weight. */
  evaluateWithUnknown(t: CountTable, unknownWeight: number): number {
    const total = t.total + unknownWeight;
    return total > 0 ? (t.total / total) * informationGain(t) : 0;
  },
  mdlCorrected: (_t: CountTable, _unknownWeight: number, correctedGain: number): number => correctedGain,
};

export const gainRatio: Criterion = {
  name: 'gain-ratio',
  better: 'higher',
  formula: 'GR = IG / SplitInfo, SplitInfo = -sum_v (n_v/n) log2(n_v/n) over non-empty branches; 0 when SplitInfo = 0',
  source: 'Quinlan 1993 (C4.5); DCSM paper (Chandra, Kothari, Paul 2010) eq. 1-2',
  evaluate: gainPer(splitInfo),
  incremental: gainPerForm((s, nL, nR) => s.splitInfo(nL, nR)),
  /** C4.5: gain on the known rows times their share; split information counts the unknown mass as one more branch. */
  evaluateWithUnknown(t: CountTable, unknownWeight: number): number {
    const si = splitInfoWithUnknown(t, unknownWeight);
    const total = t.total + unknownWeight;
    return si > 0 && total > 0 ? ((t.total / total) * informationGain(t)) / si : 0;
  },
  /** C4.5 charges the threshold to the gain itself, and so to the gain ratio. */
  mdlCorrected(t: CountTable, unknownWeight: number, correctedGain: number): number {
    const si = splitInfoWithUnknown(t, unknownWeight);
    return si > 0 ? correctedGain / si : 0;
  },
};

/** Split information with an extra branch holding `unknownWeight` (C4.5's treatment of missing values). */
export function splitInfoWithUnknown(t: CountTable, unknownWeight: number): number {
  const total = t.total + unknownWeight;
  if (!(total > 0)) return 0;
  let s = 0;
  const term = (w: number) => {
    if (w > total * ZERO_TOLERANCE) s -= (w / total) * Math.log2(w / total);
  };
  for (let b = 0; b < t.branches; b++) term(t.branchTotals[b]);
  term(unknownWeight);
  return s > 0 ? s : 0;
}

export const normalizedGain: Criterion = {
  name: 'normalized-gain',
  better: 'higher',
  formula: 'NG = IG / log2(b), b = number of non-empty branches; 0 when b < 2',
  source: 'Jun et al. 1997; DCSM paper (Chandra, Kothari, Paul 2010) eq. 3',
  // log2(b) > 0 exactly when b ≥ 2.
  evaluate: gainPer((t) => Math.log2(nonEmptyBranches(t))),
  // Two non-empty branches: log2(2) = 1.
  incremental: gainPerForm((_s, nL, nR) => (nL > 0 && nR > 0 ? 1 : 0)),
};

export const averageGain: Criterion = {
  name: 'average-gain',
  better: 'higher',
  formula: 'AG = IG / b, b = number of non-empty branches (values the attribute takes at the node); 0 when b = 0',
  source: 'DCSM paper (Chandra, Kothari, Paul 2010) eq. 4',
  evaluate: gainPer(nonEmptyBranches),
  incremental: gainPerForm((_s, nL, nR) => branchesOf(nL, nR)),
};
