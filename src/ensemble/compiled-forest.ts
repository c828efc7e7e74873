import type { AlignedColumn, ForestPart, UnclassifiedPolicy } from '../model/compiled.js';
import { FastRoutes } from '../model/fast-routes.js';
import { LeafFinder } from '../model/paths.js';
import { addVote } from './combine.js';
import type { ForestVote } from './settings.js';

/**
 * A whole forest compiled for prediction: every tree's binary numeric nodes in one `FastRoutes`
 * (the compiled tree's 16-byte preorder records, trees one after another, one block of the
 * features any tree uses), so a block of rows is copied once and then walked through each tree
 * in turn while it sits in cache. A row that stops at a node the fast walk does not handle
 * (categorical or multiway splits, a missing value, a C-MBSV region) is finished by its tree's
 * own `CompiledTree` (`probaFrom`, `LeafFinder`), so every node kind predicts as a lone tree does.
 * The trees come as `ForestPart`s: a tree read from its store builds its `CompiledTree` only then.
 *
 * Per row, the trees' terms are added in tree order, as `combineTrees` adds them: the
 * probabilities are the same bits as the per-tree path's.
 */
/**
 * Rows per block: each tree's records are walked by a whole block while they are in cache, so the
 * larger the better, up to a block of about 4 MB (2^19 values).
 */
export function forestBlock(features: number): number {
  let block = 256;
  while (block < 16384 && block * 2 * Math.max(1, features) <= 2 ** 19) block *= 2;
  return block;
}

export class CompiledForest {
  private readonly routes: FastRoutes;
  private readonly stops: Int32Array;

  /**
   * The plain leaves' class distributions (their trees' `proba` rows), in stop order: read in
   * sequence. A plain leaf's stop is tagged (`FastRoutes.tagStop`) with where its distribution
   * starts here; any other stop with -2 - its id.
   */
  private readonly leafProba: Float64Array;

  /** `block`: rows per block (a multiple of 4; `forestBlock` of the features the fast nodes use by default). */
  constructor(
    readonly trees: readonly ForestPart[],
    block?: number,
  ) {
    this.routes = new FastRoutes(trees, (v, t) => trees[t].leafCodeOf(v), block ?? forestBlock);
    this.stops = new Int32Array(this.routes.block);
    const { orig, leafCode, roots } = this.routes;
    const k = trees[0].classes;
    let leaves = 0;
    for (let id = 0; id < orig.length; id++) if (leafCode[id] >= 0) leaves++;
    this.leafProba = new Float64Array(leaves * k);
    let at = 0;
    for (let t = 0; t < trees.length; t++) {
      const end = t + 1 < trees.length ? roots[t + 1] >> 2 : orig.length;
      const tree = trees[t];
      for (let id = roots[t] >> 2; id < end; id++) {
        if (leafCode[id] === -1) {
          // Not a plain leaf: a fast node (never reported) or a stop the tree's compiled form finishes.
          if (this.routes.isStop(id)) this.routes.tagStop(id, -2 - id);
          continue;
        }
        this.routes.tagStop(id, at);
        tree.leafProbaInto(orig[id], this.leafProba, at);
        at += k;
      }
    }
  }

  /**
   * The forest's class probabilities, row-major (k classes): the mean over trees of their
   * probabilities (`proba`) or of one vote each (`majority`). `policies[t]` is tree t's C-MBSV policy.
   */
  predictProba(
    columns: AlignedColumn[],
    nRows: number,
    vote: ForestVote,
    policies: readonly UnclassifiedPolicy[],
  ): Float64Array {
    const trees = this.trees;
    const k = trees[0].classes;
    const sum = new Float64Array(nRows * k);
    const row = new Float64Array(k);
    const { orig } = this.routes;
    const { leafProba, stops } = this;
    const block = this.routes.block;
    const majority = vote === 'majority';
    for (let base = 0; base < nRows; base += block) {
      const count = Math.min(block, nRows - base);
      this.routes.fill(columns, base, count);
      for (let t = 0; t < trees.length; t++) {
        this.routes.walk(t, count, stops, true);
        for (let j = 0, at = base * k; j < count; j++, at += k) {
          // The stop's tag: a plain leaf's distribution in `leafProba`, -2 - the id of another
          // stop, -1 for a missing value.
          const leaf = stops[j];
          if (leaf >= 0 && !majority) {
            // A plain leaf: its own distribution, as `probaFrom` would copy it.
            for (let c = 0; c < k; c++) sum[at + c] += leafProba[leaf + c];
            continue;
          }
          let p = leafProba;
          let from = leaf;
          if (leaf < 0) {
            trees[t]
              .compiledTree()
              .probaFrom(columns, base + j, leaf === -1 ? 0 : orig[-2 - leaf], row, 0, policies[t]);
            p = row;
            from = 0;
          }
          if (majority) addVote(p, from, k, sum, at);
          else for (let c = 0; c < k; c++) sum[at + c] += p[from + c];
        }
      }
    }
    const n = trees.length;
    for (let i = 0; i < sum.length; i++) sum[i] /= n;
    return sum;
  }

  /** The leaf each row reaches in each tree, row-major (`[i * trees + t]`), as `applyLeaves` finds it. */
  apply(columns: AlignedColumn[], nRows: number): Int32Array {
    const trees = this.trees.map((part) => part.compiledTree());
    const nt = trees.length;
    const out = new Int32Array(nRows * nt);
    const finders = trees.map((tree) => new LeafFinder(tree));
    const { orig } = this.routes;
    const stops = this.stops;
    const block = this.routes.block;
    for (let base = 0; base < nRows; base += block) {
      const count = Math.min(block, nRows - base);
      this.routes.fill(columns, base, count);
      for (let t = 0; t < nt; t++) {
        const tree = trees[t];
        this.routes.walk(t, count, stops);
        for (let j = 0; j < count; j++) {
          const stop = stops[j];
          const v = stop < 0 ? 0 : orig[stop];
          out[(base + j) * nt + t] = tree.isLeaf(v) ? v : finders[t].leafFrom(columns, base + j, v);
        }
      }
    }
    return out;
  }
}
