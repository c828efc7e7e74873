import type { KnnRegion, TreeNode } from '../model/node.js';
import type { ModelFile } from '../model/schema.js';
import type { Split } from '../model/split.js';
import { type StoreData, TreeStore } from '../model/store.js';
import type { Sections } from './forest-sections.js';

type Fail = (why: string) => never;

/** One tree's nodes as read from the sections, in typed arrays (a `TreeStore`'s). */
interface TreeArrays {
  m: number;
  n: Float64Array;
  depth: Int32Array;
  firstChild: Int32Array;
  branches: Int32Array;
  score: Float64Array;
  improvement: Float64Array;
  missingBranch: Int32Array;
  feature: Int32Array;
  threshold: Float64Array;
  splits: Map<number, Split>;
  counts: Float64Array;
  /** Global id of node 0 (the sections number nodes over all trees). */
  base: number;
  /** Something a `TreeStore` does not hold (leaf scores, a split without one, C-MBSV regions, a huge n). */
  needsObjects: boolean;
}

/**
 * Reads the forest file's node sections (forest-sections.ts) tree by tree, checking on the arrays
 * what `validateModel` checks of a tree model's nodes (the header's parts are checked once, as
 * `model`): kinds, features and their kinds, branch counts, increasing thresholds, category codes
 * distinct and in range, children after their parent with consecutive ids and one parent each,
 * every node reachable, counts finite and ≥ 0, `n` a whole number ≥ 0.
 */
export class NodeReader {
  private split = 0;
  private leaf = 0;
  private param = 0;
  private readonly k: number;
  private readonly start: ArrayLike<number>;
  /** The header's k-NN data by global node id (a number: no string made per node). */
  private readonly knnAt: Map<number, KnnRegion>;

  constructor(
    private readonly f: Sections,
    private readonly model: ModelFile,
    private readonly sums: boolean,
    knn: Record<string, KnnRegion>,
    private readonly fail: Fail,
  ) {
    this.k = model.classes.length;
    this.knnAt = new Map(Object.entries(knn).map(([id, region]) => [Number(id), region]));
    const kind = f.kind;
    const total = kind.length;
    let splits = 0;
    for (let i = 0; i < total; i++) if ((kind[i] & 3) !== 0) splits++;
    const leaves = total - splits;
    const expect = (name: string, length: number) => {
      if (f[name].length !== length) fail(`section ${name} has ${f[name].length} entries, expected ${length}`);
    };
    expect('missingBranch', total);
    for (const name of ['feature', 'firstChild', 'branches', 'paramCount', 'score', 'improvement'])
      expect(name, splits);
    for (const name of ['leafScore', 'leafImprovement']) if (f[name].length !== 0) expect(name, leaves);
    expect('n', sums ? leaves : total);
    expect('counts', (sums ? leaves : total) * this.k);
    const start = f.treeStart;
    const trees = start.length - 1;
    if (start[0] !== 0 || start[trees] !== total) fail('tree offsets do not cover the nodes');
    for (let t = 0; t < trees; t++) if (!(start[t + 1] > start[t])) fail(`tree ${t} has no nodes`);
    this.start = start;
  }

  /** Tree `t` (trees are read in order): a `TreeStore`, or node objects for `validateModel` to check. */
  tree(t: number): TreeStore | TreeNode[] {
    const a = this.read(this.start[t], this.start[t + 1] - this.start[t]);
    return a.needsObjects ? this.objects(a) : storeOf(a, this.k);
  }

  /** After the last tree: every split parameter was used. */
  finish(): void {
    if (this.param !== this.f.params.length) this.fail('the split parameters do not match the nodes');
  }

