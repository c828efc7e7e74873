import { TreeStore } from '../model/store.js';

/**
 * The depth-first loop both growers share (exact: NodeGrower, histogram: HistGrower): pop a node,
 * let the grower split it (pushing its children) or make it a leaf. Parallel growth defers some
 * nodes and grows them later as separate subtrees.
 */
export abstract class DepthFirstGrower<E extends { id: number; depth: number }> {
  /** Number of classes. */
  protected abstract readonly k: number;

  /** Make `entry`'s node a leaf or split it, pushing its children onto `stack`. */
  protected abstract expand(entry: E, nodes: TreeStore, stack: E[]): void;

  /**
   * Grow every entry of `stack` (and the children they make) into `nodes`, where `nodes[entry.id]`
   * already exists. `defer(entry)` may keep a node for later (parallel growth): it is then left as
   * it is in `nodes`, and the caller grows it.
   */
  grow(nodes: TreeStore, stack: E[], defer?: (entry: E) => boolean): void {
    while (stack.length > 0) {
      const entry = stack.pop()!;
      if (defer?.(entry)) continue;
      this.expand(entry, nodes, stack);
    }
  }

  /** Grow the subtree of `entry` alone: its nodes, the subtree's root first (children ids local). */
  growSubtree(entry: E): TreeStore {
    const nodes = TreeStore.root(this.k, entry.depth);
    this.grow(nodes, [{ ...entry, id: 0 }]);
    return nodes;
  }
}
