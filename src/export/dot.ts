import { escapeControl } from '../core/errors.js';
import type { DecisionTree } from '../model/decision-tree.js';
import { predictedClass } from '../model/node.js';
import { checkTree } from './check-tree.js';
import { branchCondition, formatNumber, unclassifiedLabel } from './conditions.js';

function quote(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** A label's lines (the data's names and values, control characters escaped), in one DOT string. */
function label(...lines: string[]): string {
  return quote(lines.map(escapeControl).join('\n'));
}

/** Graphviz DOT: boxes for tests, ellipses for leaves, edges labelled with the branch condition. */
export function treeToDot(tree: DecisionTree): string {
  checkTree(tree, 'treeToDot');
  const out = ['digraph grove {', '  node [fontname="Helvetica"];', '  edge [fontname="Helvetica"];'];
  const parent = new Int32Array(tree.nodes.length).fill(-1);
  tree.nodes.forEach((node, id) => {
    for (const child of node.children ?? []) parent[child] = id;
  });
  tree.nodes.forEach((node, id) => {
    const c = predictedClass(node, parent[id] >= 0 ? tree.nodes[parent[id]] : undefined);
    const dist = `[${node.counts.map(formatNumber).join(', ')}]`;
    if (node.split) {
      const name = tree.features[node.split.feature].name;
      out.push(`  n${id} [shape=box, label=${label(name, `n = ${node.n}  ${dist}`)}];`);
      node.children!.forEach((child, b) => {
        const cond = branchCondition(node.split!, b, tree.features);
        const text = cond.startsWith(`${name} `) ? cond.slice(name.length + 1) : cond;
        out.push(`  n${id} -> n${child} [label=${label(text)}];`);
      });
    } else if (node.unclassified) {
      out.push(`  n${id} [shape=ellipse, style=dashed, label=${label(unclassifiedLabel(node))}];`);
    } else {
      out.push(`  n${id} [shape=ellipse, label=${label(String(tree.classes[c]), `n = ${node.n}  ${dist}`)}];`);
    }
  });
  out.push('}');
  return `${out.join('\n')}\n`;
}
