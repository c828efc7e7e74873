import type { TreeStore } from '../model/store.js';
import { childSeed, rootSeed } from './feature-draw.js';
import type { BranchSizes } from './partition.js';
import type { GrowMeter } from './progress.js';
import { type NodeSplit, type StopOptions, stopsHere } from './split-policy.js';

/**
 * A node waiting to be grown, as every grower describes it: positions [start, end) of the
 * grower's row (or entry) buffers hold its rows, `totals` their class weights. Growers add their
 * own state (sorted slices, a class histogram, ...).
 */
export interface GrowEntry {
  id: number;
  start: number;
  end: number;
  depth: number;
  /** Weighted class totals of the node's rows (computed by whoever made the entry). */
  totals: Float64Array;
  /** The stopping rule already holds (decided when the entry was made): the node stays a leaf. */
  leaf: boolean;
  /** Categorical features already split multiway on the path: not reused below (ID3/C4.5). */
  excluded: readonly number[];
  /** Seed of the node's feature draws (`maxFeatures`; see feature-draw.ts), from its path. */
  seed: number;
}

/** A node's rows as its split divides them (made by `expandNode`, filled by the grower's `assign`). */
export interface Branches extends BranchSizes {
  /** Class weights per branch: the children's `totals` (fresh per node, the children keep them). */
  totals: Float64Array[];
  /** Rows sent down every branch (C4.5's fractional policy), counted in every branch's size. */
  everyBranch: number;
}

/**
 * How a grower finds a node's split: scan the node's features into candidates (one per feature,
 * e.g. `FeatureEvaluator`) and pick one with `chooseSplit`, or its own rule (C-MBSV). Null: the
 * node stays a leaf.
 */
export interface SplitSearch<E extends GrowEntry, S extends NodeSplit> {
  findSplit(entry: E): S | null;
}

/**
 * How a grower divides a node's rows among the branches of its split, in two steps:
 * - `assign`: each row's branch (the definition is src/model/route.ts; missing values follow
 *   `chosen.missingBranch`, or every branch under the fractional policy), filling `into.sizes` and
 *   `into.totals`. It may settle `chosen.missingBranch` and `chosen.improvement` when they depend
 *   on the assignment (C-MBSV).
 * - `partition`, once the children's stop tests are known (`leaf[b]`): reorder the rows so that
 *   branch b's are contiguous, after branch b − 1's; returns where branch 0's rows start (the
 *   node's `start`, or 0 when the children live in fresh buffers). A partition may be skipped
 *   when every child is a leaf.
 */
export interface RowDivision<E extends GrowEntry, S extends NodeSplit> {
  assign(entry: E, chosen: S, into: Branches): void;
  partition(entry: E, chosen: S, branches: Branches, leaf: readonly boolean[]): number;
}

/**
 * How a grower makes its children's own state (histograms, sorted slices, fresh buffers) and
 * lets go of a node's: `child` turns the common part of child b's entry into the grower's entry
 * (by adding its fields to `base`, a fresh object: a spread copy would cost the hot kernels);
 * `keepLeaf` is told that a node it found no split for stays a leaf.
 */
export interface ChildState<E extends GrowEntry> {
  child(parent: E, b: number, base: GrowEntry): E;
  keepLeaf(entry: E): void;
  /**
   * A zeroed array of `k` class weights for a child's `totals`: a grower that knows when a node's
   * totals are spent may hand them out again (default: a new array per child).
   */
  childTotals?(): Float64Array;
}

/**
 * The pieces of node expansion that differ between growers; `expandNode` does the rest (stop
 * tests, recording the split, the children's bookkeeping), the same for all of them.
 *
 * A grower that keeps no rows in memory — an in-database grower that asks, level by level, "given
 * the frontier, return per (node, feature, bin or category, class) the weight" (one SQL
 * `GROUP BY node, feature, bin, class`) — fits here as well: `findSplit` reads the node's counts
 * as a class histogram and scans them with `FeatureEvaluator.fromHistogram`, so the scanners,
 * `chooseSplit` and its pre-pruning tests are the ones the other growers use; `assign` takes the
 * children's sizes and class totals from the same counts (the branch of each bin or category
 * from src/model/route.ts); `partition` records the split for the next level's query instead of
 * moving rows (returning 0: positions mean nothing there); `child` and `keepLeaf` keep or drop
 * the node's counts. Growing a level at a time, it calls `expandNode` for every node of the
 * frontier with the next frontier as `stack`; `TreeStore.renumberDepthFirst` then numbers the
 * tree as the depth-first growers do.
 */
export interface NodeExpansion<E extends GrowEntry, S extends NodeSplit = NodeSplit>
  extends SplitSearch<E, S>,
    RowDivision<E, S>,
    ChildState<E> {
  /** Number of classes. */
  readonly k: number;
  /** The stopping rule's options. */
  readonly opts: StopOptions;
  /**
   * Best-first growth (best-first.ts) finds a node's split when the node is made and applies it
   * later, after other nodes' searches: `hold` returns the split in a form that outlives them
   * (a copy of what the grower reuses), `resume` restores what `findSplit` left for `assign` and
   * `partition` to read. Depth-first growth calls neither.
   */
  hold(entry: E, chosen: S): S;
  resume(entry: E, chosen: S): void;
  /** Told of each node recorded (progress), when someone listens. */
  readonly meter?: GrowMeter;
}

