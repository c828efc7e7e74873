import type { DecisionTree } from '../model/decision-tree.js';
import { predictedClass } from '../model/node.js';
import { checkTree } from './check-tree.js';
import { branchCondition, formatNumber, unclassifiedLabel } from './conditions.js';

function quote(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
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
      out.push(`  n${id} [shape=box, label=${quote(`${name}\nn = ${node.n}  ${dist}`)}];`);
      node.children!.forEach((child, b) => {
        const cond = branchCondition(node.split!, b, tree.features);
        const label = cond.startsWith(`${name} `) ? cond.slice(name.length + 1) : cond;
        out.push(`  n${id} -> n${child} [label=${quote(label)}];`);
      });
    } else if (node.unclassified) {
      out.push(`  n${id} [shape=ellipse, style=dashed, label=${quote(unclassifiedLabel(node))}];`);
    } else {
      out.push(`  n${id} [shape=ellipse, label=${quote(`${String(tree.classes[c])}\nn = ${node.n}  ${dist}`)}];`);
    }
  });
  out.push('}');
  return `${out.join('\n')}\n`;
}
