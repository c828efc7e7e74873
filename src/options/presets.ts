import type { TreeOptions } from './types.js';

export interface Preset {
  readonly description: string;
  readonly source: string;
  readonly options: Partial<TreeOptions>;
}

/** Named algorithms: combinations of criterion, split style and stopping rules. */
export const PRESETS: Readonly<Record<string, Preset>> = {
  id3: {
    description: 'information gain, one branch per categorical value, binary numeric thresholds',
    source: 'Quinlan 1986; metrics tutorial "ID3 Algorithm"',
    options: { criterion: 'info-gain', categoricalSplit: 'multiway' },
  },
  c45: {
    description:
      'gain ratio among splits of at least average gain, numeric thresholds by information gain with the MDL ' +
      'correction (C4.5 release 8), multiway categorical, fractional missing values, error-based pruning (CF 0.25) ' +
      "with subtree raising; Weka J48's rules (minimum objects by weight, C4.5's numeric minimum branch, ...)",
    source: 'Quinlan 1993; metrics tutorial "C4.5 Algorithm"; Weka 3.6 J48 (-C 0.25 -M 2)',
    options: {
      criterion: 'gain-ratio',
      categoricalSplit: 'multiway',
      minSamplesLeaf: 2,
      averageGainRule: true,
      thresholdCriterion: 'info-gain',
      mdlCorrection: true,
      missing: 'fractional',
      prune: 'error-based',
      confidence: 0.25,
      subtreeRaising: true,
      j48Rules: true,
    },
  },
  cart: {
    description: 'Gini impurity, binary splits everywhere, cost-complexity pruning with α by 10-fold CV (1-SE rule)',
    source: 'Breiman et al. 1984; metrics tutorial "CART Algorithm"',
    options: { criterion: 'gini', categoricalSplit: 'binary', prune: 'cost-complexity', ccpFolds: 10, ccpRule: '1se' },
  },
  cmbsv: {
    description:
      'C-MBSV: feature of largest |correlation| with the class, thresholds from pairwise 1-D SVMs, ' +
      'multi-branch nodes, unclassified regions',
    source: 'Salehi-Moghaddami, Sadoghi Yazdi & Poostchi 2011 (docs/cmbsv.md)',
    options: { categoricalSplit: 'multiway', missing: 'majority' },
  },
  optimal: {
    description:
      'the tree of depth ≤ maxDepth with the fewest training errors over binary tests (every midpoint, or the ' +
      'bins of bins; categories one-vs-rest; missing values sent the learned way), by dynamic programming ' +
      'with bounds and a depth-2 solver; depth 3 unless maxDepth says otherwise',
    source: 'Demirović et al. 2022 (MurTree); Aglin, Nijssen & Schaus 2020 (DL8.5); docs/optimal.md',
    options: { optimal: true, maxDepth: 3, categoricalSplit: 'binary', missing: 'learned' },
  },
  zaki: {
    description: "Zaki & Meira's DECISIONTREE(D, η=5, π=0.95): binary splits scored by information gain",
    source: 'Zaki & Meira, Data Mining and Analysis, ch. 19',
    options: { criterion: 'info-gain', categoricalSplit: 'binary', minSamplesSplit: 6, purity: 0.95 },
  },
};

/** The presets that set `option`, in `PRESETS` order. */
export function presetsSetting(option: keyof TreeOptions): string[] {
  return Object.keys(PRESETS).filter((name) => Object.hasOwn(PRESETS[name].options, option));
}

/** The preset named `name`, or undefined (own properties only, so `toString` is no preset). */
export function presetNamed(name: string): Preset | undefined {
  return Object.hasOwn(PRESETS, name) ? PRESETS[name] : undefined;
}
