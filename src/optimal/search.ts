import { type Binarised, maskCodes, SUBSET_CAP, wideCategories } from './binarise.js';
import { SubproblemCache } from './cache.js';
import { Depth2Solver } from './depth2.js';
import { bucketHashes, copySides, type Level, newLevel, type SweepBounds } from './search-level.js';
import type { SearchProgress, SearchSettings } from './search-settings.js';
import { lessBy, Reference, SimilarityArchive } from './similarity.js';
import { leafError, leafSolution, type Solution, splitSolution, type Test } from './solution.js';
import { residentMemory, SearchLimits, StopSearch } from './stop.js';

export type { SearchProgress, SearchSettings } from './search-settings.js';
export { type StopReason, StopSearch } from './stop.js';

/** A node's search so far: the best tree below its bound, its row set and depth and leaf budget. */
interface SolveState {
  best: Solution | null;
  bound: number;
  readonly h1: number;
  readonly h2: number;
  readonly count: number;
  readonly d: number;
  readonly k: number;
  /** The least lower bound over the tests tried so far (with the leaf: a lower bound on the node). */
  lb: number;
}

/**
 * Branch and bound over sub-problems, as in MurTree (Demirović et al. 2022, algorithm 1) and
 * DL8.5: a node's optimal tree is the best, over its tests and the ways of sharing its leaf budget
 * between its children, of the children's optimal trees, searched only below an upper bound (the
 * best tree known so far) and skipped when the children's lower bounds already reach it. Solved
 * sub-problems and proven lower bounds are cached by row set; depth ≤ 2 goes to the specialised
 * solver. The recursion is over the depth left, at most the validated maximum depth (10), never
 * over the data.
 */
export class OptimalSearch {
  readonly cache: SubproblemCache;
  private readonly depth2: Depth2Solver;
  private readonly levels: Level[] = [];
  private readonly classes: Float64Array;
  private subproblems = 0;
  /** Sub-problems and children ruled out by similarity bounds (a count for tests and the bench). */
  similarityPrunes = 0;
  /** Children given a lower bound by their node's reference (a count for tests). */
  referenceBounds = 0;
  private readonly archive: SimilarityArchive | null;
  /** The reference of a depth-1 or 2 sub-problem (only its own bound is used). */
  private readonly smallRef: Reference | null;
  /** Whether costs are exact sums (integer weights, a dyadic penalty): bounds need no rounding margin. */
  private readonly exact: boolean;
  /**
   * No categorical feature wider than SUBSET_CAP: then every test of a row set is one of its
   * supersets' too, which a bound from a larger set onto a smaller one needs (a wide node tries one
   * category against the rest only, a narrower one every subset).
   */
  private readonly narrow: boolean;
  private readonly started = Date.now();
  private lastReport = Date.now();
  private readonly limits: SearchLimits;
  /** The best complete tree found at the root so far (kept when the search stops early). */
  incumbent: Solution | null = null;
  /** While `solveRootFeature` runs: the root's one feature, the other threads' bound, who hears of a better tree. */
  private root: { feature: number; outside: () => number; onBest: (cost: number) => void } | null = null;

  constructor(
    private readonly data: Binarised,
    private readonly settings: SearchSettings,
  ) {
    this.cache = new SubproblemCache(data.n, settings.maxSlots);
    this.depth2 = new Depth2Solver(data, settings.penalty, settings.deadline, settings.pairs);
    this.classes = new Float64Array(data.k);
    this.limits = new SearchLimits(settings.deadline, settings.memoryBytes);
    this.narrow = wideCategories(data).length === 0;
    const similarity = settings.similarity !== false && this.narrow;
    this.archive = similarity ? new SimilarityArchive(data.n) : null;
    this.smallRef = similarity ? new Reference(data, 1) : null;
    this.exact = data.weights.every((w) => Number.isInteger(w)) && Number.isInteger(settings.penalty * 2 ** 16);
  }

  /** The optimal tree over every row if one costs less than `ub`, else null. May throw StopSearch. */
  solveRoot(ub: number): Solution | null {
    const { rows, h1, h2 } = this.rootRows();
    const { maxDepth, maxLeaves } = this.settings;
    return this.solve(rows, this.data.n, h1, h2, maxDepth, maxLeaves, ub);
  }

