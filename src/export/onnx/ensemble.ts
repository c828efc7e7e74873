import type { Split } from '../../model/split.js';
import type { PortableTree } from '../portable.js';
import { float32Threshold } from './float32.js';

/**
 * The attributes of one `ai.onnx.ml` TreeEnsembleClassifier tree (tree id 0) for a grove tree,
 * whose input column j is feature j (numeric value, or category code / ordered level rank from the
 * graph's LabelEncoders, NaN when missing or unknown). ONNX trees are binary, so each grove split
 * becomes a chain of binary nodes:
 * - numeric, thresholds t0 < … < tk−1: node j tests `x ≤ t32_j` (BRANCH_LEQ)
 *   (float32Threshold: the nearest float32 when thresholds are training values, J48's rules);
 *   true → branch j, false → node j+1 (the last: branch k); a NaN goes false except at node m,
 *   the missing branch, which tracks it true (nodes_missing_value_tracks_true);
 * - categorical: the codes of every branch except the missing branch m, tested in turn, the last
 *   test's failure → branch m; so NaN, unknown categories and categories unseen at the node take
 *   m, as in grove. A subset split tests `code == v` (BRANCH_EQ, true → the other side: a
 *   set-membership chain); a multiway one `code != v` (BRANCH_NEQ, false → v's branch, true → the
 *   next test), because ONNX Runtime merges consecutive BRANCH_EQ nodes on one feature into one
 *   set that takes the first node's true branch. Branch m is reached by one edge only.
 * A leaf carries the node's class distribution as class weights (classes 0..K−1), and a C-MBSV
 * unclassified leaf weight 1 for the extra class K.
 */
export interface EnsembleAttributes {
  nodes_treeids: number[];
  nodes_nodeids: number[];
  nodes_featureids: number[];
  nodes_modes: string[];
  nodes_values: number[];
  nodes_truenodeids: number[];
  nodes_falsenodeids: number[];
  nodes_missing_value_tracks_true: number[];
  class_treeids: number[];
  class_nodeids: number[];
  class_ids: number[];
  class_weights: number[];
  /** Number of score columns: the classes, plus one for `unclassified` when the model has such leaves. */
  scoreColumns: number;
}

/** How many ONNX nodes grove node i becomes. */
function chainLength(p: PortableTree, i: number): number {
  const split = p.tree.nodes[i].split;
  if (!split) return 1;
  if (split.kind === 'numeric') return split.thresholds.length;
  return chainCodes(split, p.missingBranch[i]).codes.length;
}

/** A categorical split's chain: the codes tested, in order, and the branch each leads to (not m). */
function chainCodes(split: Exclude<Split, { kind: 'numeric' }>, m: number): { codes: number[]; branches: number[] } {
  if (split.kind === 'subset') {
    const codes = m === 1 ? split.left : split.right;
    return { codes, branches: codes.map(() => 1 - m) };
  }
  const codes: number[] = [];
  const branches: number[] = [];
  split.values.forEach((v, b) => {
    if (b !== m) {
      codes.push(v);
      branches.push(b);
    }
  });
  return { codes, branches };
}

/** A leaf's weight for score column c: the leaf's probability of class c, 1 in the unclassified column. */
export type LeafWeight = (node: number, c: number) => number;

function treeLeafWeight(p: PortableTree): LeafWeight {
  const k = p.tree.classes.length;
  return (i, c) => (c < k ? p.proba[i * k + c] : p.tree.nodes[i].unclassified ? 1 : 0);
}

/** An empty attribute set with `scoreColumns` score columns. */
export function emptyAttributes(scoreColumns: number): EnsembleAttributes {
  return {
    nodes_treeids: [],
    nodes_nodeids: [],
    nodes_featureids: [],
    nodes_modes: [],
    nodes_values: [],
    nodes_truenodeids: [],
    nodes_falsenodeids: [],
    nodes_missing_value_tracks_true: [],
    class_treeids: [],
    class_nodeids: [],
    class_ids: [],
    class_weights: [],
    scoreColumns,
  };
}

