import { branchCondition, formatNumber, unclassifiedLabel } from '../export/conditions.js';
import type { DecisionTree } from '../model/decision-tree.js';
import type { Split } from '../model/split.js';

/** One node as the page draws it. */
export interface ViewNode {
  counts: number[];
  n: number;
  depth: number;
  /** The test on the branch into this node ('' at the root), in `grove show`'s words. */
  condition: string;
  children?: number[];
  split?: Split;
  /** `petal_length <= 2.45` style summary of the split, with the feature's name. */
  splitText?: string;
  /** The measure's raw value of the chosen split. */
  score?: number;
  unclassified?: string;
}

/** A grown tree as the page needs it (structured-clone friendly). */
export interface TreeView {
  classes: string[];
  features: { name: string; kind: 'numeric' | 'categorical'; categories?: string[] }[];
  nodes: ViewNode[];
  stats: { nodes: number; leaves: number; height: number };
  criterion: string;
  algorithm: string;
  /** Time of `fit` in the worker. */
  growMs: number;
  /** Time of building this view in the worker. */
  viewMs: number;
  /** Workers that grew the tree: 2 when the helper grew some of its subtrees (grow-in-two.ts). */
  workers: 1 | 2;
  pruning?: string;
}

function splitText(tree: DecisionTree, split: Split): string {
  const f = tree.features[split.feature];
  if (split.kind === 'numeric') return `${f.name} <= ${split.thresholds.map(formatNumber).join(' | ')}`;
  if (split.kind === 'multiway') return `${f.name}: one branch per value`;
  return branchCondition(split, 0, tree.features);
}

/** The page's view of `tree` (grown in `growMs`). */
export function treeView(tree: DecisionTree, growMs: number): TreeView {
  const nodes = tree.nodes;
  const cond = new Array<string>(nodes.length).fill('');
  nodes.forEach((node) =>
    node.children?.forEach((child, b) => (cond[child] = branchCondition(node.split!, b, tree.features))),
  );
  const s = tree.stats();
  const p = tree.pruning;
  return {
    classes: tree.classes.map(String),
    features: tree.features.map((f) => ({
      name: f.name,
      kind: f.kind,
      ...(f.categories ? { categories: f.categories } : {}),
    })),
    nodes: nodes.map((node, id) => ({
      counts: node.counts,
      n: node.n,
      depth: node.depth,
      condition: cond[id],
      ...(node.children ? { children: node.children, split: node.split, splitText: splitText(tree, node.split!) } : {}),
      ...(node.score !== undefined ? { score: node.score } : {}),
      ...(node.unclassified ? { unclassified: unclassifiedLabel(node) } : {}),
    })),
    stats: { nodes: s.nodes, leaves: s.leaves, height: s.height },
    criterion: tree.options.criterion,
    algorithm: tree.options.algorithm,
    growMs,
    viewMs: 0,
    workers: 1,
    ...(p ? { pruning: `${p.method}: ${p.leavesBefore} → ${p.leavesAfter} leaves` } : {}),
  };
}
