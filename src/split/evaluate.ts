import { getCriterion } from '../criteria/registry.js';
import type { Column } from '../data/dataset.js';
import type { ResolvedOptions } from '../options/options.js';
import { beats, Candidate } from './candidate.js';
import { CategoryCounts, scanMultiway, scanSubsets } from './categorical.js';
import { ScanContext } from './context.js';
import type { EntryPool } from './entries.js';
import { FinalizeScratch, finalizeCandidate } from './finalize.js';
import { scanNumeric } from './numeric.js';
import type { SortedSlice } from './sorted-slice.js';

/**
 * Finds the best split of one feature at one node: runs the right scanner, then scores the result
 * with the main criterion (`finalizeCandidate`). Shared by the grower and `grove score`; all
 * buffers are allocated once.
 */
export class FeatureEvaluator {
  readonly ctx: ScanContext;
  private readonly cc: CategoryCounts;
  private readonly known: Float64Array;
  private readonly combo: Int32Array;
  private readonly scratch: FinalizeScratch;

  constructor(
    readonly features: Column[],
    pool: EntryPool,
    readonly classes: number,
    readonly opts: ResolvedOptions,
  ) {
    const maxCategories = features.reduce(
      (m, c) => (c.kind === 'categorical' ? Math.max(m, c.categories.length) : m),
      2,
    );
    const scanCriterion = opts.thresholdCriterion ? getCriterion(opts.thresholdCriterion) : opts.criterionImpl;
    this.ctx = new ScanContext(pool, classes, scanCriterion, opts.minSamplesLeaf, opts.missing, maxCategories);
    this.cc = new CategoryCounts(maxCategories, classes);
    this.known = new Float64Array(classes);
    this.combo = new Int32Array(maxCategories);
    this.scratch = new FinalizeScratch(maxCategories, classes);
  }

  /** A Candidate sized for this data (one per feature, reused across nodes). */
  newCandidate(): Candidate {
    return new Candidate(this.ctx.maxBranches, this.classes);
  }

  /**
   * Best split of feature `f` over entries [start, end): `ids` holds them in any order; for a
   * numeric feature `sorted` holds the same entries sorted by it.
   */
  evaluate(
    f: number,
    ids: Int32Array,
    sorted: SortedSlice | null,
    start: number,
    end: number,
    nodeTotals: Float64Array,
    out: Candidate,
  ): void {
    const col = this.features[f];
    if (col.kind === 'numeric') {
      scanNumeric(this.ctx, f, col.values, sorted!, start, end, nodeTotals, this.known, out);
    } else {
      out.reset(f, this.opts.categoricalSplit === 'multiway' ? 'multiway' : 'subset');
      this.cc.fill(this.ctx, col.codes, col.categories.length, ids, start, end, out);
      if (this.opts.categoricalSplit === 'multiway') scanMultiway(this.ctx, this.cc, out);
      else scanSubsets(this.ctx, this.cc, this.opts.maxSubsetSize, this.combo, out);
    }
    finalizeCandidate(
      out,
      this.opts.criterionImpl,
      this.opts.missing,
      this.opts.mdlCorrection,
      this.scratch,
      this.opts.averageGainRule,
    );
  }
}

/**
 * The selector: the candidate with the best key (first feature on a tie), or with C4.5's rule the
 * best key among candidates whose information gain is at least the average gain of all
 * candidates with non-negative gain (Quinlan 1993, release 8).
 */
export function selectCandidate(cands: Candidate[], averageGainRule: boolean): Candidate | null {
  let threshold = -Infinity;
  if (averageGainRule) {
    let sum = 0;
    let count = 0;
    for (const c of cands) {
      if (c.found && c.gain > -1e-9) {
        sum += c.gain;
        count++;
      }
    }
    if (count > 0) threshold = sum / count - 1e-9;
  }
  let best: Candidate | null = null;
  for (const c of cands) {
    if (!c.found || c.gain < threshold) continue;
    if (!best || beats(c.key, best.key)) best = c;
  }
  return best;
}
