import { TreeStore } from '../model/store.js';
import { type Branches, expandNode, type GrowEntry, type NodeExpansion } from './expand.js';
import type { GrowMeter } from './progress.js';
import type { NodeSplit, StopOptions } from './split-policy.js';

/**
 * The depth-first loop every grower shares (exact: NodeGrower, histogram: HistGrower, C-MBSV):
 * pop a node and expand it (`expandNode`: a leaf, or a split that pushes its children). Parallel
 * growth defers some nodes and grows them later as separate subtrees.
 */
export abstract class DepthFirstGrower<E extends GrowEntry, S extends NodeSplit = NodeSplit>
  implements NodeExpansion<E, S>
{
  abstract readonly k: number;
  abstract readonly opts: StopOptions;
  /** Told of each node grown, when a fit's progress is listened to. */
  meter?: GrowMeter;

  abstract findSplit(entry: E): S | null;
  abstract assign(entry: E, chosen: S, into: Branches): void;
  abstract partition(entry: E, chosen: S, branches: Branches, leaf: readonly boolean[]): number;
  abstract child(parent: E, b: number, base: GrowEntry): E;
  keepLeaf(_entry: E): void {}
  /** Nothing the grower reuses: the split is kept as it is (growers that reuse candidates copy them). */
  hold(_entry: E, chosen: S): S {
    return chosen;
  }
  resume(_entry: E, _chosen: S): void {}

  /**
   * Grow every entry of `stack` (and the children they make) into `nodes`, where `nodes[entry.id]`
   * already exists. `defer(entry)` may keep a node for later (parallel growth): it is then left as
   * it is in `nodes`, and the caller grows it.
   */
  grow(nodes: TreeStore, stack: E[], defer?: (entry: E) => boolean): void {
    while (stack.length > 0) {
      const entry = stack.pop()!;
      if (defer?.(entry)) continue;
      expandNode(entry, this, nodes, stack);
    }
  }

  /** Grow the subtree of `entry` alone: its nodes, the subtree's root first (children ids local). */
  growSubtree(entry: E): TreeStore {
    const steps = this.subtreeSteps(entry);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * `growSubtree` a node at a time: each step expands one node, the last returns the subtree. A
   * caller that may stop halfway (the page's grower, when its helper's copy of the subtree comes
   * first) leaves the subtree's rows of the layout in no useful order.
   */
  *subtreeSteps(entry: E): Generator<void, TreeStore> {
    const nodes = TreeStore.root(this.k, entry.depth);
    const stack = [{ ...entry, id: 0 }];
    while (stack.length > 0) {
      expandNode(stack.pop()!, this, nodes, stack);
      if (stack.length > 0) yield;
    }
    return nodes;
  }
}
