import { escapeControl } from '../core/errors.js';
import type { DecisionTree } from '../model/decision-tree.js';
import { predictedClass } from '../model/node.js';
import { describeOptimality } from '../model/optimality.js';
import { checkTree } from './check-tree.js';
import { branchCondition, formatNumber, unclassifiedLabel } from './conditions.js';

/**
 * Levels of indentation drawn: a line deeper than this shows `TEXT_MAX_INDENT` bars and then its
 * depth, `|…(depth 12000) x <= 5`, so that a chain's text grows with its depth, not its square.
 */
export const TEXT_MAX_INDENT = 100;

const BAR = '|   ';

/**
 * Indented text in the style of Weka's J48: one line per branch, `|   ` per level, leaves as
 * `: class (weight/errors)`. Branches deeper than `TEXT_MAX_INDENT` levels are drawn at that
 * indentation with their depth written out (see there).
 */
export function treeToText(tree: DecisionTree): string {
  checkTree(tree, 'treeToText');
  const lines: string[] = [];
  const leafLabel = (id: number, parent?: number): string => {
    if (tree.nodes[id].unclassified) return unclassifiedLabel(tree.nodes[id]);
    const counts = tree.nodes[id].counts;
    const total = counts.reduce((a, b) => a + b, 0);
    const c = predictedClass(tree.nodes[id], parent === undefined ? undefined : tree.nodes[parent]);
    const errors = total - counts[c];
    return `${String(tree.classes[c])} (${formatNumber(total)}${errors > 0 ? `/${formatNumber(errors)}` : ''})`;
  };
  const indents = [''];
  const indent = (depth: number): string => {
    const drawn = Math.min(depth, TEXT_MAX_INDENT);
    while (indents.length <= drawn) indents.push(indents[indents.length - 1] + BAR);
    return depth > drawn ? `${indents[drawn]}|…(depth ${depth}) ` : indents[drawn];
  };
  // Depth-first, branches in order: a stack of [parent, branch, parent's depth] still to print.
  const pending: Array<[number, number, number]> = [];
  const pushBranches = (id: number, depth: number): void => {
    for (let b = tree.nodes[id].children!.length - 1; b >= 0; b--) pending.push([id, b, depth]);
  };
  if (tree.nodes[0].split) pushBranches(0, 0);
  else lines.push(`: ${leafLabel(0)}`);
  while (pending.length > 0) {
    const [id, b, depth] = pending.pop()!;
    const node = tree.nodes[id];
    const child = node.children![b];
    const cond = indent(depth) + branchCondition(node.split!, b, tree.features);
    if (tree.nodes[child].split) {
      lines.push(cond);
      pushBranches(child, depth + 1);
    } else lines.push(`${cond}: ${leafLabel(child, id)}`);
  }
  const s = tree.stats();
  lines.push('', `Number of leaves: ${s.leaves}`, `Size of the tree: ${s.nodes}`, `Height: ${s.height}`);
  if (tree.optimality) lines.push(describeOptimality(tree.optimality));
  // Names and labels are the data's: escaped, so a newline or a terminal escape in one is inert.
  return `${lines.map(escapeControl).join('\n')}\n`;
}