  /**
   * The best tree over every row whose root tests feature `f` (the root of depth 3 or more; no
   * leaf), if one costs less than `ub` and than `outside()`, re-read before each root test (what
   * other threads' root features have found). `onBest` hears of each better tree found. The
   * restricted root is not cached: the same rows with another root feature are another problem.
   * May throw StopSearch (then `incumbent` holds the best tree found for f).
   */
  solveRootFeature(f: number, ub: number, outside: () => number, onBest: (cost: number) => void): Solution | null {
    const { rows, h1, h2 } = this.rootRows();
    const { maxDepth, maxLeaves } = this.settings;
    this.incumbent = null;
    this.root = { feature: f, outside, onBest };
    try {
      return this.solveLevel(rows, this.data.n, h1, h2, maxDepth, Math.min(maxLeaves, 2 ** maxDepth), ub);
    } finally {
      this.root = null;
    }
  }

  /** Every row as one leaf (the root's first candidate). */
  rootLeaf(): Solution {
    return this.leaf(this.rootRows().rows, this.data.n);
  }

  private rootRows(): { rows: Int32Array; h1: number; h2: number } {
    const n = this.data.n;
    const rows = new Int32Array(n);
    let h1 = 0;
    let h2 = 0;
    for (let r = 0; r < n; r++) {
      rows[r] = r;
      h1 = (h1 + this.cache.z1[r]) >>> 0;
      h2 = (h2 + this.cache.z2[r]) >>> 0;
    }
    return { rows, h1, h2 };
  }

  /** Counts so far. */
  progress(): SearchProgress {
    return {
      subproblems: this.subproblems,
      depth2: this.depth2.solved,
      cacheHits: this.cache.hits,
      cacheEntries: this.cache.size,
      resident: residentMemory(),
      bound: this.incumbent?.cost ?? Infinity,
      seconds: (Date.now() - this.started) / 1000,
    };
  }

  /** The optimal tree of the rows at depth d with budget k if it costs less than `ub` (`lb`: a known lower bound). */
  private solve(rows: Int32Array, count: number, h1: number, h2: number, d: number, k: number, ub: number, lb = 0) {
    const budget = Math.min(k, 2 ** d);
    const cached = this.cache.get(h1, h2, count, d, budget);
    if (cached !== undefined && typeof cached !== 'number') return cached.cost < ub ? cached : null;
    const P = this.settings.penalty;
    if (Math.max(P, cached ?? 0) >= ub) return null;
    if (lb >= ub) {
      this.similarityPrunes++;
      return null;
    }
    this.tick();
    let found: Solution | null;
    if (d === 0 || budget === 1) found = this.store(h1, h2, count, d, budget, this.leaf(rows, count));
    else if (d <= 2) {
      if (this.similarSmall(rows, count, h1, h2, d, budget, ub)) return null;
      found = this.solveSmall(rows, count, h1, h2, d as 1 | 2, budget);
    } else return this.solveLevel(rows, count, h1, h2, d, budget, ub);
    return found.cost < ub ? found : null;
  }

  private leaf(rows: Int32Array, count: number): Solution {
    const { labels, weights, k } = this.data;
    const w = this.classes;
    w.fill(0);
    for (let i = 0; i < count; i++) w[labels[rows[i]]] += weights[rows[i]];
    return leafSolution(leafError(w, 0, k) + this.settings.penalty);
  }

  /**
   * Whether a depth-1 or 2 sub-problem's similarity bound (MurTree section 4.5: the nearest of the
   * last few solved at its depth, opt ≥ opt(Q) − w(Q \ P)) already reaches `ub`; then that bound
   * is cached and the solve skipped.
   */
  private similarSmall(rows: Int32Array, count: number, h1: number, h2: number, d: number, budget: number, ub: number) {
    const ref = this.smallRef;
    if (!ref || !this.archive?.find(rows, count, d, 0, this.data.weights, ref)) return false;
    const lbQ = this.cache.peekBound(ref.h1, ref.h2, ref.count, d, budget);
    const lb = lbQ > 0 ? lessBy(lbQ, ref.droppedWeight, this.exact) : 0;
    if (lb < ub) return false;
    this.similarityPrunes++;
    if (!this.cache.put(h1, h2, count, d, budget, lb)) throw new StopSearch('memory');
    return true;
  }

