import type { AlignedColumn, ForestPart, UnclassifiedPolicy } from '../model/compiled.js';
import { FastRoutes } from '../model/fast-routes.js';
import { LeafFinder } from '../model/paths.js';
import { isStopAt, tagStopAt } from '../model/route-walk.js';
import { addVote } from './combine.js';
import { type SharedSums, sumBlock, sumClaimed } from './forest-sums.js';
import type { ForestVote } from './settings.js';

/**
 * Rows per block: each tree's records are walked by a whole block while they are in cache, so the
 * larger the better, up to a block of about 4 MB (2^19 values).
 */
export function forestBlock(features: number): number {
  let block = 256;
  while (block < 16384 && block * 2 * Math.max(1, features) <= 2 ** 19) block *= 2;
  return block;
}

/**
 * Worker threads for `CompiledForest.predictProba` (threads/parallel-sums.ts registers them in
 * Node): `threads` resolves a `threads` option to a count, `run` starts `helpers` workers on
 * `job`, calls `here` (this thread's share) and returns once every block is summed; false when it
 * could not start them (then `here` was not called).
 */
export interface ParallelSums {
  threads(requested: number | 'auto'): number;
  run(job: SharedSums, helpers: number, here: () => void): boolean;
}

let parallelSums: ParallelSums | undefined;

/** Register (or with undefined remove) the worker threads `predictProba` may use. */
export function setParallelSums(p: ParallelSums | undefined): void {
  parallelSums = p;
}

/** Threads a forest's prediction may use for a `threads` option: 1 without registered workers. */
export function predictThreads(requested: number | 'auto'): number {
  return parallelSums ? parallelSums.threads(requested) : 1;
}

/** The used features' columns in shared memory (copied unless they are), the others empty. */
function sharedColumns(columns: AlignedColumn[], used: Int32Array): AlignedColumn[] {
  const out: AlignedColumn[] = columns.map(() => new Float64Array(0));
  for (const f of used) {
    const col = columns[f];
    if (col.buffer instanceof SharedArrayBuffer) out[f] = col;
    else {
      const copy = new (col.constructor as Float64ArrayConstructor)(new SharedArrayBuffer(col.byteLength));
      copy.set(col);
      out[f] = copy;
    }
  }
  return out;
}

/**
 * What a compiled forest keeps of each tree: its classes, and its compiled form for the stops the
 * walk leaves to it.
 */
export type ForestTree = Pick<ForestPart, 'classes' | 'compiledTree'>;

/**
 * Tag the stops among records `from`..`to` - 1 of one tree (`part`): a plain leaf (its `leafCode`
 * ≥ 0) with where its distribution starts in `leafProba` (from `at`, written there), any other stop
 * with -2 - its id. Returns where the next tree's distributions start.
 */
export function tagStops(
  rec: Int32Array,
  leafCode: Int32Array,
  orig: Int32Array,
  from: number,
  to: number,
  part: Pick<ForestPart, 'leafProbaInto'>,
  leafProba: Float64Array,
  at: number,
  k: number,
): number {
  for (let id = from; id < to; id++) {
    if (leafCode[id] === -1) {
      // Not a plain leaf: a fast node (never reported) or a stop the tree's compiled form finishes.
      if (isStopAt(rec, id)) tagStopAt(rec, id, -2 - id);
      continue;
    }
    tagStopAt(rec, id, at);
    part.leafProbaInto(orig[id], leafProba, at);
    at += k;
  }
  return at;
}

/**
 * `trees` as one compiled forest. `block`: rows per block (a multiple of 4; `forestBlock` of the
 * features the fast nodes use by default); `slots`: the most threads `predictProba` may use (its
 * records then shared).
 */
