import { GroveError } from '../core/errors.js';
import type { DecisionTree } from '../model/decision-tree.js';
import { majorityClass } from '../model/node.js';
import { NO_BRANCH } from '../model/route.js';

/**
 * What the ONNX and SQL exporters share: the model checked for what they can express, and the
 * branch a missing value takes at every split node. A node's `missingBranch` (policies `majority`
 * and `learned`) is exact. C4.5's `fractional` policy sends such a row down every branch, weighted;
 * neither a TreeEnsemble nor a CASE expression can, so the export approximates it by the branch
 * that received the most training weight (ties: the lowest branch) and warns (docs/export.md).
 */
export interface PortableTree {
  tree: DecisionTree;
  /** Per node: the branch a missing or unknown value takes (-1 for a leaf). */
  missingBranch: Int32Array;
  /** proba[i * classes + c]: node i's class distribution, as grove predicts it (0 for an unclassified region). */
  proba: Float64Array;
  /** The class grove predicts at node i (majority, ties to the lowest index; -1 for an unclassified region). */
  classOf: Int32Array;
  /** True when some split node had no `missingBranch` (fractional policy): the export approximates. */
  approximated: boolean;
  /** True when the model has C-MBSV unclassified-region leaves (an extra label `unclassified`). */
  hasUnclassified: boolean;
  /** Warnings for the user (one line each). */
  warnings: string[];
}

/** Check that `tree` can be exported and settle every node's missing-value branch. */
export function portableTree(tree: DecisionTree, format: string): PortableTree {
  const nodes = tree.nodes;
  if (nodes.some((n) => n.knn !== undefined)) {
    throw new GroveError(
      `the model labels unclassified regions by k-NN over stored rows, which ${format} cannot express; ` +
        'refit with --unclassified none',
      { code: 'E_MODEL' },
    );
  }
  // As CompiledTree computes them (same sums in the same order), without building the predictor.
  const k = tree.classes.length;
  const totals = Float64Array.from(nodes, (n) => n.counts.reduce((a, b) => a + b, 0));
  const proba = new Float64Array(nodes.length * k);
  const classOf = new Int32Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    if (nodes[i].unclassified) {
      classOf[i] = -1;
      continue;
    }
    for (let c = 0; c < k; c++) proba[i * k + c] = totals[i] > 0 ? nodes[i].counts[c] / totals[i] : 1 / k;
    classOf[i] = majorityClass(nodes[i].counts);
  }
  const missingBranch = new Int32Array(nodes.length).fill(NO_BRANCH);
  let approximated = false;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    if (!node.split || !node.children) continue;
    if (node.missingBranch !== undefined) {
      missingBranch[i] = node.missingBranch;
      continue;
    }
    approximated = true;
    // The child with the most training weight, ties to the lowest branch.
    let best = 0;
    for (let b = 1; b < node.children.length; b++) if (totals[node.children[b]] > totals[node.children[best]]) best = b;
    missingBranch[i] = best;
  }
  const hasUnclassified = nodes.some((n) => n.unclassified === true);
  const warnings = approximated
    ? [
        `the model spreads missing values over every branch (fractional policy), which ${format} cannot express: ` +
          'a missing or unknown value takes the branch with the most training weight instead (docs/export.md); ' +
          'rows without such values predict exactly',
      ]
    : [];
  return { tree, missingBranch, proba, classOf, approximated, hasUnclassified, warnings };
}

/** The label reported for a row in a C-MBSV unclassified region. */
export const UNCLASSIFIED_LABEL = 'unclassified';
