/**
 * A forest's tree as it travels from a worker to the main thread: the grower's `TreeStore` arrays,
 * transferred (not copied), or the node objects of a tree that has them (C-MBSV, some pruning).
 * The header the trees share (target, features, classes) stays on the main thread.
 */
import { DecisionTree, TRUSTED_MODEL } from '../../model/decision-tree.js';
import type { TreeNode } from '../../model/node.js';
import type { ModelFile } from '../../model/schema.js';
import { type StoreData, TreeStore } from '../../model/store.js';

/** A grown tree's own parts: its options, pruning and optimality records, and its nodes in either form. */
export type TreeMessage = Pick<ModelFile, 'options' | 'pruning' | 'optimality'> & {
  store?: StoreData;
  nodes?: TreeNode[];
};

/** The tree as a message, and the buffers to transfer with it. */
export function treeMessage(tree: DecisionTree): { message: TreeMessage; transfer: ArrayBuffer[] } {
  const own = {
    options: tree.options,
    ...(tree.pruning ? { pruning: tree.pruning } : {}),
    ...(tree.optimality ? { optimality: tree.optimality } : {}),
  };
  const grown = tree.grown();
  if (Array.isArray(grown)) return { message: { ...own, nodes: grown }, transfer: [] };
  const store = grown.data();
  const { counts, splits: _s, classes: _c, size: _z, ...arrays } = store;
  const transfer = [...Object.values(arrays), counts.dense, counts.start, counts.len, counts.cls, counts.w].map(
    (a) => a.buffer as ArrayBuffer,
  );
  return { message: { ...own, store }, transfer };
}

/** What every tree of a forest shares: target, features, classes. */
export type TreeHeader = Pick<ModelFile, 'target' | 'features' | 'classes'>;

/** The tree a message carries, over the forest's shared header (its store as compact as it came). */
export function treeFromMessage(message: TreeMessage, header: TreeHeader): DecisionTree {
  const { store, nodes, ...own } = message;
  return new DecisionTree(
    { ...header, ...own, nodes: store ? TreeStore.fromData(store).compact() : nodes! },
    TRUSTED_MODEL,
  );
}
