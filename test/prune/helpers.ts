/** Hand-built trees for the pruning tests. */
import { DecisionTree } from '../../src/model/decision-tree.js';
import type { TreeNode } from '../../src/model/node.js';
import type { Split } from '../../src/model/split.js';
import { resolveOptions } from '../../src/options/options.js';

/** A tree spec: a leaf is its class counts; an internal node is `{ split?, kids }` (counts = Σ kids). */
export type Spec = number[] | { split?: Split; kids: Spec[] };

/** Counts of a spec (a node's counts are the sum of its children's). */
export function specCounts(spec: Spec): number[] {
  if (Array.isArray(spec)) return spec;
  const parts = spec.kids.map(specCounts);
  return parts[0].map((_, c) => parts.reduce((s, p) => s + p[c], 0));
}

/**
 * Flatten a spec with the grower's numbering (children consecutive, first child's subtree first).
 * Default splits: `x ≤ 0.5` (feature 0, numeric) for two kids, multiway on feature 1 (categories
 * 0..k−1) for more.
 */
export function build(spec: Spec): TreeNode[] {
  const nodes: TreeNode[] = [];
  const stack: Array<[Spec, number, number]> = [[spec, 0, 0]];
  nodes.push({ counts: [], n: 0, depth: 0 });
  while (stack.length > 0) {
    const [s, id, depth] = stack.pop()!;
    const counts = specCounts(s);
    const n = Math.round(counts.reduce((a, b) => a + b, 0));
    if (Array.isArray(s)) {
      nodes[id] = { counts: counts.slice(), n, depth };
      continue;
    }
    const split: Split =
      s.split ??
      (s.kids.length === 2
        ? { kind: 'numeric', feature: 0, thresholds: [0.5] }
        : { kind: 'multiway', feature: 1, values: s.kids.map((_, i) => i) });
    const first = nodes.length;
    nodes[id] = { counts: counts.slice(), n, depth, split, children: s.kids.map((_, b) => first + b) };
    for (let b = 0; b < s.kids.length; b++) nodes.push({ counts: [], n: 0, depth: depth + 1 });
    for (let b = s.kids.length - 1; b >= 0; b--) stack.push([s.kids[b], first + b, depth + 1]);
  }
  return nodes;
}

/** Leaves' counts, left to right. */
export function leafCounts(nodes: TreeNode[], id = 0): number[][] {
  const node = nodes[id];
  if (!node.children) return [node.counts];
  return node.children.flatMap((c) => leafCounts(nodes, c));
}

/** A bracketed shape, e.g. `[[L L] L]`, to compare tree structures at a glance. */
export function shape(nodes: TreeNode[], id = 0): string {
  const node = nodes[id];
  if (!node.children) return 'L';
  return `[${node.children.map((c) => shape(nodes, c)).join(' ')}]`;
}

const saved = () => {
  const o = resolveOptions({});
  return {
    algorithm: o.algorithm,
    criterion: o.criterion as string,
    categoricalSplit: o.categoricalSplit,
    maxDepth: null,
    minSamplesSplit: o.minSamplesSplit,
    minSamplesLeaf: o.minSamplesLeaf,
    purity: o.purity,
    minGain: o.minGain,
    maxSubsetSize: null,
    missing: o.missing,
    thresholdCriterion: null,
    mdlCorrection: o.mdlCorrection,
    averageGainRule: o.averageGainRule,
    chiSquareAlpha: o.chiSquareAlpha,
    classWeight: null,
    prune: o.prune,
    confidence: o.confidence,
    subtreeRaising: o.subtreeRaising,
    pruneFraction: o.pruneFraction,
    ccpAlpha: null,
    ccpFolds: o.ccpFolds,
    ccpRule: o.ccpRule,
    seed: o.seed,
  };
};

/** Check a hand-built tree is a valid grove model (two classes; features x numeric, c categorical with 8 values). */
export function asModel(nodes: TreeNode[], classes = ['a', 'b']): DecisionTree {
  const model = {
    format: 'grove-tree',
    version: 1,
    target: 'y',
    features: [
      { name: 'x', kind: 'numeric' },
      { name: 'c', kind: 'categorical', categories: ['0', '1', '2', '3', '4', '5', '6', '7'] },
    ],
    classes,
    options: saved(),
    nodes,
  };
  return DecisionTree.fromJSON(JSON.parse(JSON.stringify(model)));
}
