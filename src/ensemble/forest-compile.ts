import { RecordWriter, type RoutableTree } from '../model/fast-routes.js';
import type { ModelFile } from '../model/schema.js';
import { CompiledForest, type ForestTree, forestBlock, tagStops } from './compiled-forest.js';
import type { Sections } from './forest-sections.js';

/** Counts at most this large cannot add up to an infinity over a forest's nodes. */
const COUNT_LIMIT = 1e300;

/**
 * A forest file's compiled predictor laid out straight from its node sections (forest-sections.ts),
 * one tree at a time through one set of scratch arrays: no tree's store, no `DecisionTree`, no
 * node object is made, so loading a forest to predict costs one pass over its nodes. `trees` are
 * what the predictor keeps of each tree (its compiled form, made only when a row needs it).
 *
 * This is the common case only: every split binary and numeric (with or without a branch for
 * missing values), nothing a `TreeStore` does not hold (see forest-nodes.ts), the split nodes'
 * counts their children's sums. Anything else, valid
 * or not, gives undefined, and the caller reads the trees as before (forest-nodes.ts), which
 * explains a refusal; so what this accepts, `NodeReader` accepts too. Its checks are
 * `NodeReader`'s, at least as strict: kinds, features numeric, one finite threshold and two
 * children per split, children after their parent with one parent each, every node reachable,
 * a leaf's `n` a whole number ≥ 0 and its counts finite and ≥ 0 (and small enough that no sum of
 * them overflows), a tree's `n` within an int32 (else the slow path keeps node objects). The
 * section lengths are `NodeReader`'s constructor's to check first.
 */
export function compileSections(
  f: Sections,
  model: ModelFile,
  sums: boolean,
  trees: readonly ForestTree[],
  slots: number,
): CompiledForest | undefined {
  if (!sums || f.leafScore.length !== 0 || f.leafImprovement.length !== 0) return undefined;
  const k = model.classes.length;
  const numeric = Uint8Array.from(model.features, (s) => (s.kind === 'numeric' ? 1 : 0));
  const d = numeric.length;
  const { kind, missingBranch, feature, firstChild, branches, paramCount, params, score, improvement, counts } = f;
  const nOf = f.n;
  const start = f.treeStart;
  const count = start.length - 1;
  const splits = feature.length;
  if (params.length !== splits || count !== trees.length) return undefined;
  let largest = 0;
  for (let t = 0; t < count; t++) largest = Math.max(largest, start[t + 1] - start[t]);
  // One tree's nodes as `RecordWriter` reads them: leaf 0 / split 1, feature, first child, and
  // the split's number (its threshold's index in `params`); a leaf's number among the leaves.
  const kindOf = new Uint8Array(largest);
  const featureOf = new Int32Array(largest);
  const childOf = new Int32Array(largest);
  const splitOf = new Int32Array(largest);
  const leafOf = new Int32Array(largest);
  const seen = new Uint8Array(largest);
  const tree: RoutableTree = {
    kind: kindOf,
    feature: featureOf,
    firstChild: childOf,
    paramStart: splitOf,
    paramCount: kindOf,
    thresholds: params,
  };
  const leaves = nOf.length;
  const bytes = 8 * leaves * k;
  const leafProba = new Float64Array(slots > 1 ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
  const writer = new RecordWriter(kind.length, largest, count, forestBlock, slots);
  const leavesOf = new SectionLeaves(counts, leafOf, k);
  const codeOf = (v: number): number => leavesOf.codeOf(v);
  let s = 0;
  let l = 0;
  let at = 0;
  for (let t = 0; t < count; t++) {
    const base = start[t];
    const m = start[t + 1] - base;
    if (!(m > 0)) return undefined;
    seen.fill(0, 0, m);
    let n = 0;
    for (let i = 0; i < m; i++) {
      const g = base + i;
      const code = kind[g];
      // A split's branch for missing values (+ 1; 0: none) is its compiled tree's to take.
      if (missingBranch[g] > (code === 0 ? 0 : 2)) return undefined;
      if (code === 0) {
        const x = nOf[l];
        if (!(Number.isInteger(x) && x >= 0)) return undefined;
        n += x;
        for (let c = l * k, end = c + k; c < end; c++) {
          const w = counts[c];
          if (!(w >= 0 && w <= COUNT_LIMIT)) return undefined;
        }
        kindOf[i] = 0;
        leafOf[i] = l++;
        continue;
      }
      if (code !== 1 || s >= splits || paramCount[s] !== 1 || branches[s] !== 2) return undefined;
      const j = feature[s];
      if (!(j < d && numeric[j] === 1) || !Number.isFinite(params[s])) return undefined;
      if (Number.isNaN(score[s]) || Number.isNaN(improvement[s])) return undefined;
      const first = firstChild[s];
      if (!(first > i && first + 2 <= m) || seen[first] !== 0 || seen[first + 1] !== 0) return undefined;
      seen[first] = 1;
      seen[first + 1] = 1;
      kindOf[i] = 1;
      featureOf[i] = j;
      childOf[i] = first;
      splitOf[i] = s++;
    }
    for (let i = 1; i < m; i++) if (seen[i] === 0) return undefined;
    // Every node's n is at most the root's, the sum of the leaves' (exact: whole numbers below 2^53).
    if (n > 2 ** 31 - 1) return undefined;
    const from = writer.add(tree, m, codeOf);
    at = tagStops(writer.rec, writer.leafCode, writer.orig, from, writer.count, leavesOf, leafProba, at, k);
  }
  if (s !== splits || l !== leaves) return undefined;
  return new CompiledForest(trees, writer.finish(), leafProba, slots);
}

/** The leaves of the tree being compiled, by node, from the file's `counts` section (`leafOf`: node → leaf). */
class SectionLeaves {
  constructor(
    private readonly counts: ArrayLike<number>,
    private readonly leafOf: Int32Array,
    private readonly k: number,
  ) {}

  /** A leaf's class distribution, as `storeProbaInto` makes it from its counts. */
  leafProbaInto(v: number, out: Float64Array, at: number): void {
    const { counts, k } = this;
    const e = this.leafOf[v] * k;
    let total = 0;
    for (let c = 0; c < k; c++) total += counts[e + c];
    for (let c = 0; c < k; c++) out[at + c] = counts[e + c] / total;
  }

  /** A stop's class as `StorePart.leafCodeOf` gives it: a leaf that weighs something, its majority. */
  codeOf(v: number): number {
    const { counts, k } = this;
    const e = this.leafOf[v] * k;
    let total = 0;
    for (let c = 0; c < k; c++) total += counts[e + c];
    if (!(total > 0)) return -1;
    let best = 0;
    for (let c = 1; c < k; c++) if (counts[e + c] > counts[e + best]) best = c;
    return best;
  }
}