  private read(base: number, m: number): TreeArrays {
    const k = this.k;
    const a: TreeArrays = {
      m,
      base,
      n: new Float64Array(m),
      depth: new Int32Array(m),
      firstChild: new Int32Array(m).fill(-1),
      branches: new Int32Array(m),
      score: new Float64Array(m).fill(Number.NaN),
      improvement: new Float64Array(m).fill(Number.NaN),
      missingBranch: new Int32Array(m).fill(-1),
      feature: new Int32Array(m).fill(-1),
      threshold: new Float64Array(m),
      splits: new Map(),
      counts: new Float64Array(m * k),
      needsObjects: false,
    };
    const seen = new Uint8Array(m);
    for (let i = 0; i < m; i++) this.node(a, i, seen);
    for (let i = 1; i < m; i++) if (!seen[i]) this.fail(`node ${base + i}: not reachable from the root`);
    if (this.sums) this.addUp(a);
    for (let i = 0; i < m * k; i++) {
      const w = a.counts[i];
      if (!(w >= 0 && w < Infinity))
        this.fail(`node ${base + Math.floor(i / k)}: a class count is not a finite number ≥ 0`);
    }
    for (let i = 0; i < m; i++) if (a.n[i] > 2 ** 31 - 1) a.needsObjects = true;
    return a;
  }

  /** Node `i` of the tree in `a`: its fields from the sections, checked. */
  private node(a: TreeArrays, i: number, seen: Uint8Array): void {
    const { f, fail } = this;
    const g = a.base + i;
    const kind = f.kind[g];
    const code = kind & 3;
    if (kind > 7 || (kind & 4 && code !== 0)) fail(`node ${g}: bad kind ${kind}`);
    if (kind & 4 || (this.knnAt.size > 0 && this.knnAt.has(g))) a.needsObjects = true;
    const missing = f.missingBranch[g] - 1;
    if (code === 0) {
      const l = this.leaf++;
      if (missing >= 0) a.needsObjects = true;
      a.missingBranch[i] = missing;
      if (f.leafScore.length > 0) {
        a.score[i] = f.leafScore[l];
        a.improvement[i] = f.leafImprovement[l];
        if (!Number.isNaN(a.score[i]) || !Number.isNaN(a.improvement[i])) a.needsObjects = true;
      }
      this.stats(a, i, this.sums ? l : g);
      return;
    }
    if (!this.sums) this.stats(a, i, g);
    const s = this.split++;
    a.score[i] = f.score[s];
    a.improvement[i] = f.improvement[s];
    if (Number.isNaN(a.score[i]) || Number.isNaN(a.improvement[i])) a.needsObjects = true;
    const split = this.splitAt(s, code, g, a, i);
    const branches = f.branches[s];
    const expected =
      split === undefined
        ? 2
        : split.kind === 'numeric'
          ? split.thresholds.length + 1
          : split.kind === 'multiway'
            ? split.values.length
            : 2;
    if (branches !== expected) fail(`node ${g}: expected ${expected} children, found ${branches}`);
    if (missing >= branches) fail(`node ${g}: no branch ${missing} for missing values`);
    const first = f.firstChild[s];
    if (!(first > i && first + branches <= a.m)) fail(`node ${g}: children out of range`);
    for (let b = 0; b < branches; b++) {
      if (seen[first + b]++) fail(`node ${g}: node ${a.base + first + b} has two parents`);
      a.depth[first + b] = a.depth[i] + 1;
    }
    a.firstChild[i] = first;
    a.branches[i] = branches;
    a.missingBranch[i] = missing;
    if (split) a.splits.set(i, split);
  }

