import type { AlignedColumn, CompiledTree } from './compiled.js';

/**
 * Which nodes rows reach: the leaf per row (`apply`) and every node visited per row
 * (`decisionPath`). Both walk with the compiled tree's `route` (route.ts's branch rule, the
 * node's `missingBranch`), so a row goes exactly where `predict` sends it. A row that C4.5's
 * fractional policy spreads over every branch of a node reaches several leaves, each with a
 * weight (the product of the branch shares on its way, as `predictProba` mixes them).
 */

/** Node ids, one row's after another's: row i's are `nodes[offsets[i] .. offsets[i + 1])`. */
export interface DecisionPaths {
  /** nRows + 1 entries; `offsets[0]` = 0. */
  offsets: Int32Array;
  nodes: Int32Array;
}

/** Scratch for walking one row over every branch of fractional nodes (no recursion). */
class SpreadWalk {
  private readonly nodeStack: number[] = [];
  private readonly weightStack: number[] = [];

  constructor(private readonly tree: CompiledTree) {}

  /**
   * Call `visit(leaf, weight)` for every leaf row `i` reaches from the fractional stop `stop`
   * (a `route` result < 0), branches in order.
   */
  leaves(columns: AlignedColumn[], i: number, stop: number, visit: (leaf: number, weight: number) => void): void {
    const { tree, nodeStack: nodes, weightStack: weights } = this;
    let top = 0;
    nodes[top] = -1 - stop;
    weights[top++] = 1;
    while (top > 0) {
      const w = weights[--top];
      const node = nodes[top];
      const r = tree.route(columns, i, node);
      if (r >= 0) {
        visit(r, w);
        continue;
      }
      const spread = -1 - r;
      const first = tree.firstChild[spread];
      for (let b = tree.branches[spread] - 1; b >= 0; b--) {
        nodes[top] = first + b;
        weights[top++] = w * tree.share[first + b];
      }
    }
  }
}

/**
 * The leaf a row ends in. A row spread over several leaves (fractional policy) gets the one with
 * the largest weight, the lowest id on a tie.
 */
export class LeafFinder {
  private readonly walk: SpreadWalk;
  private best = -1;
  private bestWeight = -1;
  private readonly keep = (leaf: number, w: number) => {
    if (w > this.bestWeight || (w === this.bestWeight && leaf < this.best)) {
      this.best = leaf;
      this.bestWeight = w;
    }
  };

  constructor(private readonly tree: CompiledTree) {
    this.walk = new SpreadWalk(tree);
  }

  /** Row `i`'s leaf, its walk resumed at node `from` (0: from the root; any node on its path). */
  leafFrom(columns: AlignedColumn[], i: number, from: number): number {
    const r = this.tree.finishRoute(columns, i, from);
    if (r >= 0) return r;
    this.best = -1;
    this.bestWeight = -1;
    this.walk.leaves(columns, i, r, this.keep);
    return this.best;
  }
}

/** The leaf each row ends in (`LeafFinder`). */
export function applyLeaves(tree: CompiledTree, columns: AlignedColumn[], nRows: number): Int32Array {
  const out = new Int32Array(nRows);
  const finder = new LeafFinder(tree);
  for (let i = 0; i < nRows; i++) out[i] = finder.leafFrom(columns, i, 0);
  return out;
}

/** Parent of every node (-1 for the root), from the compiled tree's contiguous children. */
function parents(tree: CompiledTree): Int32Array {
  const m = tree.kind.length;
  const parent = new Int32Array(m).fill(-1);
  for (let v = 0; v < m; v++) {
    const first = tree.firstChild[v];
    for (let b = 0; b < tree.branches[v]; b++) parent[first + b] = v;
  }
  return parent;
}

/**
 * Every node each row visits, in increasing id order (a parent's id is below its children's, so
 * a single path reads root to leaf). A row spread over several branches visits all of them: the
 * union of the paths to every leaf it reaches.
 */
export function decisionPaths(tree: CompiledTree, columns: AlignedColumn[], nRows: number): DecisionPaths {
  const parent = parents(tree);
  const offsets = new Int32Array(nRows + 1);
  let nodes = new Int32Array(Math.max(16, nRows * 4));
  let size = 0;
  const push = (v: number) => {
    if (size === nodes.length) {
      const grown = new Int32Array(nodes.length * 2);
      grown.set(nodes);
      nodes = grown;
    }
    nodes[size++] = v;
  };
  // stamp[v] = row + 1 once row's path holds v: the union of several leaves' paths without repeats.
  const stamp = new Int32Array(parent.length);
  const walk = new SpreadWalk(tree);
  let row = 0;
  const addPath = (leaf: number) => {
    for (let v = leaf; v >= 0 && stamp[v] !== row + 1; v = parent[v]) {
      stamp[v] = row + 1;
      push(v);
    }
  };
  for (row = 0; row < nRows; row++) {
    const start = size;
    const r = tree.route(columns, row, 0);
    if (r >= 0) addPath(r);
    else walk.leaves(columns, row, r, addPath);
    nodes.subarray(start, size).sort();
    offsets[row + 1] = size;
  }
  return { offsets, nodes: nodes.slice(0, size) };
}
