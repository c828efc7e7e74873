import { type CellSummary, type CompareResults, completeDatasets, summarizeCells } from './results.js';
import type { FriedmanResult, WilcoxonResult } from './stats/index.js';
import {
  averageRanks,
  cliques,
  criticalDifference,
  friedmanTest,
  nearlyEqual,
  nemenyiPValue,
  wilcoxonSignedRank,
} from './stats/index.js';

/** A metric compared across data sets: test accuracy (higher is better) or tree size in leaves (lower is better). */
export type MetricName = 'testAccuracy' | 'leaves';

export interface PairComparison {
  a: string;
  b: string;
  /** Data sets where a is better / equal / worse than b. */
  wins: number;
  ties: number;
  losses: number;
  /** Average rank of b minus that of a (positive: a ranks better). */
  rankDifference: number;
  /** Nemenyi post-hoc p-value of the pair (all-pairs, df = ∞). */
  nemenyiP: number;
  /** |rank difference| ≥ CD at α = 0.05. */
  nemenyiSignificant: boolean;
  wilcoxon: WilcoxonResult;
}

/** Statistics of one metric over the data sets on which every configuration finished. */
export interface MetricAnalysis {
  metric: MetricName;
  label: string;
  higherIsBetter: boolean;
  datasets: string[];
  configs: string[];
  /** matrix[i][j]: mean of the metric on data set i for configuration j. */
  matrix: number[][];
  /** Mean rank per configuration (1 = best), over `datasets`. */
  averageRanks: number[];
  /** Absent (with `note`) when fewer than 2 data sets or configurations. */
  friedman?: FriedmanResult;
  /** Nemenyi critical differences of average ranks at α = 0.05 and 0.10 (Demšar 2006). */
  cd05?: number;
  cd10?: number;
  /** Groups of configurations whose ranks differ by less than CD(0.05): the bars of the CD diagram. */
  cliques: string[][];
  pairs: PairComparison[];
  note?: string;
}

export interface Analysis {
  cells: CellSummary[];
  accuracy: MetricAnalysis;
  leaves: MetricAnalysis;
}

const METRICS: Record<MetricName, { label: string; higherIsBetter: boolean }> = {
  testAccuracy: { label: 'test accuracy', higherIsBetter: true },
  leaves: { label: 'tree size (leaves)', higherIsBetter: false },
};

export function analyzeMetric(
  results: CompareResults,
  metric: MetricName,
  cells: CellSummary[] = summarizeCells(results),
): MetricAnalysis {
  const { label, higherIsBetter } = METRICS[metric];
  const datasets = completeDatasets(results, cells);
  const configs = results.configs.map((c) => c.label);
  const value = new Map(cells.map((c) => [`${c.dataset}\u0000${c.config}`, c[metric].mean]));
  const matrix = datasets.map((d) => configs.map((c) => value.get(`${d}\u0000${c}`)!));
  const N = datasets.length;
  const k = configs.length;
  const base: MetricAnalysis = {
    metric,
    label,
    higherIsBetter,
    datasets,
    configs,
    matrix,
    averageRanks: N ? averageRanks(matrix, higherIsBetter) : configs.map(() => NaN),
    cliques: [],
    pairs: [],
  };
  if (N < 2 || k < 2) {
    return { ...base, note: `statistics need at least 2 complete data sets and 2 configurations (have ${N} and ${k})` };
  }
  const friedman = friedmanTest(matrix, higherIsBetter);
  const cd05 = criticalDifference(k, N, 0.05);
  const cd10 = criticalDifference(k, N, 0.1);
  const ranks = friedman.averageRanks;
  const pairs: PairComparison[] = [];
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) {
      const x = matrix.map((row) => row[i]);
      const y = matrix.map((row) => row[j]);
      let wins = 0;
      let ties = 0;
      let losses = 0;
      x.forEach((xi, r) => {
        if (nearlyEqual(xi, y[r])) ties++;
        else if (xi > y[r] === higherIsBetter) wins++;
        else losses++;
      });
      pairs.push({
        a: configs[i],
        b: configs[j],
        wins,
        ties,
        losses,
        rankDifference: ranks[j] - ranks[i],
        nemenyiP: nemenyiPValue(ranks[i], ranks[j], k, N),
        nemenyiSignificant: Math.abs(ranks[i] - ranks[j]) >= cd05,
        wilcoxon: wilcoxonSignedRank(x, y),
      });
    }
  }
  return {
    ...base,
    averageRanks: ranks,
    friedman,
    cd05,
    cd10,
    cliques: cliques(ranks, cd05).map((g) => g.map((j) => configs[j])),
    pairs,
  };
}

export function analyze(results: CompareResults): Analysis {
  const cells = summarizeCells(results);
  return {
    cells,
    accuracy: analyzeMetric(results, 'testAccuracy', cells),
    leaves: analyzeMetric(results, 'leaves', cells),
  };
}
