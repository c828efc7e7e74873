import { escapeControl } from '../core/errors.js';
import type { ClassLabel } from '../data/dataset.js';
import type { DecisionTree } from '../model/decision-tree.js';
import { predictedClass } from '../model/node.js';
import { type BranchDomain, branchDomain } from '../model/route.js';
import type { FeatureSchema } from '../model/schema.js';
import { checkTree } from './check-tree.js';
import { branchCondition, domainCondition, formatNumber, intersectDomains, unclassifiedLabel } from './conditions.js';

/** One rule per leaf: the conjunction of the decisions on its path (Zaki & Meira, "Decision Trees to Rules"). */
export interface Rule {
  conditions: string[];
  /**
   * The leaf's class; for a C-MBSV unclassified region (see `unclassified`), the first class, which is not
   * predicted.
   */
  class: ClassLabel;
  /** C-MBSV: the leaf is an unclassified region (no training rows; `predict` gives null or k-NN). */
  unclassified?: true;
  /** C-MBSV: rows stored for k-NN in that region. */
  knnRows?: number;
  /** Training weight reaching the leaf, and the share of it in the predicted class. */
  support: number;
  confidence: number;
}

/**
 * Trees higher than this have their rules merged: a rule of a deeper tree lists one condition per
 * feature its path tests (the tests on a feature intersected: `2 < x <= 7`, `c in {a, b}`), in
 * the order the path first tests them, instead of one condition per node of the path. A chain's
 * rules would otherwise hold a number of conditions that grows with the square of its depth.
 */
export const RULES_MERGE_HEIGHT = 100;

/**
 * One rule per leaf, leaves in depth-first order (branches in order). Each rule's conditions are
 * the tests on its path, one per node, or, in a tree higher than `RULES_MERGE_HEIGHT`, one per
 * feature tested (see there).
 */
export function treeToRules(tree: DecisionTree): Rule[] {
  checkTree(tree, 'treeToRules');
  const merge = tree.stats().height > RULES_MERGE_HEIGHT;
  const rules: Rule[] = [];
  // path[0 .. depth) holds the conditions leading to the node being visited (unmerged rules).
  const path: string[] = [];
  const merged = new PathDomains(tree.features.length);
  const pending: Array<[id: number, depth: number, parent: number, branch: number]> = [[0, 0, -1, -1]];
  while (pending.length > 0) {
    const [id, depth, parent, branch] = pending.pop()!;
    if (depth > 0) {
      const split = tree.nodes[parent].split!;
      if (merge) merged.enter(depth, split.feature, branchDomain(split, branch));
      else path[depth - 1] = branchCondition(split, branch, tree.features);
    }
    path.length = merge ? 0 : depth;
    const node = tree.nodes[id];
    if (!node.split) {
      const total = node.counts.reduce((a, b) => a + b, 0);
      const c = predictedClass(node, parent >= 0 ? tree.nodes[parent] : undefined);
      rules.push({
        conditions: merge ? merged.conditions(tree.features) : path.slice(),
        class: tree.classes[c],
        support: total,
        confidence: total > 0 ? node.counts[c] / total : 0,
        ...(node.unclassified ? { unclassified: true as const } : {}),
        ...(node.knn ? { knnRows: node.knn.rows.length } : {}),
      });
      continue;
    }
    const kids = node.children!;
    for (let b = kids.length - 1; b >= 0; b--) pending.push([kids[b], depth + 1, id, b]);
  }
  return rules;
}

/**
 * The values each feature may take on the path to the node being visited, kept as a depth-first
 * walk goes down and back up: an undo log restores a feature's domain when the walk leaves the
 * subtree that narrowed it, so each step costs one intersection, not a pass over the path.
 */
class PathDomains {
  private readonly domains: Array<BranchDomain | undefined>;
  /** Features tested on the path, in the order of their first test. */
  private readonly order: number[] = [];
  private readonly undo: Array<[depth: number, feature: number, before: BranchDomain | undefined]> = [];

  constructor(nFeatures: number) {
    this.domains = new Array<BranchDomain | undefined>(nFeatures).fill(undefined);
  }

  /** Step to a node at `depth` through a branch of a test on `feature` that lets `domain` through. */
  enter(depth: number, feature: number, domain: BranchDomain): void {
    while (this.undo.length > 0 && this.undo[this.undo.length - 1][0] >= depth) {
      const [, f, before] = this.undo.pop()!;
      this.domains[f] = before;
      if (before === undefined) this.order.pop();
    }
    const before = this.domains[feature];
    this.undo.push([depth, feature, before]);
    if (before === undefined) this.order.push(feature);
    this.domains[feature] = before === undefined ? domain : intersectDomains(before, domain);
  }

  conditions(features: FeatureSchema[]): string[] {
    return this.order.map((f) => domainCondition(features[f], this.domains[f]!));
  }
}

/**
 * `R1: IF a <= 1 AND b = x THEN class = yes  [support 4, confidence 1.00]`, one line per leaf.
 * `rules`: the tree's `treeToRules`, when the caller has them already.
 */
export function rulesToText(tree: DecisionTree, rules?: Rule[]): string {
  checkTree(tree, 'rulesToText');
  return `${(rules ?? treeToRules(tree))
    .map((r, i) => {
      const cond = r.conditions.length ? r.conditions.join(' AND ') : 'TRUE';
      if (r.unclassified) return `R${i + 1}: IF ${cond} THEN ${unclassifiedLabel(r.knnRows)}  [support 0]`;
      const stats = `[support ${formatNumber(r.support)}, confidence ${r.confidence.toFixed(2)}]`;
      return `R${i + 1}: IF ${cond} THEN ${tree.target} = ${String(r.class)}  ${stats}`;
    })
    .map(escapeControl) // names and labels are the data's: one inert line per rule
    .join('\n')}\n`;
}
