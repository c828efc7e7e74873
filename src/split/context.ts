import type { Criterion, CountTable } from '../criteria/types.js';
import { orientedScore } from '../criteria/registry.js';

/**
 * What every scanner needs, allocated once per fit: labels, weights, the criterion with its
 * direction resolved, and two count tables (the candidate split, and the parent as one branch).
 */
export class ScanContext {
  readonly sign: number;
  readonly table: CountTable;
  readonly parent: CountTable;

  constructor(
    readonly labels: Int32Array,
    readonly weights: Float64Array,
    readonly classes: number,
    readonly criterion: Criterion,
    readonly minLeaf: number,
    maxBranches: number,
  ) {
    // The registry owns the orientation; keep it as a factor for the hot loop.
    this.sign = orientedScore(criterion, 1);
    const b = Math.max(2, maxBranches);
    this.table = {
      branches: 2,
      classes,
      counts: new Float64Array(b * classes),
      branchTotals: new Float64Array(b),
      classTotals: new Float64Array(classes),
      total: 0,
    };
    this.parent = {
      branches: 1,
      classes,
      counts: new Float64Array(classes),
      branchTotals: new Float64Array(1),
      classTotals: new Float64Array(classes),
      total: 0,
    };
  }

  /** Criterion value of the current `table`, oriented so that bigger is better. */
  scoreTable(): number {
    return this.sign * this.criterion.evaluate(this.table);
  }

  /**
   * Load the parent table from class totals (the known-value rows of the node) and return its
   * oriented score; also copies the totals into `table.classTotals` and `table.total`.
   */
  loadParent(totals: Float64Array): number {
    const k = this.classes;
    let total = 0;
    for (let c = 0; c < k; c++) {
      const v = totals[c];
      this.parent.counts[c] = v;
      this.parent.classTotals[c] = v;
      this.table.classTotals[c] = v;
      total += v;
    }
    this.parent.branchTotals[0] = total;
    this.parent.total = total;
    this.table.total = total;
    return this.sign * this.criterion.evaluate(this.parent);
  }
}