  /**
   * Split number `s` (node `g`, node `i` of `a`), checked against its feature; a binary numeric
   * split goes straight into `a.feature` and `a.threshold` (undefined is returned).
   */
  private splitAt(s: number, code: number, g: number, a: TreeArrays, i: number): Split | undefined {
    const { f, fail } = this;
    const feature = f.feature[s];
    const schema = this.model.features[feature];
    if (!schema) fail(`node ${g}: no feature ${feature}`);
    if ((code === 1) !== (schema.kind === 'numeric')) fail(`node ${g}: split kind ${code} on ${schema.kind} feature`);
    const count = f.paramCount[s];
    const p = this.param;
    if (count < 1 || p + count > f.params.length) fail(`node ${g}: bad split parameters`);
    this.param += count;
    if (code === 1 && count === 1) {
      const t = f.params[p];
      if (!Number.isFinite(t)) fail(`node ${g}: thresholds not finite and increasing`);
      a.feature[i] = feature;
      a.threshold[i] = t;
      return undefined;
    }
    const values = Array.from(f.params.subarray(p, p + count));
    if (code === 1) {
      for (let j = 0; j < count; j++)
        if (!Number.isFinite(values[j]) || (j > 0 && !(values[j] > values[j - 1])))
          fail(`node ${g}: thresholds not finite and increasing`);
      return { kind: 'numeric', feature, thresholds: values };
    }
    const codes = code === 2 ? values : values.slice(1);
    const nCat = schema.categories?.length ?? 0;
    for (const c of codes) if (!(Number.isInteger(c) && c >= 0 && c < nCat)) fail(`node ${g}: bad category code ${c}`);
    if (new Set(codes).size !== codes.length) fail(`node ${g}: a category code appears twice`);
    if (code === 2) return { kind: 'multiway', feature, values };
    const left = values[0];
    if (!Number.isInteger(left) || left < 1 || left + 1 >= count) fail(`node ${g}: bad subset split`);
    return { kind: 'subset', feature, left: values.slice(1, 1 + left), right: values.slice(1 + left) };
  }

  /** Node `i`'s `n` and counts from entry `e` of the `n` and `counts` sections. */
  private stats(a: TreeArrays, i: number, e: number): void {
    const { f, k } = this;
    const n = f.n[e];
    if (!(Number.isInteger(n) && n >= 0)) this.fail(`node ${a.base + i}: n is not a whole number ≥ 0`);
    a.n[i] = n;
    for (let c = 0; c < k; c++) a.counts[i * k + c] = f.counts[e * k + c];
  }

  /** Split nodes' `n` and counts: their children's sums, in branch order (children follow their parent). */
  private addUp(a: TreeArrays): void {
    const k = this.k;
    for (let i = a.m - 1; i >= 0; i--) {
      const first = a.firstChild[i];
      if (first < 0) continue;
      let n = 0;
      for (let b = 0; b < a.branches[i]; b++) n += a.n[first + b];
      a.n[i] = n;
      for (let c = 0; c < k; c++) {
        let w = 0;
        for (let b = 0; b < a.branches[i]; b++) w += a.counts[(first + b) * k + c];
        a.counts[i * k + c] = w;
      }
    }
  }

  /** The tree as node objects (the model file's), for `validateModel`. */
  private objects(a: TreeArrays): TreeNode[] {
    const k = this.k;
    const nodes: TreeNode[] = [];
    for (let i = 0; i < a.m; i++) {
      const node: TreeNode = { counts: Array.from(a.counts.subarray(i * k, i * k + k)), n: a.n[i], depth: a.depth[i] };
      if (!Number.isNaN(a.score[i])) node.score = a.score[i];
      if (!Number.isNaN(a.improvement[i])) node.improvement = a.improvement[i];
      if (a.missingBranch[i] >= 0) node.missingBranch = a.missingBranch[i];
      if (this.f.kind[a.base + i] & 4) node.unclassified = true;
      const knn = this.knnAt.get(a.base + i);
      if (knn) node.knn = knn;
      if (a.branches[i] > 0) {
        node.split = a.splits.get(i) ?? { kind: 'numeric', feature: a.feature[i], thresholds: [a.threshold[i]] };
        node.children = Array.from({ length: a.branches[i] }, (_, b) => a.firstChild[i] + b);
      }
      nodes.push(node);
    }
    return nodes;
  }
}

/** The tree in `a` as a `TreeStore` (its arrays, no node objects). */
function storeOf(a: TreeArrays, k: number): TreeStore {
  const data: StoreData = {
    classes: k,
    size: a.m,
    counts: {
      classes: k,
      sparse: false,
      dense: a.counts,
      start: new Int32Array(0),
      len: new Int32Array(0),
      cls: new Int32Array(0),
      w: new Float64Array(0),
      used: 0,
    },
    n: Int32Array.from(a.n),
    depth: a.depth,
    firstChild: a.firstChild,
    branches: a.branches,
    score: a.score,
    improvement: a.improvement,
    missingBranch: a.missingBranch,
    feature: a.feature,
    threshold: a.threshold,
    splits: a.splits,
  };
  return TreeStore.fromData(data);
}
