/**
 * A split decision stored in a tree node. Branch numbering is part of the model format:
 * - `numeric`: branch i is the first i with x ≤ thresholds[i], else thresholds.length
 *   (one threshold = the binary split `x ≤ v`; several = C-MBSV's multi-branch node);
 * - `multiway`: branch i holds rows with category code `values[i]` (codes seen at the node);
 * - `subset`: branch 0 holds `x ∈ left` (Zaki's `X ∈ V`), branch 1 `x ∈ right`; together they are
 *   the values seen at the node, `left` the side with fewer values (on a tie, the lowest code).
 * A missing value, or a category the split has no branch for, stops at the node at prediction.
 */
export type Split =
  | { kind: 'numeric'; feature: number; thresholds: number[] }
  | { kind: 'multiway'; feature: number; values: number[] }
  | { kind: 'subset'; feature: number; left: number[]; right: number[] };

/** Relative tolerance under which two oriented scores count as tied (first feature wins). */
export const TIE_TOLERANCE = 1e-12;

/** True when `score` beats `best` by more than the tie tolerance. */
export function beats(score: number, best: number): boolean {
  if (best === -Infinity) return score > -Infinity;
  return score > best + TIE_TOLERANCE * Math.max(1, Math.abs(best));
}

/**
 * The best split found for one feature, reused across features and nodes so that scans do not
 * allocate. `oriented` is the criterion value with its direction applied (bigger is better).
 */
export class Candidate {
  found = false;
  feature = -1;
  kind: Split['kind'] = 'numeric';
  oriented = -Infinity;
  raw = NaN;
  /** Oriented value of the parent seen as a single branch, over the same (known-value) rows. */
  parentOriented = NaN;
  threshold = NaN;
  /** Category codes: the branches of a multiway split, or the set V of a subset split. */
  values: number[] = [];
  /** Subset split: the codes seen at the node that are not in V. */
  others: number[] = [];

  reset(feature: number, kind: Split['kind']): void {
    this.found = false;
    this.feature = feature;
    this.kind = kind;
    this.oriented = -Infinity;
    this.raw = NaN;
    this.parentOriented = NaN;
    this.threshold = NaN;
    this.values = [];
    this.others = [];
  }

  get improvement(): number {
    return this.oriented - this.parentOriented;
  }

  copyFrom(o: Candidate): void {
    this.found = o.found;
    this.feature = o.feature;
    this.kind = o.kind;
    this.oriented = o.oriented;
    this.raw = o.raw;
    this.parentOriented = o.parentOriented;
    this.threshold = o.threshold;
    this.values = o.values.slice();
    this.others = o.others.slice();
  }

  toSplit(): Split {
    switch (this.kind) {
      case 'numeric':
        return { kind: 'numeric', feature: this.feature, thresholds: [this.threshold] };
      case 'multiway':
        return { kind: 'multiway', feature: this.feature, values: this.values.slice() };
      case 'subset': {
        const a = this.values.slice().sort((x, y) => x - y);
        const b = this.others.slice().sort((x, y) => x - y);
        const aFirst = a.length < b.length || (a.length === b.length && a[0] < b[0]);
        return { kind: 'subset', feature: this.feature, left: aFirst ? a : b, right: aFirst ? b : a };
      }
    }
  }
}
