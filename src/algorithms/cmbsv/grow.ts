/**
 * The C-MBSV grower: Algorithm 1 of Salehi-Moghaddami, Sadoghi Yazdi & Poostchi (2011).
 *
 *   BUILD TREE(D):
 *     all rows of D in one class            → leaf
 *     f = feature of largest |correlation|   (select.ts, eq. 10; Cramér's V for unordered categorical)
 *     T = distinct pairwise SVM thresholds   (thresholds.ts, eqs. 11–14)  → b = |T| + 1 branches
 *     only one branch has rows              → the node is a leaf with its majority class
 *     an empty branch between non-empty ones → an *unclassified region* leaf
 *     every other branch                    → BUILD TREE(branch)
 *
 * An unordered categorical feature splits multiway (one branch per value seen at the node) and is
 * not reused below, as in ID3. grove's stopping options still apply (`maxDepth`, `minSamplesSplit`,
 * `purity`; their defaults do not stop anything Algorithm 1 would grow); `minSamplesLeaf`,
 * `minGain` and the criterion are not used. Missing values (the paper has none): the score and
 * the SVMs use the rows whose value is known; rows with a missing value then follow the heaviest
 * branch, in training and in prediction (`missingBranch`).
 *
 * Node fields: `score` = the selected feature's |r| (or V); `improvement` = the decrease of Gini
 * impurity from the node to its branches (weighted), used only for feature importances.
 */
import type { Dataset } from '../../data/dataset.js';
import type { KnnRegion, TreeNode } from '../../model/node.js';
import { bestFeature, featureScores, type SelectionOptions } from './select.js';
import { branchOfValue, nodeThresholds, type ThresholdOptions } from './thresholds.js';

/** Everything the C-MBSV grower reads (a subset of grove's ResolvedOptions). */
export interface CmbsvGrowOptions extends SelectionOptions, ThresholdOptions {
  unclassified: 'none' | 'knn';
  maxDepth: number;
  minSamplesSplit: number;
  purity: number;
}

interface Pending {
  id: number;
  rows: Int32Array;
  depth: number;
  excluded: readonly number[];
}