  /** Depth 1 or 2: every leaf budget at once from the specialised solver, all cached. */
  private solveSmall(rows: Int32Array, count: number, h1: number, h2: number, d: 1 | 2, budget: number): Solution {
    const best = this.depth2.solve(rows, count, d);
    for (let j = 0; j < best.length; j++) this.store(h1, h2, count, d, j + 1, best[j]);
    if (d === 2) for (let j = 0; j < 2; j++) this.store(h1, h2, count, 1, j + 1, best[j]);
    // Every budget is cached: the archive's entry serves any budget (its key's budget is 0).
    this.archive?.remember(rows, count, h1, h2, d, 0);
    return best[Math.min(budget, best.length) - 1];
  }

  private store(h1: number, h2: number, size: number, d: number, budget: number, value: Solution): Solution {
    if (!this.cache.put(h1, h2, size, d, budget, value)) throw new StopSearch('memory');
    return value;
  }

  /** Depth 3 or more: branch and bound over the node's tests and leaf budgets. */
  private solveLevel(rows: Int32Array, count: number, h1: number, h2: number, d: number, k: number, ub: number) {
    const leaf = this.leaf(rows, count);
    const P = this.settings.penalty;
    if (leaf.cost <= P) return this.store(h1, h2, count, d, k, leaf).cost < ub ? leaf : null;
    const level = this.level(d);
    const { groups } = level;
    groups.scan(rows, count);
    if (d === 3) this.depth2.setParent(rows, count);
    const atRoot = d === this.settings.maxDepth && count === this.data.n;
    const only = atRoot && this.root ? this.root.feature : -1;
    const { ref } = level;
    if (!atRoot && this.archive?.find(rows, count, d, k, this.data.weights, ref)) {
      // The node itself against its reference: opt ≥ lb(Q) − w(Q \ P).
      const lbQ = this.cache.peekBound(ref.h1, ref.h2, ref.count, d, k);
      const lb = lbQ > 0 ? lessBy(lbQ, ref.droppedWeight, this.exact) : 0;
      if (lb >= ub) {
        this.similarityPrunes++;
        if (!this.cache.put(h1, h2, count, d, k, lb)) throw new StopSearch('memory');
        return null;
      }
    }
    const state: SolveState = {
      best: only < 0 && leaf.cost < ub ? leaf : null,
      bound: only < 0 ? Math.min(ub, leaf.cost) : ub,
      h1,
      h2,
      count,
      d,
      k,
      lb: leaf.cost,
    };
    const features = this.data.features.length;
    for (let f = Math.max(0, only); f < (only < 0 ? features : only + 1); f++) {
      const m = groups.sortBy(f, rows, count);
      const miss = groups.missing[f] > 0;
      if (m + (miss ? 1 : 0) < 2) continue;
      bucketHashes(level, m, this.cache.z1, this.cache.z2, this.data.weights);
      if (ref.active) ref.bucket(groups, f, m, this.cache.z1, this.cache.z2);
      const o = groups.base[f];
      const ordinal = this.data.features[f].kind === 'ordinal';
      if (!ordinal && m <= SUBSET_CAP) {
        this.trySubsets(level, f, m, miss, state, atRoot);
        continue;
      }
      // Ordinal: a threshold between each two known codes, and with missing rows one above them all
      // (known left, missing right). Categorical: each code against the rest.
      const last = ordinal ? (miss ? m : m - 1) : m;
      // Similarity bounds (MurTree section 4.5) along an ordinal sweep, when the budget splits one way:
      // the left child only gains rows (its optimum cannot fall), the right one loses bucket i
      // (its optimum falls by at most that bucket's weight).
      const carry = ordinal && k === 2 ** d;
      const sim = level.sim;
      sim.left.fill(P);
      sim.right.fill(P);
      for (let i = 0; i < last; i++) {
        const from = ordinal ? 0 : i;
        const test = { feature: f, a: groups.occ[o + i], b: ordinal && i + 1 < m ? groups.occ[o + i + 1] : -1 };
        for (const missingLeft of miss ? [false, true] : [false]) {
          const dir = missingLeft ? 1 : 0;
          if (!carry) {
            sim.left[dir] = P;
            sim.right[dir] = P;
          } else if (i > 0) sim.right[dir] = this.narrow ? Math.max(P, sim.right[dir] - level.w[i]) : P;
          const before = this.beforeTest(state, atRoot);
          this.tryTest(level, { ...test, missingLeft }, from, i + 1, -1, m, state, sim, dir);
          this.afterTest(state, before, atRoot);
        }
      }
    }
    if (only >= 0) return state.best;
    if (!atRoot) this.archive?.remember(rows, count, h1, h2, d, k);
    if (state.best) return this.store(h1, h2, count, d, k, state.best);
    // Nothing below ub: every test's children's bounds, and the leaf, reach at least ub.
    const lb = this.settings.testBounds === false ? ub : Math.max(ub, state.lb);
    if (!this.cache.put(h1, h2, count, d, k, lb)) throw new StopSearch('memory');
    return null;
  }

