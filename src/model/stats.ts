import type { FeatureSchema } from './schema.js';
import type { NodeSource } from './store.js';

/** Size and shape of a fitted tree, as the papers report them. */
export interface TreeStats {
  nodes: number;
  leaves: number;
  /** Depth of the deepest leaf; a single-leaf tree has height 0. */
  height: number;
  /** Features tested by at least one node, in column order. */
  featuresUsed: string[];
  /** Features no node tests (the C-MBSV paper's "needless features"). */
  needlessFeatures: string[];
  /** Per feature: total weighted improvement of its splits, normalised to sum 1 (all 0 for a leaf-only tree). */
  importances: Record<string, number>;
}

export function treeStats(nodes: NodeSource, features: FeatureSchema[]): TreeStats {
  let leaves = 0;
  let height = 0;
  const used = new Uint8Array(features.length);
  const raw = new Float64Array(features.length);
  const rootWeight = sum(nodes.node(0).counts);
  for (let id = 0; id < nodes.size; id++) {
    const node = nodes.node(id);
    if (!node.split) {
      leaves++;
      height = Math.max(height, node.depth);
      continue;
    }
    used[node.split.feature] = 1;
    // Weighted by the share of training weight reaching the node, as scikit-learn does.
    if (rootWeight > 0) raw[node.split.feature] += (sum(node.counts) / rootWeight) * Math.max(0, node.improvement ?? 0);
  }
  const total = raw.reduce((a, b) => a + b, 0);
  // fromEntries makes own properties, so a feature named `__proto__` is a key like any other.
  const importances: Record<string, number> = Object.fromEntries(
    features.map((f, i) => [f.name, total > 0 ? raw[i] / total : 0]),
  );
  return {
    nodes: nodes.size,
    leaves,
    height,
    featuresUsed: features.filter((_, i) => used[i]).map((f) => f.name),
    needlessFeatures: features.filter((_, i) => !used[i]).map((f) => f.name),
    importances,
  };
}

function sum(a: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i];
  return s;
}