/** Grow a C-MBSV tree on `data` with row weights `weights`; returns grove's flat node list. */
export function growCmbsv(data: Dataset, opts: CmbsvGrowOptions, weights: Float64Array): TreeNode[] {
  const k = data.classes.length;
  const labels = data.labels;
  const features = data.features;
  const nodes: TreeNode[] = [{ counts: [], n: 0, depth: 0 }];
  const all: number[] = [];
  for (let i = 0; i < data.nRows; i++) if (weights[i] > 0) all.push(i);
  const stack: Pending[] = [{ id: 0, rows: Int32Array.from(all), depth: 0, excluded: [] }];

  while (stack.length > 0) {
    const { id, rows, depth, excluded } = stack.pop()!;
    const counts = new Array<number>(k).fill(0);
    for (const r of rows) counts[labels[r]] += weights[r];
    const node = nodes[id];
    node.counts = counts;
    node.n = rows.length;
    node.depth = depth;
    let total = 0;
    let majority = 0;
    for (const c of counts) {
      total += c;
      majority = Math.max(majority, c);
    }
    if (rows.length < opts.minSamplesSplit || depth >= opts.maxDepth) continue;
    if (total <= 0 || majority >= opts.purity * total * (1 - 1e-12)) continue;

    const scores = featureScores(features, labels, k, rows, weights, opts, excluded);
    const f = bestFeature(scores);
    if (f < 0) continue;
    const col = features[f];

    // Branch of every row (-1: missing value), the split, and which branches are unclassified.
    const branch = new Int32Array(rows.length);
    let branches: number;
    if (col.kind === 'numeric') {
      const { thresholds } = nodeThresholds(col.values, labels, k, rows, weights, opts);
      if (thresholds.length === 0) continue; // Algorithm 1, line 12: only one branch has data → leaf
      node.split = { kind: 'numeric', feature: f, thresholds };
      branches = thresholds.length + 1;
      rows.forEach((r, j) => (branch[j] = Number.isNaN(col.values[r]) ? -1 : branchOfValue(thresholds, col.values[r])));
    } else {
      const seen = new Set<number>();
      for (const r of rows) if (col.codes[r] >= 0) seen.add(col.codes[r]);
      const values = [...seen].sort((a, b) => a - b);
      const slot = new Map(values.map((v, b) => [v, b]));
      node.split = { kind: 'multiway', feature: f, values };
      branches = values.length;
      rows.forEach((r, j) => (branch[j] = col.codes[r] < 0 ? -1 : slot.get(col.codes[r])!));
    }

    const branchCounts = Array.from({ length: branches }, () => new Array<number>(k).fill(0));
    const sizes = new Array<number>(branches).fill(0);
    rows.forEach((r, j) => {
      if (branch[j] < 0) return;
      branchCounts[branch[j]][labels[r]] += weights[r];
      sizes[branch[j]]++;
    });
    const weightOf = branchCounts.map((c) => c.reduce((a, b) => a + b, 0));
    let heaviest = 0;
    for (let b = 1; b < branches; b++) if (weightOf[b] > weightOf[heaviest]) heaviest = b;
    // Missing values follow the heaviest branch.
    for (let j = 0; j < rows.length; j++) {
      if (branch[j] >= 0) continue;
      branch[j] = heaviest;
      sizes[heaviest]++;
    }
    const nonEmpty = sizes.filter((s) => s > 0).length;
    if (nonEmpty <= 1) {
      delete node.split;
      continue;
    }
    const firstNonEmpty = sizes.findIndex((s) => s > 0);
    let lastNonEmpty = branches - 1;
    while (sizes[lastNonEmpty] === 0) lastNonEmpty--;

    node.score = scores[f];
    node.improvement = giniDecrease(counts, branchCounts);
    node.missingBranch = heaviest;
    node.children = [];
    const knn =
      opts.unclassified === 'knn' && sizes.some((s, b) => s === 0 && b > firstNonEmpty && b < lastNonEmpty)
        ? knnRegion(data, rows)
        : undefined;
    const childRows = Array.from({ length: branches }, (_, b) => new Int32Array(sizes[b]));
    const fill = new Array<number>(branches).fill(0);
    rows.forEach((r, j) => (childRows[branch[j]][fill[branch[j]]++] = r));
    const pending: Pending[] = [];
    const childExcluded = col.kind === 'categorical' ? [...excluded, f] : excluded;
    for (let b = 0; b < branches; b++) {
      const childId = nodes.length;
      node.children.push(childId);
      if (sizes[b] === 0) {
        // Only inner branches can be empty (thresholds.ts drops those that empty an outer one).
        const leaf: TreeNode = { counts: new Array<number>(k).fill(0), n: 0, depth: depth + 1, unclassified: true };
        if (knn) leaf.knn = knn;
        nodes.push(leaf);
      } else {
        nodes.push({ counts: [], n: 0, depth: depth + 1 });
        pending.push({ id: childId, rows: childRows[b], depth: depth + 1, excluded: childExcluded });
      }
    }
    // Depth-first, branch 0 first.
    for (let b = pending.length - 1; b >= 0; b--) stack.push(pending[b]);
  }
  return nodes;
}

function gini(counts: readonly number[]): number {
  let t = 0;
  let s = 0;
  for (const c of counts) {
    t += c;
    s += c * c;
  }
  return t > 0 ? 1 - s / (t * t) : 0;
}

function giniDecrease(parent: readonly number[], children: readonly number[][]): number {
  const total = parent.reduce((a, b) => a + b, 0);
  if (!(total > 0)) return 0;
  let after = 0;
  for (const c of children) after += (c.reduce((a, b) => a + b, 0) / total) * gini(c);
  return gini(parent) - after;
}

/** The rows reaching a node, as the k-NN data of its unclassified regions. */
export function knnRegion(data: Dataset, rows: ArrayLike<number>): KnnRegion {
  const d = data.features.length;
  const center = new Array<number>(d).fill(0);
  const scale = new Array<number>(d).fill(1);
  data.features.forEach((col, f) => {
    if (col.kind !== 'numeric') return;
    let n = 0;
    let s = 0;
    for (let j = 0; j < rows.length; j++) {
      const v = col.values[rows[j]];
      if (!Number.isNaN(v)) {
        n++;
        s += v;
      }
    }
    if (n === 0) return;
    const mean = s / n;
    let ss = 0;
    for (let j = 0; j < rows.length; j++) {
      const v = col.values[rows[j]];
      if (!Number.isNaN(v)) ss += (v - mean) ** 2;
    }
    center[f] = mean;
    const sd = Math.sqrt(ss / n);
    scale[f] = sd > 0 ? sd : 1;
  });
  const out: (number | null)[][] = [];
  const labels: number[] = [];
  for (let j = 0; j < rows.length; j++) {
    const r = rows[j];
    out.push(
      data.features.map((col) => {
        if (col.kind === 'numeric') return Number.isNaN(col.values[r]) ? null : col.values[r];
        return col.codes[r] < 0 ? null : col.codes[r];
      }),
    );
    labels.push(data.labels[r]);
  }
  return { rows: out, labels, center, scale };
}