export function compileForest(trees: readonly ForestPart[], block?: number, slots = 1): CompiledForest {
  const routes = FastRoutes.of(trees, (v, t) => trees[t].leafCodeOf(v), block ?? forestBlock, slots);
  const { orig, leafCode, roots } = routes;
  const k = trees[0].classes;
  let leaves = 0;
  for (let id = 0; id < orig.length; id++) if (leafCode[id] >= 0) leaves++;
  const bytes = 8 * leaves * k;
  const leafProba = new Float64Array(slots > 1 ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
  const rec = new Int32Array(routes.parts.values.buffer);
  let at = 0;
  for (let t = 0; t < trees.length; t++) {
    const end = t + 1 < trees.length ? roots[t + 1] >> 2 : orig.length;
    at = tagStops(rec, leafCode, orig, roots[t] >> 2, end, trees[t], leafProba, at, k);
  }
  return new CompiledForest(trees, routes, leafProba, slots);
}

/**
 * A whole forest compiled for prediction: every tree's binary numeric nodes in one `FastRoutes`
 * (the compiled tree's 16-byte preorder records, trees one after another, one block of the
 * features any tree uses), so a block of rows is copied once and then walked through each tree
 * in turn while it sits in cache. A row that stops at a node the fast walk does not handle
 * (categorical or multiway splits, a missing value, a C-MBSV region) is finished by its tree's
 * own `CompiledTree` (`probaFrom`, `LeafFinder`), so every node kind predicts as a lone tree does.
 * The trees come as `ForestPart`s (`compileForest`), or laid out straight from a forest file's
 * sections (forest-compile.ts): a tree builds its `CompiledTree` only when a row needs it.
 *
 * Per row, the trees' terms are added in tree order, as `combineTrees` adds them: the
 * probabilities are the same bits as the per-tree path's.
 */
export class CompiledForest {
  private readonly stops: Int32Array;

  /**
   * `routes`: every tree's records, their stops tagged (`tagStops`); `leafProba`: the plain leaves'
   * class distributions (their trees' `proba` rows), in stop order, read in sequence. A plain
   * leaf's stop is tagged with where its distribution starts there; any other stop with -2 - its
   * id. `slots`: the most threads `predictProba` may use (the records and `leafProba` then in
   * SharedArrayBuffers).
   */
  constructor(
    readonly trees: readonly ForestTree[],
    private readonly routes: FastRoutes,
    private readonly leafProba: Float64Array,
    readonly slots = 1,
  ) {
    this.stops = new Int32Array(this.routes.block);
  }

  /**
   * The forest's class probabilities, row-major (k classes): the mean over trees of their
   * probabilities (`proba`) or of one vote each (`majority`). `policies[t]` is tree t's C-MBSV
   * policy. With `threads` > 1 (and worker threads registered, threads/parallel-sums.ts) blocks of
   * rows are summed on up to `threads` threads (at most the forest's `slots`), the same bits.
   */
  predictProba(
    columns: AlignedColumn[],
    nRows: number,
    vote: ForestVote,
    policies: readonly UnclassifiedPolicy[],
    threads = 1,
  ): Float64Array {
    const trees = this.trees;
    const k = trees[0].classes;
    const row = new Float64Array(k);
    const routes = this.routes;
    const { orig } = routes;
    const majority = vote === 'majority';
    const blocks = Math.ceil(nRows / routes.block);
    const helpers = Math.min(threads, this.slots, blocks) - 1;
    const shared = helpers > 0 && parallelSums !== undefined;
    const memory = (bytes: number) => (shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
    const sum = new Float64Array(memory(8 * nRows * k));
    const job: SharedSums = {
      parts: routes.parts,
      leafProba: this.leafProba,
      k,
      trees: trees.length,
      majority,
      columns: shared ? sharedColumns(columns, routes.parts.used) : columns,
      nRows,
      sum,
      counters: new Int32Array(memory(12)),
      givenBack: new Uint8Array(memory(blocks)),
    };
    // A stop the records do not finish: its tree's compiled form adds the row's term.
    const finish = (t: number, i: number, tag: number, at: number) => {
      trees[t].compiledTree().probaFrom(columns, i, tag === -1 ? 0 : orig[-2 - tag], row, 0, policies[t]);
      if (majority) addVote(row, 0, k, sum, at);
      else for (let c = 0; c < k; c++) sum[at + c] += row[c];
    };
    const here = () => sumClaimed(routes, job, finish);
    if (!shared || !parallelSums!.run(job, helpers, here)) here();
    for (let b = 0; b < blocks; b++) {
      if (job.givenBack[b] === 0) continue;
      // A worker's block with a stop only this thread can finish: summed again here.
      const base = b * routes.block;
      const count = Math.min(routes.block, nRows - base);
      sum.fill(0, base * k, (base + count) * k);
      routes.fill(job.columns, base, count);
      sumBlock(routes, job, base, count, this.stops, finish);
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
