import type { DecisionTree } from '../model/decision-tree.js';
import { predictedClass } from '../model/node.js';
import { branchCondition, formatNumber, unclassifiedLabel } from './conditions.js';

/** One rule per leaf: the conjunction of the decisions on its path (Zaki & Meira, "Decision Trees to Rules"). */
export interface Rule {
  conditions: string[];
  /** The leaf's class; for a C-MBSV unclassified region (see `unclassified`), the first class, which is not predicted. */
  class: string | number;
  /** C-MBSV: the leaf is an unclassified region (no training rows; `predict` gives null or k-NN). */
  unclassified?: true;
  /** C-MBSV: rows stored for k-NN in that region. */
  knnRows?: number;
  /** Training weight reaching the leaf, and the share of it in the predicted class. */
  support: number;
  confidence: number;
}

/** One rule per leaf, leaves in depth-first order (branches in order). */
export function treeToRules(tree: DecisionTree): Rule[] {
  const rules: Rule[] = [];
  // path[0 .. depth) holds the conditions leading to the node being visited.
  const path: string[] = [];
  const pending: Array<[id: number, depth: number, condition: string, parent: number]> = [[0, 0, '', -1]];
  while (pending.length > 0) {
    const [id, depth, condition, parent] = pending.pop()!;
    if (depth > 0) path[depth - 1] = condition;
    path.length = depth;
    const node = tree.nodes[id];
    if (!node.split) {
      const total = node.counts.reduce((a, b) => a + b, 0);
      const c = predictedClass(node, parent >= 0 ? tree.nodes[parent] : undefined);
      rules.push({
        conditions: path.slice(),
        class: tree.classes[c],
        support: total,
        confidence: total > 0 ? node.counts[c] / total : 0,
        ...(node.unclassified ? { unclassified: true as const } : {}),
        ...(node.knn ? { knnRows: node.knn.rows.length } : {}),
      });
      continue;
    }
    const kids = node.children!;
    for (let b = kids.length - 1; b >= 0; b--)
      pending.push([kids[b], depth + 1, branchCondition(node.split, b, tree.features), id]);
  }
  return rules;
}

/** `R1: IF a <= 1 AND b = x THEN class = yes  [support 4, confidence 1.00]`, one line per leaf. */
export function rulesToText(tree: DecisionTree): string {
  return `${treeToRules(tree)
    .map((r, i) => {
      const cond = r.conditions.length ? r.conditions.join(' AND ') : 'TRUE';
      if (r.unclassified) return `R${i + 1}: IF ${cond} THEN ${unclassifiedLabel(r.knnRows)}  [support 0]`;
      return `R${i + 1}: IF ${cond} THEN ${tree.target} = ${String(r.class)}  [support ${formatNumber(r.support)}, confidence ${r.confidence.toFixed(2)}]`;
    })
    .join('\n')}\n`;
}
