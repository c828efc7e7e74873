import type { Binarised } from './binarise.js';
import type { RowGroups } from './row-groups.js';

/** A recently searched sub-problem: its rows, check values and leaf budget. */
interface Entry {
  readonly rows: Int32Array;
  count: number;
  h1: number;
  h2: number;
  k: number;
}

/**
 * Similarity lower bounds between sub-problems of the same depth (MurTree, Demirović et al. 2022,
 * section 4.5). If P and Q are row sets, any tree's cost on P is at least its cost on P ∩ Q, and
 * its cost on Q exceeds that by at most the weight of Q \ P, so opt(P) ≥ lb(Q) − w(Q \ P). The
 * archive keeps the last few searched sub-problems of each depth; a new one takes the nearest as
 * its reference Q, which bounds P itself and, through the row hashes, each child of each test of
 * P: the child P_t is compared with Q_t = P_t − (P \ Q)_t + (Q \ P)_t, whose bound the cache may
 * hold from Q's own search. Valid when every test of a row set is a test of its supersets and
 * subsets (no categorical feature wider than SUBSET_CAP: then a wide node's tests are fewer).
 */
export class SimilarityArchive {
  private readonly entries: Entry[][] = [];
  private readonly next: number[] = [];
  private readonly mark: Int32Array;
  private stamp = 0;

  constructor(
    private readonly n: number,
    /** Sub-problems kept per depth. */
    private readonly slots = 4,
  ) {
    this.mark = new Int32Array(n);
  }

  /** Keep a searched sub-problem of depth d (its cache entry holds its tree or a lower bound). */
  remember(rows: Int32Array, count: number, h1: number, h2: number, d: number, k: number): void {
    this.entries[d] ??= [];
    this.next[d] ??= 0;
    const list = this.entries[d];
    const i = this.next[d];
    this.next[d] = (i + 1) % this.slots;
    if (!list[i]) list[i] = { rows: new Int32Array(this.n), count: 0, h1: 0, h2: 0, k: 0 };
    const e = list[i];
    e.rows.set(rows.subarray(0, count));
    e.count = count;
    e.h1 = h1;
    e.h2 = h2;
    e.k = k;
  }

  /**
   * The archived sub-problem of depth d and budget k nearest to `rows` (fewest rows in one and not
   * the other, at most `count` of them) as `ref`'s reference; false when there is none.
   */
  find(rows: Int32Array, count: number, d: number, k: number, weights: Float64Array, ref: Reference): boolean {
    const list = this.entries[d];
    ref.active = false;
    if (!list) return false;
    const mark = this.mark;
    const s = this.nextStamp();
    for (let i = 0; i < count; i++) mark[rows[i]] = s;
    let best: Entry | null = null;
    let bestDiff = count + 1;
    for (const e of list) {
      if (e.k !== k) continue;
      let common = 0;
      for (let i = 0; i < e.count; i++) if (mark[e.rows[i]] === s) common++;
      const diff = count - common + (e.count - common);
      if (diff < bestDiff) {
        bestDiff = diff;
        best = e;
      }
    }
    if (!best) return false;
    // Dropped: rows of Q not in P; added: rows of P not in Q.
    let nd = 0;
    let wd = 0;
    for (let i = 0; i < best.count; i++) {
      const r = best.rows[i];
      if (mark[r] !== s) {
        ref.dropped[nd++] = r;
        wd += weights[r];
      }
    }
    const t = this.nextStamp();
    for (let i = 0; i < best.count; i++) mark[best.rows[i]] = t;
    let na = 0;
    for (let i = 0; i < count; i++) if (mark[rows[i]] !== t) ref.added[na++] = rows[i];
    ref.nDropped = nd;
    ref.nAdded = na;
    ref.droppedWeight = wd;
    ref.h1 = best.h1;
    ref.h2 = best.h2;
    ref.count = best.count;
    ref.active = true;
    return true;
  }