/**
 * Expand one node: record its stats; unless it stops (`entry.leaf`) find its split, divide its
 * rows, record the split (children get the next ids), decide which children stop, partition,
 * and push the children's entries onto `stack` so that branch 0 is grown first (depth-first,
 * left to right). A split that leaves fewer than two branches with rows is no split.
 */
export function expandNode<E extends GrowEntry, S extends NodeSplit>(
  entry: E,
  how: NodeExpansion<E, S>,
  nodes: TreeStore,
  stack: E[],
): void {
  const chosen = searchNode(entry, how, nodes);
  if (!chosen) return;
  const children = childScratch as E[];
  if (children.length > 0) children.length = 0; // left by a grower that threw halfway
  applySplit(entry, chosen, how, nodes, children);
  // Popped last to first: branch 0 ends on top. Popping also leaves the scratch empty.
  while (children.length > 0) stack.push(children.pop()!);
}

/** `expandNode`'s children before they go on the stack (expansion is never re-entered). */
const childScratch: GrowEntry[] = [];

/**
 * `applySplit`'s `Branches` for splits of `count` branches, reused node after node: no grower keeps
 * them past `partition` (one that needs them later copies them), so a node allocates only its
 * children's entries and class weights.
 */
function branchScratch(count: number): { branches: Branches; leaf: boolean[] } {
  let held = scratchByCount[count];
  if (!held) {
    held = { branches: { count, sizes: new Int32Array(count), totals: [], everyBranch: 0 }, leaf: new Array(count) };
    scratchByCount[count] = held;
  }
  held.branches.sizes.fill(0);
  held.branches.everyBranch = 0;
  return held;
}

const scratchByCount: Array<{ branches: Branches; leaf: boolean[] } | undefined> = [];

/**
 * The first half of `expandNode`: record the node's stats and, unless it stops, find its split.
 * Null: the node stays a leaf (the grower told so by `keepLeaf` when it found no split).
 */
export function searchNode<E extends GrowEntry, S extends NodeSplit>(
  entry: E,
  how: NodeExpansion<E, S>,
  nodes: TreeStore,
): S | null {
  const { id, start, end, depth } = entry;
  nodes.setStats(id, entry.totals, end - start, depth);
  if (entry.leaf) {
    how.meter?.node(entry.totals, true);
    return null;
  }
  const chosen = how.findSplit(entry);
  if (!chosen) {
    how.keepLeaf(entry);
    how.meter?.node(entry.totals, true);
  }
  return chosen;
}

/**
 * The second half of `expandNode`: divide the node's rows by `chosen`, record the split, and
 * append the children's entries to `children` in branch order. False (and the node stays a leaf)
 * when fewer than two branches get rows.
 */
export function applySplit<E extends GrowEntry, S extends NodeSplit>(
  entry: E,
  chosen: S,
  how: NodeExpansion<E, S>,
  nodes: TreeStore,
  children: E[],
): boolean {
  const { id, depth } = entry;
  const count = chosen.branches;
  const { branches, leaf } = branchScratch(count);
  const { sizes, totals } = branches;
  for (let b = 0; b < count; b++) totals[b] = how.childTotals?.() ?? new Float64Array(how.k);
  how.assign(entry, chosen, branches);
  let nonEmpty = 0;
  for (let b = 0; b < count; b++) if (sizes[b] > 0) nonEmpty++;
  if (nonEmpty < 2) {
    how.keepLeaf(entry);
    how.meter?.node(entry.totals, true);
    return false;
  }
  how.meter?.node(entry.totals, false);

  const { split } = chosen;
  const firstChild = nodes.split(id, split, chosen.score, chosen.improvement, chosen.missingBranch, count);
  for (let b = 0; b < count; b++) leaf[b] = stopsHere(how.opts, sizes[b], depth + 1, totals[b]);
  let at = how.partition(entry, chosen, branches, leaf);
  const excluded = split.kind === 'multiway' ? [...entry.excluded, split.feature] : entry.excluded;
  for (let b = 0; b < count; b++) {
    const base: GrowEntry = {
      id: firstChild + b,
      start: at,
      end: at + sizes[b],
      depth: depth + 1,
      totals: totals[b],
      leaf: leaf[b],
      excluded,
      seed: childSeed(entry.seed, b),
    };
    children.push(how.child(entry, b, base));
    at += sizes[b];
  }
  return true;
}

/**
 * The root's entry over rows [0, size) with class totals `totals` (its stop test decided here);
 * `seed` is the fit's `seed` option.
 */
export function rootGrowEntry(size: number, totals: Float64Array, opts: StopOptions, depth = 0, seed = 1): GrowEntry {
  return {
    id: 0,
    start: 0,
    end: size,
    depth,
    totals,
    leaf: stopsHere(opts, size, depth, totals),
    excluded: [],
    seed: rootSeed(seed),
  };
}