/** The ONNX id (within its tree) of the first node of each grove node's chain, in grove order (root = 0). */
function chainEntries(p: PortableTree): Int32Array {
  const nodes = p.tree.nodes;
  const entry = new Int32Array(nodes.length);
  let total = 0;
  const length = new Int32Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    entry[i] = total;
    length[i] = chainLength(p, i);
    total += length[i];
  }
  // A one-branch categorical split has no test: it stands for its only child (ids grow downwards).
  for (let i = nodes.length - 1; i > 0; i--) if (length[i] === 0) entry[i] = entry[nodes[i].children![0]];
  return entry;
}

/**
 * Build the tree ensemble's attributes (see `EnsembleAttributes`), or append tree `treeId`'s to
 * `into` (a forest: node ids are numbered within each tree), its leaves weighted by `weight`.
 */
export function ensembleAttributes(
  p: PortableTree,
  {
    treeId = 0,
    weight = treeLeafWeight(p),
    into,
  }: { treeId?: number; weight?: LeafWeight; into?: EnsembleAttributes } = {},
): EnsembleAttributes {
  const nodes = p.tree.nodes;
  const k = p.tree.classes.length;
  const a = into ?? emptyAttributes(p.hasUnclassified ? k + 1 : k);
  const scoreColumns = a.scoreColumns;
  const base = a.nodes_nodeids.length;
  // J48's rules move thresholds to training values; C-MBSV's come from its SVMs and stay where they are.
  const atTrainingValues = p.tree.options.j48Rules === true && p.tree.options.cmbsv === undefined;
  const entry = chainEntries(p);
  const push = (mode: string, feature: number, value: number, t: number, f: number, tracksTrue: number): void => {
    a.nodes_treeids.push(treeId);
    a.nodes_nodeids.push(a.nodes_nodeids.length - base);
    a.nodes_featureids.push(feature);
    a.nodes_modes.push(mode);
    a.nodes_values.push(value);
    a.nodes_truenodeids.push(t);
    a.nodes_falsenodeids.push(f);
    a.nodes_missing_value_tracks_true.push(tracksTrue);
  };
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    const split = node.split;
    if (!split || !node.children) {
      const id = a.nodes_nodeids.length - base;
      push('LEAF', 0, 0, 0, 0, 0);
      for (let c = 0; c < scoreColumns; c++) {
        a.class_treeids.push(treeId);
        a.class_nodeids.push(id);
        a.class_ids.push(c);
        a.class_weights.push(weight(i, c));
      }
      continue;
    }
    const child = (b: number): number => entry[node.children![b]];
    const m = p.missingBranch[i];
    const f = split.feature;
    const start = a.nodes_nodeids.length - base;
    if (split.kind === 'numeric') {
      const t = split.thresholds;
      for (let j = 0; j < t.length; j++) {
        const next = j + 1 < t.length ? start + j + 1 : child(t.length);
        push('BRANCH_LEQ', f, float32Threshold(t[j], atTrainingValues), child(j), next, j === m ? 1 : 0);
      }
    } else {
      const { codes, branches } = chainCodes(split, m);
      // Subset: every test leads to the same branch, a set-membership chain of BRANCH_EQ. Multiway:
      // BRANCH_NEQ (false → its branch, true → the next test), since ONNX Runtime merges
      // consecutive BRANCH_EQ nodes on one feature into one set with the first node's true branch.
      const mode = split.kind === 'subset' ? 'BRANCH_EQ' : 'BRANCH_NEQ';
      for (let j = 0; j < codes.length; j++) {
        const next = j + 1 < codes.length ? start + j + 1 : child(m);
        if (mode === 'BRANCH_EQ') push(mode, f, codes[j], child(branches[j]), next, 0);
        else push(mode, f, codes[j], next, child(branches[j]), 0);
      }
    }
  }
  return a;
}
