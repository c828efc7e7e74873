import { grown } from '../core/arrays.js';
import type { AlignedColumn } from '../model/align.js';
import { NO_BRANCH } from '../model/route.js';
import { PathBuffer } from './shap-path.js';

/**
 * Exact path-dependent TreeSHAP (Lundberg et al. 2020, Algorithm 2) for one tree, generalised to
 * grove's splits, with an explicit stack instead of recursion over depth.
 *
 * The value function v(S) of a row x is the tree walked from the root where, at a split on
 * feature d, a feature in S sends the walk where the model's routing sends x (route.ts's rule,
 * then the node's `missingBranch`), and a feature outside S spreads it over every branch in
 * proportion to the training weight that reached each child (`share`). So v(all) is the model's
 * probability and v(∅) is the expected value. Any number of branches works: each child has a
 * "zero fraction" (its share) and a "one fraction" (1 for the branch x takes, else 0).
 *
 * A row that C4.5's fractional policy spreads over every branch (missing value, no
 * `missingBranch`) takes each branch with its share whether or not d is in S: that node's factor
 * does not depend on S, so it scales the walk instead of entering the path, and d gets nothing
 * from it (the model ignores the missing value there). A branch no training weight reached (a
 * C-MBSV unclassified region, a category unseen at the node) has share 0: it counts only when d
 * is in S and x goes there, with the leaf's own value (all zeros for an unclassified region,
 * the parent's distribution for an unseen category, exactly as `predictProba` gives them).
 */

/** What TreeSHAP reads of a tree; `CompiledTree` is one. Children of a node have consecutive ids. */
export interface ShapTree {
  readonly classes: number;
  readonly feature: Int32Array;
  readonly firstChild: Int32Array;
  readonly branches: Int32Array;
  /** Share of its parent's training weight that reached each node. */
  readonly share: Float64Array;
  /** Leaf values: proba[node * classes + c]. */
  readonly proba: Float64Array;
  isLeaf(node: number): boolean;
  /** Branch row i takes at split `node`, or NO_BRANCH when it is spread over every branch. */
  branchAt(columns: AlignedColumn[], i: number, node: number): number;
  /** Threshold of a two-branch numeric split (above it: branch 1; at or below: 0), else NaN. */
  binaryCut(node: number): number;
}

/** Frame edge marker: the root (extends the path with the empty feature). */
const ROOT = -1;
/** Frame edge marker: a spread (fractional) edge that scales the walk and leaves the path as it is. */
const SPREAD = -2;

/** Growable typed stack of the frames still to visit (node, depth, unique depth, fractions, feature, scale). */
class FrameStack {
  node = new Int32Array(64);
  depth = new Int32Array(64);
  unique = new Int32Array(64);
  feature = new Int32Array(64);
  zero = new Float64Array(64);
  one = new Float64Array(64);
  scale = new Float64Array(64);
  top = 0;

  push(node: number, depth: number, unique: number, feature: number, zero: number, one: number, scale: number): void {
    if (this.top === this.node.length) this.grow();
    const t = this.top++;
    this.node[t] = node;
    this.depth[t] = depth;
    this.unique[t] = unique;
    this.feature[t] = feature;
    this.zero[t] = zero;
    this.one[t] = one;
    this.scale[t] = scale;
  }

  private grow(): void {
    const n = this.node.length * 2;
    this.node = grown(this.node, n);
    this.depth = grown(this.depth, n);
    this.unique = grown(this.unique, n);
    this.feature = grown(this.feature, n);
    this.zero = grown(this.zero, n);
    this.one = grown(this.one, n);
    this.scale = grown(this.scale, n);
  }
}

/**
 * TreeSHAP for rows of one tree at a time; reusable scratch (one per thread). `nFeatures` bounds
 * the length of a path of distinct features.
 */
export class TreeShapExplainer {
  private readonly path: PathBuffer;
  private readonly frames = new FrameStack();

  constructor(readonly nFeatures: number) {
    this.path = new PathBuffer(nFeatures);
  }

  /**
   * Add `weight` × row i's contributions for `tree`, rooted at `root`, into
   * `out[offset + f * classes + c]` (feature-major, classes innermost).
   */
  explainRow(
    tree: ShapTree,
    columns: AlignedColumn[],
    i: number,
    out: Float64Array,
    offset: number,
    weight = 1,
    root = 0,
  ): void {
    const { path, frames } = this;
    const k = tree.classes;
    frames.top = 0;
    frames.push(root, 0, 0, ROOT, 1, 1, weight);
    while (frames.top > 0) {
      const t = --frames.top;
      const v = frames.node[t];
      const depth = frames.depth[t];
      let unique = frames.unique[t];
      const edge = frames.feature[t];
      const scale = frames.scale[t];
      const seg = path.segment(depth);
      if (edge === SPREAD) path.copy(depth, unique + 1);
      else if (depth > 0) path.extendFrom(path.segment(depth - 1), seg, unique, frames.zero[t], frames.one[t], edge);
      else path.extend(seg, unique, frames.zero[t], frames.one[t], edge);
      if (tree.isLeaf(v)) {
        path.addLeaf(seg, unique, scale, tree.proba, v * k, k, out, offset);
        continue;
      }
      const first = tree.firstChild[v];
      const b = tree.branchAt(columns, i, v);
      if (b === NO_BRANCH) {
        for (let c = tree.branches[v] - 1; c >= 0; c--)
          if (tree.share[first + c] > 0)
            frames.push(first + c, depth + 1, unique, SPREAD, 0, 0, scale * tree.share[first + c]);
        continue;
      }
      const d = tree.feature[v];
      let inZero = 1;
      let inOne = 1;
      const p = path.find(seg, unique, d);
      if (p > 0) {
        inZero = path.zero[seg + p];
        inOne = path.one[seg + p];
        path.unwind(seg, unique, p);
        unique--;
      }
      for (let c = tree.branches[v] - 1; c >= 0; c--) {
        const zero = tree.share[first + c] * inZero;
        const one = c === b ? inOne : 0;
        if (zero === 0 && one === 0) continue;
        if (!tree.isLeaf(first + c)) {
          frames.push(first + c, depth + 1, unique + 1, d, zero, one, scale);
          continue;
        }
        // A leaf child is finished at once: no frame to push and pop.
        const leafSeg = path.segment(depth + 1);
        path.extendFrom(seg, leafSeg, unique + 1, zero, one, d);
        path.addLeaf(leafSeg, unique + 1, scale, tree.proba, (first + c) * k, k, out, offset);
      }
    }
  }
}

/**
 * The expected value per class of `tree` under its training weights: every leaf's value times the
 * product of the shares on its way (v(∅) of every row), added × `weight` into `out`.
 */
export function expectedValue(tree: ShapTree, out: Float64Array, weight = 1, root = 0): void {
  const k = tree.classes;
  const nodes: number[] = [root];
  const weights: number[] = [weight];
  while (nodes.length > 0) {
    const v = nodes.pop()!;
    const w = weights.pop()!;
    if (tree.isLeaf(v)) {
      for (let c = 0; c < k; c++) out[c] += w * tree.proba[v * k + c];
      continue;
    }
    const first = tree.firstChild[v];
    for (let c = tree.branches[v] - 1; c >= 0; c--) {
      if (tree.share[first + c] === 0) continue;
      nodes.push(first + c);
      weights.push(w * tree.share[first + c]);
    }
  }
}
