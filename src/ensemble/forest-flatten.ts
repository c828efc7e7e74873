import type { KnnRegion, TreeNode } from '../model/node.js';
import type { Split } from '../model/split.js';
import type { TreeStore } from '../model/store.js';
import type { Forest } from './forest.js';
import { SECTIONS } from './forest-sections.js';

const KIND_CODE: Record<Split['kind'], number> = { numeric: 1, multiway: 2, subset: 3 };

/** A growing list of numbers (a section's values before narrowing), without a boxed number each. */
class Values {
  private a: Float64Array;
  length = 0;

  constructor(capacity: number) {
    this.a = new Float64Array(Math.max(1, capacity));
  }

  push(x: number): void {
    if (this.length === this.a.length) {
      const b = new Float64Array(2 * this.a.length);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.length++] = x;
  }

  get values(): Float64Array {
    return this.a.subarray(0, this.length);
  }
}

/** What flattening the trees gathers: every section's values, the leaves' own, whether sums hold. */
interface Flat {
  k: number;
  v: Record<string, Values>;
  leafN: Values;
  leafCounts: Values;
  knn: Record<string, KnnRegion>;
  sums: boolean;
  leafMeta: boolean;
}

/**
 * Every tree's nodes in the sections' values (before narrowing), and the k-NN data by global node
 * id. A tree held as its grower's `TreeStore` is read from the arrays, making no node objects; its
 * values are the ones its node objects would give (`TreeStore.node`).
 */
export function flatten(forest: Forest): {
  values: Record<string, Float64Array>;
  sums: boolean;
  knn: Record<string, KnnRegion>;
} {
  const k = forest.classes.length;
  const { nodes, splits, params } = sizes(forest);
  const leaves = nodes - splits;
  const capacity: Record<string, number> = {
    treeStart: forest.trees.length + 1,
    kind: nodes,
    missingBranch: nodes,
    params,
    leafScore: leaves,
    leafImprovement: leaves,
    n: nodes,
    counts: nodes * k,
  };
  const f: Flat = {
    k,
    v: Object.fromEntries(SECTIONS.map(([name]) => [name, new Values(capacity[name] ?? splits)])),
    leafN: new Values(leaves),
    leafCounts: new Values(leaves * k),
    knn: {},
    sums: true,
    leafMeta: false,
  };
  let base = 0;
  for (const tree of forest.trees) {
    f.v.treeStart.push(base);
    const grown = tree.grown();
    if (Array.isArray(grown)) fromNodes(f, grown, base);
    else fromStore(f, grown);
    base += Array.isArray(grown) ? grown.length : grown.size;
  }
  f.v.treeStart.push(base);
  const values = Object.fromEntries(Object.entries(f.v).map(([name, x]) => [name, x.values]));
  if (!f.leafMeta) {
    values.leafScore = new Float64Array(0);
    values.leafImprovement = new Float64Array(0);
  }
  if (f.sums) {
    values.n = f.leafN.values;
    values.counts = f.leafCounts.values;
  }
  return { values, sums: f.sums, knn: f.knn };
}

/** Nodes, split nodes and split parameters over all trees (the sections' lengths, made exactly). */
function sizes(forest: Forest): { nodes: number; splits: number; params: number } {
  let nodes = 0;
  let splits = 0;
  let params = 0;
  for (const tree of forest.trees) {
    const grown = tree.grown();
    if (Array.isArray(grown)) {
      nodes += grown.length;
      for (const node of grown) {
        if (!node.split || !node.children) continue;
        splits++;
        params += paramsOf(node.split).length;
      }
      continue;
    }
    nodes += grown.size;
    for (let id = 0; id < grown.size; id++) {
      if (grown.branches[id] === 0) continue;
      const split = grown.feature[id] >= 0 ? undefined : grown.splits.get(id);
      if (grown.feature[id] < 0 && !split) continue;
      splits++;
      params += split ? paramsOf(split).length : 1;
    }
  }
  return { nodes, splits, params };
}

function paramsOf(s: Split): number[] {
  return s.kind === 'numeric'
    ? s.thresholds
    : s.kind === 'multiway'
      ? s.values
      : [s.left.length, ...s.left, ...s.right];
}

