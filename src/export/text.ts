import type { DecisionTree } from '../model/decision-tree.js';
import { predictedClass } from '../model/node.js';
import { branchCondition, formatNumber, unclassifiedLabel } from './conditions.js';

/**
 * Indented text in the style of Weka's J48: one line per branch, `|   ` per level, leaves as
 * `: class (weight/errors)`.
 */
export function treeToText(tree: DecisionTree): string {
  const lines: string[] = [];
  const leafLabel = (id: number, parent?: number): string => {
    if (tree.nodes[id].unclassified) return unclassifiedLabel(tree.nodes[id]);
    const counts = tree.nodes[id].counts;
    const total = counts.reduce((a, b) => a + b, 0);
    const c = predictedClass(tree.nodes[id], parent === undefined ? undefined : tree.nodes[parent]);
    const errors = total - counts[c];
    return `${String(tree.classes[c])} (${formatNumber(total)}${errors > 0 ? `/${formatNumber(errors)}` : ''})`;
  };
  // Depth-first, branches in order: a stack of [parent, branch, indent] still to print.
  const pending: Array<[number, number, string]> = [];
  const pushBranches = (id: number, indent: string): void => {
    for (let b = tree.nodes[id].children!.length - 1; b >= 0; b--) pending.push([id, b, indent]);
  };
  if (tree.nodes[0].split) pushBranches(0, '');
  else lines.push(`: ${leafLabel(0)}`);
  while (pending.length > 0) {
    const [id, b, indent] = pending.pop()!;
    const node = tree.nodes[id];
    const child = node.children![b];
    const cond = indent + branchCondition(node.split!, b, tree.features);
    if (tree.nodes[child].split) {
      lines.push(cond);
      pushBranches(child, `${indent}|   `);
    } else lines.push(`${cond}: ${leafLabel(child, id)}`);
  }
  const s = tree.stats();
  lines.push('', `Number of leaves: ${s.leaves}`, `Size of the tree: ${s.nodes}`, `Height: ${s.height}`);
  return `${lines.join('\n')}\n`;
}
