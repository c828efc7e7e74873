import type { KnnRegion, TreeNode } from '../model/node.js';
import type { Split } from '../model/split.js';
import type { TreeStore } from '../model/store.js';
import type { Forest } from './forest.js';
import { SECTIONS, type Section, SectionStats, type SectionType, sectionOf } from './forest-sections.js';

const KIND_CODE: Record<Split['kind'], number> = { numeric: 1, multiway: 2, subset: 3 };

/** Where a section's values go: its statistics (first pass), its array (second pass), or nowhere. */
interface Sink {
  push(x: number): void;
}

/** Values written into a section's array in order. */
class Writer implements Sink {
  at = 0;
  constructor(readonly array: Section) {}

  push(x: number): void {
    this.array[this.at++] = x;
  }
}

const SKIP: Sink = { push() {} };

/** One pass over the trees: every section's sink, the leaves' own, and what the first pass learns. */
interface Pass {
  k: number;
  v: Record<string, Sink>;
  leafN: Sink;
  leafCounts: Sink;
  /** The first pass: gather k-NN regions, check whether split nodes hold their children's sums. */
  first: boolean;
  knn: Record<string, KnnRegion>;
  sums: boolean;
  leafMeta: boolean;
}

/** A section of the file: its name, narrowest exact type and length. */
export interface SectionPlan {
  name: string;
  type: SectionType;
  length: number;
}

/**
 * What the first pass over the trees learns: every section's type and length, where each tree's
 * values start in each section, whether split nodes hold their children's sums, the k-NN data.
 */
export interface ForestPlan {
  /** In file order (forest-sections.ts). */
  sections: SectionPlan[];
  /** `treeStart`'s values: tree t's first node over all trees, then the number of nodes. */
  treeStart: number[];
  sums: boolean;
  knn: Record<string, KnnRegion>;
  leafMeta: boolean;
  /** Per section, the first-pass sink its values come from (an index of `marks`), -1 for none. */
  from: number[];
  /** Per first-pass sink, its length before each tree and after the last. */
  marks: Float64Array[];
}

/**
 * The first pass over every tree's nodes: each section's narrowest exact type and length, and
 * where each tree's values start in it, so that the second pass (`fillTree`) can make one tree's
 * part of every section at a time. A tree held as its grower's `TreeStore` is read from the
 * arrays, making no node objects; its values are the ones its node objects would give
 * (`TreeStore.node`).
 */
export function planForest(forest: Forest): ForestPlan {
  const names = SECTIONS.map(([name]) => name);
  const sinks = [...names, 'leafN', 'leafCounts'].map(() => new SectionStats());
  const own = (name: string) => sinks[names.indexOf(name)];
  const first: Pass = {
    k: forest.classes.length,
    v: Object.fromEntries(names.map((name) => [name, own(name)])),
    leafN: sinks[names.length],
    leafCounts: sinks[names.length + 1],
    first: true,
    knn: {},
    sums: true,
    leafMeta: false,
  };
  const trees = forest.trees.length;
  const marks = sinks.map(() => new Float64Array(trees + 1));
  const treeStart = [0];
  forest.trees.forEach((tree, t) => {
    treeStart.push(treeStart[t] + visitTree(first, tree, treeStart[t]));
    sinks.forEach((s, i) => {
      marks[i][t + 1] = s.length;
    });
  });
  const { sums, leafMeta } = first;
  const from = names.map((name, i) => {
    if (name === 'treeStart' || (!leafMeta && (name === 'leafScore' || name === 'leafImprovement'))) return -1;
    if (sums && name === 'n') return names.length;
    if (sums && name === 'counts') return names.length + 1;
    return i;
  });
  const starts = new SectionStats();
  for (const x of treeStart) starts.push(x);
  const sections = SECTIONS.map(([name, fractions], i) => {
    const s = name === 'treeStart' ? starts : from[i] >= 0 ? sinks[from[i]] : undefined;
    const type = s ? s.type() : 'u8';
    if (!fractions && (type === 'f32' || type === 'f64'))
      throw new Error(`forest file: section ${name} holds a fraction`);
    return { name, type, length: s ? s.length : 0 };
  });
  return { sections, treeStart, sums, knn: first.knn, leafMeta, from, marks };
}

/** Section `s`'s entries for tree `t` in `plan`: [start, end). */
export function treeRange(plan: ForestPlan, s: number, t: number): [number, number] {
  const from = plan.from[s];
  return from < 0 ? [0, 0] : [plan.marks[from][t], plan.marks[from][t + 1]];
}

/**
 * Tree `t`'s part of every section, in file order (`treeStart` and unused sections empty), in
 * the types of `plan`: the second pass, one tree at a time, so no section is ever held whole.
 */
export function fillTree(forest: Forest, plan: ForestPlan, t: number): Section[] {
  const writers = plan.sections.map(({ type }, s) => {
    const [start, end] = treeRange(plan, s, t);
    return new Writer(sectionOf(type, end - start));
  });
  const names = plan.sections.map(({ name }) => name);
  const { sums } = plan;
  const pass: Pass = {
    k: forest.classes.length,
    v: Object.fromEntries(names.map((name, s) => [name, plan.from[s] === s ? writers[s] : SKIP])),
    leafN: sums ? writers[names.indexOf('n')] : SKIP,
    leafCounts: sums ? writers[names.indexOf('counts')] : SKIP,
    first: false,
    knn: {},
    sums,
    leafMeta: plan.leafMeta,
  };
  visitTree(pass, forest.trees[t], plan.treeStart[t]);
  for (const [s, w] of writers.entries())
    if (w.at !== w.array.length) throw new Error(`forest file: section ${names[s]} changed between passes`);
  return writers.map((w) => w.array);
}

/** One tree's nodes, in order, into the pass's sinks; its node count. */
function visitTree(p: Pass, tree: Forest['trees'][number], base: number): number {
  const grown = tree.grown();
  if (Array.isArray(grown)) {
    fromNodes(p, grown, base);
    return grown.length;
  }
  fromStore(p, grown);
  return grown.size;
}

function paramsOf(s: Split): number[] {
  return s.kind === 'numeric'
    ? s.thresholds
    : s.kind === 'multiway'
      ? s.values
      : [s.left.length, ...s.left, ...s.right];
}

/** A split node's parameters: numeric thresholds, multiway codes, or a subset's left size then its codes. */
function pushParams(v: Record<string, Sink>, s: Split): void {
  const params = paramsOf(s);
  v.paramCount.push(params.length);
  for (const x of params) v.params.push(x);
}

function fromNodes(f: Pass, nodes: TreeNode[], base: number): void {
  const { v, k } = f;
  nodes.forEach((node, id) => {
    if (f.first && node.knn) f.knn[String(base + id)] = node.knn;
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
    if (!f.first || !f.sums) return;
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
function fromStore(f: Pass, store: TreeStore): void {
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
      v.params.push(store.thresholdOf(id));
    } else pushParams(v, split!);
    v.score.push(store.scoreOf(id));
    v.improvement.push(store.improvementOf(id));
    if (!f.first || !f.sums) continue;
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