/** A split node's parameters: numeric thresholds, multiway codes, or a subset's left size then its codes. */
function pushParams(v: Record<string, Values>, s: Split): void {
  const params = paramsOf(s);
  v.paramCount.push(params.length);
  for (const x of params) v.params.push(x);
}

function fromNodes(f: Flat, nodes: TreeNode[], base: number): void {
  const { v, k } = f;
  nodes.forEach((node, id) => {
    if (node.knn) f.knn[String(base + id)] = node.knn;
    const s = node.split;
    v.kind.push((s ? KIND_CODE[s.kind] : 0) + (node.unclassified ? 4 : 0));
    v.missingBranch.push(node.missingBranch === undefined ? 0 : node.missingBranch + 1);
    v.n.push(node.n);
    for (const c of node.counts) v.counts.push(c);
    if (!s || !node.children) {
      v.leafScore.push(node.score ?? Number.NaN);
      v.leafImprovement.push(node.improvement ?? Number.NaN);
      if (node.score !== undefined || node.improvement !== undefined) f.leafMeta = true;
      f.leafN.push(node.n);
      for (const c of node.counts) f.leafCounts.push(c);
      return;
    }
    v.feature.push(s.feature);
    v.firstChild.push(node.children[0]);
    v.branches.push(node.children.length);
    pushParams(v, s);
    v.score.push(node.score ?? Number.NaN);
    v.improvement.push(node.improvement ?? Number.NaN);
    // The reader adds the children's in branch order: the same additions, checked here.
    let n = 0;
    for (const c of node.children) n += nodes[c].n;
    if (n !== node.n) f.sums = false;
    for (let c = 0; c < k && f.sums; c++) {
      let w = 0;
      for (const child of node.children) w += nodes[child].counts[c];
      if (!Object.is(w, node.counts[c])) f.sums = false;
    }
  });
}

/** The store's nodes, pushed as `fromNodes` pushes the node objects `store.node(id)` makes. */
function fromStore(f: Flat, store: TreeStore): void {
  const { v, k } = f;
  const own = new Float64Array(k);
  const sum = new Float64Array(k);
  const child = new Float64Array(k);
  for (let id = 0; id < store.size; id++) {
    countsOf(store, id, own);
    const b = store.branches[id];
    const numeric = store.feature[id] >= 0;
    const split = numeric ? undefined : store.splits.get(id);
    const leaf = b === 0 || (!numeric && split === undefined);
    v.kind.push(leaf ? 0 : numeric ? 1 : KIND_CODE[split!.kind]);
    v.missingBranch.push(leaf || store.missingBranch[id] < 0 ? 0 : store.missingBranch[id] + 1);
    const n = store.n[id];
    v.n.push(n);
    for (let c = 0; c < k; c++) v.counts.push(own[c]);
    if (leaf) {
      v.leafScore.push(Number.NaN);
      v.leafImprovement.push(Number.NaN);
      f.leafN.push(n);
      for (let c = 0; c < k; c++) f.leafCounts.push(own[c]);
      continue;
    }
    const first = store.firstChild[id];
    v.feature.push(numeric ? store.feature[id] : split!.feature);
    v.firstChild.push(first);
    v.branches.push(b);
    if (numeric) {
      v.paramCount.push(1);
      v.params.push(store.threshold[id]);
    } else pushParams(v, split!);
    v.score.push(store.score[id]);
    v.improvement.push(store.improvement[id]);
    if (!f.sums) continue;
    // The reader adds the children's in branch order: the same additions, checked here.
    let sumN = 0;
    sum.fill(0);
    for (let j = 0; j < b; j++) {
      sumN += store.n[first + j];
      countsOf(store, first + j, child);
      for (let c = 0; c < k; c++) sum[c] += child[c];
    }
    if (sumN !== n) f.sums = false;
    for (let c = 0; c < k; c++) if (!Object.is(sum[c], own[c])) f.sums = false;
  }
}

/** Node `id`'s class weights, one per class (`NodeCounts.vector` without the array). */
function countsOf(store: TreeStore, id: number, out: Float64Array): void {
  const counts = store.counts;
  const k = out.length;
  if (!counts.sparse) {
    for (let c = 0; c < k; c++) out[c] = counts.dense[id * k + c];
    return;
  }
  out.fill(0);
  const end = counts.start[id] + counts.len[id];
  for (let i = counts.start[id]; i < end; i++) out[counts.cls[i]] = counts.w[i];
}