  /**
   * Every subset test on categorical feature f (m ≤ SUBSET_CAP known codes at the node): the
   * subsets of buckets 0 .. m-2 in Gray-code order (the last bucket is on the complement's side);
   * with one code, that code against the missing rows.
   */
  private trySubsets(level: Level, f: number, m: number, miss: boolean, state: SolveState, atRoot: boolean): void {
    const { sim, groups } = level;
    const count = m === 1 ? 1 : 2 ** (m - 1) - 1;
    let mask = 0;
    for (let s = 1; s <= count; s++) {
      mask ^= s & -s;
      const test = { feature: f, a: -1, b: -1, left: maskCodes(mask, groups.occ, groups.base[f]) };
      for (const missingLeft of miss ? [false, true] : [false]) {
        const dir = missingLeft ? 1 : 0;
        sim.left[dir] = this.settings.penalty;
        sim.right[dir] = this.settings.penalty;
        const before = this.beforeTest(state, atRoot);
        this.tryTest(level, { ...test, missingLeft }, 0, 0, mask, m, state, sim, dir);
        this.afterTest(state, before, atRoot);
      }
    }
  }

  /** Before a test at the root: lower the bound to what other threads have found. Returns the best so far. */
  private beforeTest(state: SolveState, atRoot: boolean): Solution | null {
    if (atRoot && this.root) state.bound = Math.min(state.bound, this.root.outside());
    return state.best;
  }

  /** After a test at the root: a better tree is the incumbent (kept if the search stops), and told. */
  private afterTest(state: SolveState, before: Solution | null, atRoot: boolean): void {
    if (!atRoot || state.best === before || !state.best?.test) return;
    this.incumbent = state.best;
    this.root?.onBest(state.best.cost);
  }