  private nextStamp(): number {
    if (this.stamp >= 0x7ffffffe) {
      this.mark.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }
}

/**
 * A sub-problem P's reference Q (see SimilarityArchive) and, for the feature being swept, the
 * added and dropped rows' hash sums, counts and weights per bucket of P's grouping: buckets
 * 0 .. m-1 are P's codes (a dropped row's code P lacks goes to the bucket of the next code above
 * it, which every threshold test sends the same way), m the missing rows, m + 1 the dropped rows
 * no test of P sends left (an ordinal code above all of P's, a category P lacks).
 */
export class Reference {
  active = false;
  h1 = 0;
  h2 = 0;
  count = 0;
  readonly added: Int32Array;
  nAdded = 0;
  readonly dropped: Int32Array;
  nDropped = 0;
  droppedWeight = 0;
  readonly aH1: Uint32Array;
  readonly aH2: Uint32Array;
  readonly aN: Int32Array;
  readonly dH1: Uint32Array;
  readonly dH2: Uint32Array;
  readonly dN: Int32Array;
  readonly dW: Float64Array;
  /** After `side`: Q's rows on the test's left side (check values, count) and the dropped weight there. */
  l1 = 0;
  l2 = 0;
  lN = 0;
  lW = 0;

  constructor(
    private readonly data: Binarised,
    buckets: number,
  ) {
    this.added = new Int32Array(data.n);
    this.dropped = new Int32Array(data.n);
    this.aH1 = new Uint32Array(buckets + 1);
    this.aH2 = new Uint32Array(buckets + 1);
    this.aN = new Int32Array(buckets + 1);
    this.dH1 = new Uint32Array(buckets + 1);
    this.dH2 = new Uint32Array(buckets + 1);
    this.dN = new Int32Array(buckets + 1);
    this.dW = new Float64Array(buckets + 1);
  }

  /** Sums per bucket of feature f (m known codes at P, grouped by `groups` after `sortBy(f)`). */
  bucket(groups: RowGroups, f: number, m: number, z1: Uint32Array, z2: Uint32Array): void {
    const { aH1, aH2, aN, dH1, dH2, dN, dW } = this;
    aH1.fill(0, 0, m + 2);
    aH2.fill(0, 0, m + 2);
    aN.fill(0, 0, m + 2);
    dH1.fill(0, 0, m + 2);
    dH2.fill(0, 0, m + 2);
    dN.fill(0, 0, m + 2);
    dW.fill(0, 0, m + 2);
    const feature = this.data.features[f];
    const codes = feature.codes;
    const o = groups.base[f];
    const occ = groups.occ;
    const ordinal = feature.kind === 'ordinal';
    for (let i = 0; i < this.nAdded; i++) {
      const r = this.added[i];
      const b = bucketOf(codes[r], feature.bins, occ, o, m, ordinal);
      aH1[b] = (aH1[b] + z1[r]) >>> 0;
      aH2[b] = (aH2[b] + z2[r]) >>> 0;
      aN[b]++;
    }
    const { weights } = this.data;
    for (let i = 0; i < this.nDropped; i++) {
      const r = this.dropped[i];
      const b = bucketOf(codes[r], feature.bins, occ, o, m, ordinal);
      dH1[b] = (dH1[b] + z1[r]) >>> 0;
      dH2[b] = (dH2[b] + z2[r]) >>> 0;
      dN[b]++;
      dW[b] += weights[r];
    }
  }

  /** Add bucket b's sums to the left side of Q (P's left side's check values less added, plus dropped). */
  addLeft(b: number): void {
    this.l1 = (this.l1 - this.aH1[b] + this.dH1[b]) >>> 0;
    this.l2 = (this.l2 - this.aH2[b] + this.dH2[b]) >>> 0;
    this.lN += this.dN[b] - this.aN[b];
    this.lW += this.dW[b];
  }

  /** Start a side from P's left side's check values and count. */
  startLeft(h1: number, h2: number, count: number): void {
    this.l1 = h1;
    this.l2 = h2;
    this.lN = count;
    this.lW = 0;
  }
}

/** The bucket of code c at a node with known codes occ[o .. o + m) (see Reference). */
function bucketOf(c: number, bins: number, occ: Int32Array, o: number, m: number, ordinal: boolean): number {
  if (c === bins) return m;
  // The first of P's codes at or above c.
  let lo = 0;
  let hi = m;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (occ[o + mid] < c) lo = mid + 1;
    else hi = mid;
  }
  if (lo === m) return m + 1;
  if (!ordinal && occ[o + lo] !== c) return m + 1;
  return lo;
}

/** `lb − w`, less a margin for rounding when costs are not exact sums. */
export function lessBy(lb: number, w: number, exact: boolean): number {
  return exact ? lb - w : lb - w - 1e-9 * (Math.abs(lb) + w);
}
