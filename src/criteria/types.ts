/**
 * The count table every split measure reads: rows are child branches, columns are classes,
 * cells are (weighted) counts. Branch-major: `counts[b * classes + c]`.
 *
 * Scanners own one table per node and update it in place (O(1) per moved sample), keeping
 * `branchTotals`, `classTotals` and `total` consistent with `counts`. Criteria only read it.
 */
import type { IncrementalForm } from './incremental.js';

export interface CountTable {
  branches: number;
  classes: number;
  counts: Float64Array;
  branchTotals: Float64Array;
  classTotals: Float64Array;
  total: number;
}

/** Which way a measure's raw value improves. */
export type Better = 'higher' | 'lower';

/**
 * A node-splitting measure: a pure function of the count table.
 *
 * `evaluate` returns the measure's value exactly as its paper defines it (DCSM's M, weighted
 * Gini, information gain, ...). `better` says whether the grower should maximise or minimise it;
 * that orientation is applied in one place (`orientedScore` in ./registry).
 */
export interface Criterion {
  /** Registry name, used by the CLI and API (`'gini'`, `'dcsm'`, ...). */
  readonly name: string;
  readonly better: Better;
  /** One-line formula in plain text. */
  readonly formula: string;
  /** The paper or book the formula comes from. */
  readonly source: string;
  /** True when the measure is defined for two branches only (twoing). */
  readonly binaryOnly?: boolean;
  /**
   * The measure's value for this table. Branches or classes with zero total are ignored.
   * Must not allocate: it runs once per candidate split.
   */
  evaluate(table: CountTable): number;
  /**
   * Optional: the value when a further `unknownWeight` of the node's weight has a missing value
   * for the attribute (C4.5's fractional policy; `table` holds the known rows only). Without it the
   * grower scales the improvement on the known rows by their share of the weight.
   */
  evaluateWithUnknown?(table: CountTable, unknownWeight: number): number;
  /**
   * Optional: a fresh O(1)-per-move form of this measure for two-branch scans (see
   * ./incremental.ts). Its `value` must equal `evaluate` on the same table up to rounding.
   */
  incremental?(): IncrementalForm;
  /**
   * Optional: C4.5's MDL correction for numeric thresholds (Quinlan 1996), for measures built on
   * information gain. `correctedGain` is the split's information gain on the known rows times
   * their share of the weight, minus log2(thresholds tried) / weight; the hook returns the
   * measure's value computed from it (info gain: the corrected gain itself; gain ratio: it divided
   * by the split information, unknown mass as one more branch). `unknownWeight` is the node's
   * weight with a missing value (not in `table`). Without the hook, the correction only lowers the
   * gain that C4.5's average-gain rule reads, and drops a split it leaves with no gain.
   */
  mdlCorrected?(table: CountTable, unknownWeight: number, correctedGain: number): number;
}
