import type { ModelRecord } from '../eval/results.js';
import { branchCondition } from '../export/conditions.js';

/**
 * A fitted tree as the report's tree view needs it, compactly: per node
 * `[condition on the branch into it, class counts, first child id, child count, feature it splits on]`
 * (root condition '' and leaf feature ''). Conditions are written here, with the same words as
 * `grove show`, so the page's script only draws.
 */
export interface ReportTree {
  dataset: string;
  config: string;
  classes: string[];
  nodes: Array<[string, number[], number, number, string]>;
  stats: { nodes: number; leaves: number; height: number; needless: number; fitMs: number };
}

const roundCount = (x: number) => (Number.isInteger(x) ? x : Number(x.toFixed(4)));

export function reportTree(m: ModelRecord): ReportTree {
  const { model } = m;
  const cond = new Array<string>(model.nodes.length).fill('');
  model.nodes.forEach((node) => {
    node.children?.forEach((child, b) => (cond[child] = branchCondition(node.split!, b, model.features)));
  });
  return {
    dataset: m.dataset,
    config: m.config,
    classes: model.classes.map(String),
    nodes: model.nodes.map((node, i) => [
      cond[i],
      node.counts.map(roundCount),
      node.children ? node.children[0] : 0,
      node.children ? node.children.length : 0,
      node.split ? model.features[node.split.feature].name : '',
    ]),
    stats: {
      nodes: m.nodes,
      leaves: m.leaves,
      height: m.height,
      needless: m.needlessFeatures.length,
      fitMs: Number(m.fitMs.toFixed(2)),
    },
  };
}