  /**
   * One test: rows of buckets [from, to), or with `mask` ≥ 0 of the buckets set in it, (and the
   * missing bucket m when the test sends missing rows left) go left. Tries each split of the leaf
   * budget between the children, keeping in `state` the best tree below its bound. `sim` holds
   * lower bounds on the children carried from the sweep's previous test (direction `dir`), and
   * gets what is known of these children after.
   */
  private tryTest(
    level: Level,
    test: Test,
    from: number,
    to: number,
    mask: number,
    m: number,
    state: SolveState,
    sim: SweepBounds,
    dir: number,
  ): void {
    const { start, order } = level.groups;
    const { ref } = level;
    let l1 = 0;
    let l2 = 0;
    let nL = 0;
    for (let b = 0; b < m; b++) {
      if (mask >= 0 ? ((mask >> b) & 1) === 0 : b < from || b >= to) continue;
      l1 = (l1 + level.h1[b]) >>> 0;
      l2 = (l2 + level.h2[b]) >>> 0;
      nL += start[b + 1] - start[b];
    }
    if (test.missingLeft) {
      l1 = (l1 + level.h1[m]) >>> 0;
      l2 = (l2 + level.h2[m]) >>> 0;
      nL += start[m + 1] - start[m];
    }
    if (ref.active) {
      ref.startLeft(l1, l2, nL);
      for (let b = 0; b < m; b++) if (mask >= 0 ? ((mask >> b) & 1) === 1 : b >= from && b < to) ref.addLeft(b);
      if (test.missingLeft) ref.addLeft(m);
    }
    const nR = state.count - nL;
    if (nL === 0 || nR === 0) {
      sim.left[dir] = this.settings.penalty;
      sim.right[dir] = this.settings.penalty;
      return;
    }
    const r1 = (state.h1 - l1) >>> 0;
    const r2 = (state.h2 - l2) >>> 0;
    const d = state.d - 1;
    const cap = 2 ** d;
    let copied = false;
    // Carried bounds hold for the one budget split of a sweep (the caller resets them otherwise).
    const floorL = sim.left[dir];
    const floorR = sim.right[dir];
    for (let kL = Math.max(1, state.k - cap); kL <= Math.min(state.k - 1, cap); kL++) {
      const kR = state.k - kL;
      let lbL = this.cache.lowerBound(l1, l2, nL, d, Math.min(kL, cap), floorL);
      let lbR = this.cache.lowerBound(r1, r2, nR, d, Math.min(kR, cap), floorR);
      if (ref.active) {
        lbL = Math.max(lbL, this.referenceBound(ref, true, d, Math.min(kL, cap)));
        lbR = Math.max(lbR, this.referenceBound(ref, false, d, Math.min(kR, cap)));
      }
      try {
        if (lbL + lbR >= state.bound) continue;
        if (!copied) {
          copySides(order, start, from, to, mask, m, test.missingLeft, level.left, level.right);
          copied = true;
        }
        const sl = this.solve(level.left, nL, l1, l2, d, kL, state.bound - lbR, lbL);
        if (!sl) continue;
        const sr = this.solve(level.right, nR, r1, r2, d, kR, state.bound - sl.cost, lbR);
        if (!sr || !(sl.cost + sr.cost < state.bound)) continue;
        state.best = splitSolution(test, sl, sr);
        state.bound = state.best.cost;
      } finally {
        // What the cache now knows (a solve, or a bound proven by a search that found nothing).
        lbL = this.cache.lowerBound(l1, l2, nL, d, Math.min(kL, cap), lbL);
        lbR = this.cache.lowerBound(r1, r2, nR, d, Math.min(kR, cap), lbR);
        sim.left[dir] = lbL;
        sim.right[dir] = lbR;
        state.lb = Math.min(state.lb, lbL + lbR);
      }
    }
  }

  /**
   * A lower bound on a child of the node (left or right side of the test `ref.side` last summed)
   * from its reference's same side: lb(Q_t) − w(Q_t \ P_t), 0 when the cache knows nothing of Q_t.
   */
  private referenceBound(ref: Reference, left: boolean, d: number, budget: number): number {
    const h1 = left ? ref.l1 : (ref.h1 - ref.l1) >>> 0;
    const h2 = left ? ref.l2 : (ref.h2 - ref.l2) >>> 0;
    const n = left ? ref.lN : ref.count - ref.lN;
    if (n <= 0) return 0;
    const lb = this.cache.peekBound(h1, h2, n, d, budget);
    if (lb <= 0) return 0;
    this.referenceBounds++;
    return lessBy(lb, left ? ref.lW : ref.droppedWeight - ref.lW, this.exact);
  }

  private level(d: number): Level {
    this.levels[d] ??= newLevel(this.data);
    return this.levels[d];
  }

  /** Count a sub-problem; stop at the deadline or the memory limit; report progress about twice a second. */
  private tick(): void {
    this.subproblems++;
    if ((this.subproblems & 15) !== 0) return;
    const now = Date.now();
    this.limits.check(now);
    const { onProgress } = this.settings;
    if (onProgress && now - this.lastReport >= 500) {
      this.lastReport = now;
      onProgress(this.progress());
    }
  }
}
