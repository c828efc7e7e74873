import type { Dataset } from '../data/dataset.js';
import { asLeaf, total } from '../model/compact.js';
import type { TreeNode } from '../model/node.js';
import type { MissingPolicy } from '../options/options.js';
import { classCounts, type RoutedRows, routeSplit, type WeightedRows } from './recount.js';

/**
 * One call of C4.5's EstimateErrors in progress: the subtree at `id` for the rows `at`. Its
 * branches are estimated one after another (`next`), summed into `tree` in branch order; an
 * updating frame then estimates its largest branch on all of `at` (`comparing`) before it decides.
 */
interface Frame {
  id: number;
  at: WeightedRows;
  /** Rewrite counts from the rows and prune the subtree (leaf / raise / keep); else only estimate. */
  update: boolean;
  /** Every weight in `at` is a whole number (their sums are exact in any order). */
  whole: boolean;
  /** Some of `at` had an unknown branch at this node (their weight shared out among the branches). */
  unknown: boolean;
  /** The node's estimate as a leaf for `at`. */
  leaf: number;
  parts: WeightedRows[];
  next: number;
  tree: number;
  /** Largest branch by known-value weight: the one subtree raising would put in the node's place. */
  maxBr: number;
  comparing: boolean;
}

/** A frame of `Raiser.estimateWith`: the subtree at `id` for the extra rows split into `parts`. */
interface ExtraFrame {
  id: number;
  parts: WeightedRows[];
  next: number;
  tree: number;
}

/** `Raiser.enterWith`'s answers besides an estimate: a frame was pushed, or a row's branch was unknown. */
const PUSHED = -1;
const UNKNOWN = -2;

/**
 * C4.5's EstimateErrors with the rows that reach each node, on a mutable copy of the tree: raising
 * a branch copies its node (fields and child ids) into the raised node's slot, making a leaf
 * replaces the slot by `asLeaf`. Slots left unreachable are dropped when the copy is compacted.
 * The walk keeps its own stack of frames, so a tree's depth is bounded by memory, not the call stack.
 *
 * Estimating the largest branch on all of a node's rows is most of the work. When the branch was
 * just pruned on its own rows with whole weights and no unknown branch (`exact`), its leaves'
 * counts for all the rows are their stored counts plus the other branches' rows': only those are
 * routed (`estimateWith`), and a subtree they do not reach keeps its estimate from the pruning
 * (`own`). Sums of whole numbers are exact in any order, so the estimate is the same number.
 */
export class Raiser {
  private readonly k: number;
  /** Per slot, the subtree's estimate for the rows of its last update. */
  private readonly own: Float64Array;
  /** Per slot, whether its last update saw only whole weights and no unknown branch in the whole subtree. */
  private readonly exact: Uint8Array;
  private readonly routing: { missing: MissingPolicy; shares: 'routed' };
  /** How many largest branches were estimated from the other branches' rows alone (the shortcut). */
  shortcuts = 0;

  /**
   * @param nodes the tree, modified in place
   * @param leafEstimate predicted errors of a node as a leaf, from its class counts
   * @param tolerance a leaf (or a raised branch) is preferred when within this of the other estimates
   * @param shortcut route only the other branches' rows down an `exact` largest branch (false: every row, as C4.5)
   * @param rowCounts how many training rows each row of `data` stands for (default 1 each): a node's `n` counts them
   */
  constructor(
    readonly nodes: TreeNode[],
    private readonly data: Dataset,
    private readonly leafEstimate: (counts: ArrayLike<number>) => number,
    private readonly tolerance: number,
    missing: MissingPolicy,
    private readonly j48: boolean,
    private readonly shortcut = true,
    private readonly rowCounts?: ArrayLike<number>,
  ) {
    this.k = data.classes.length;
    this.own = new Float64Array(nodes.length);
    this.exact = new Uint8Array(nodes.length);
    this.routing = { missing, shares: 'routed' };
  }

  /**
   * Predicted errors of the subtree at `id` for the rows `at`. With `update`, counts are rewritten
   * from the rows and the subtree is pruned; without, it is left as it is.
   */
  estimate(id: number, at: WeightedRows, update: boolean): number {
    const stack: Frame[] = [];
    let result = this.enter(stack, id, at, update, update && wholeWeights(at));
    while (stack.length > 0) {
      const frame = stack[stack.length - 1];
      if (result !== undefined) {
        if (frame.comparing) {
          stack.pop();
          result = this.decide(stack, frame, result);
          continue;
        }
        frame.tree += result;
        frame.next++;
      }
      const { children } = this.nodes[frame.id];
      if (frame.next < frame.parts.length) {
        const whole = frame.whole && !frame.unknown;
        result = this.enter(stack, children![frame.next], frame.parts[frame.next], frame.update, whole);
      } else if (frame.update) {
        frame.comparing = true;
        result = this.compareBranch(stack, frame);
      } else {
        stack.pop();
        result = frame.tree;
      }
    }
    return result!;
  }

  /**
   * `at` down the branches of split node `node`, the children's training weight (B·k sums) summed only if a
   * row needs it.
   */
  private route(node: TreeNode, at: WeightedRows): RoutedRows {
    const children = node.children!;
    const stored = () => children.map((c) => total(this.nodes[c].counts));
    return routeSplit(node.split!, children.length, stored, this.data, at, this.routing, node.missingBranch);
  }

  /** Start estimating `id`: its value when it is a leaf, else undefined with its frame pushed. */
  private enter(stack: Frame[], id: number, at: WeightedRows, update: boolean, whole: boolean): number | undefined {
    const node = this.nodes[id];
    const isLeaf = !node.split || !node.children;
    let leaf = 0;
    if (update || isLeaf) {
      const counts = classCounts(this.data, at, this.k);
      leaf = this.leafEstimate(counts);
      if (update) {
        node.counts = counts;
        node.n = this.rowsIn(at);
      }
    }
    if (isLeaf) {
      if (update) this.settle(id, leaf, whole);
      return leaf;
    }
    const { parts, known, unknown } = this.route(node, at);
    let maxBr = 0;
    let maxWeight = -1;
    for (let b = 0; b < parts.length; b++) {
      // C4.5 takes the last of equally heavy branches (Factor >= MaxFactor), J48 the first.
      if (this.j48 ? known[b] > maxWeight : known[b] >= maxWeight) {
        maxWeight = known[b];
        maxBr = b;
      }
    }
    const frame = {
      id,
      at,
      update,
      whole,
      unknown: unknown > 0,
      leaf,
      parts,
      next: 0,
      tree: 0,
      maxBr,
      comparing: false,
    };
    stack.push(frame);
    return undefined;
  }

  /** The training rows `at` stands for. */
  private rowsIn(at: WeightedRows): number {
    const counts = this.rowCounts;
    if (!counts) return at.rows.length;
    let n = 0;
    for (let i = 0; i < at.rows.length; i++) n += counts[at.rows[i]];
    return n;
  }

  /** Record the estimate of updated slot `id` for its rows, and whether it is `exact`. */
  private settle(id: number, estimate: number, exact: boolean): number {
    this.own[id] = estimate;
    this.exact[id] = exact ? 1 : 0;
    return estimate;
  }

  /**
   * An updating frame with its branches pruned: estimate its largest branch on all of its rows,
   * from the other branches' rows alone when that branch is `exact` (undefined: a frame pushed).
   */
  private compareBranch(stack: Frame[], frame: Frame): number | undefined {
    const { children } = this.nodes[frame.id];
    const branch = children![frame.maxBr];
    if (this.shortcut && frame.whole && !frame.unknown && this.exact[branch]) {
      const quick = this.estimateWith(branch, others(frame.parts, frame.maxBr));
      if (quick !== undefined) {
        this.shortcuts++;
        return quick;
      }
    }
    return this.enter(stack, branch, frame.at, false, false);
  }

  /**
   * An updating frame, its branches pruned and its largest branch estimated on all its rows
   * (`branch`): keep the subtree, make a leaf, or raise the branch and estimate it afresh in the
   * frame's place (undefined: that frame is pushed).
   */
  private decide(stack: Frame[], frame: Frame, branch: number): number | undefined {
    const { id, at, leaf, tree } = frame;
    if (leaf <= branch + this.tolerance && leaf <= tree + this.tolerance) {
      this.nodes[id] = asLeaf(this.nodes[id]);
      return this.settle(id, leaf, frame.whole);
    }
    if (branch <= tree + this.tolerance) {
      this.nodes[id] = { ...this.nodes[this.nodes[id].children![frame.maxBr]] };
      return this.enter(stack, id, at, true, frame.whole);
    }
    const exact = frame.whole && !frame.unknown && this.nodes[id].children!.every((c) => this.exact[c] === 1);
    return this.settle(id, tree, exact);
  }

  /**
   * The estimate of the `exact` subtree at `id` for the rows of its last update and `extra` (whole
   * weights), summed as `estimate` sums it; undefined when an extra row's branch is unknown at a
   * node (its share would depend on the other rows: the caller routes all of them instead).
   */
  private estimateWith(id: number, extra: WeightedRows): number | undefined {
    const stack: ExtraFrame[] = [];
    let result = this.enterWith(stack, id, extra);
    while (result !== UNKNOWN && stack.length > 0) {
      const frame = stack[stack.length - 1];
      if (result !== PUSHED) {
        frame.tree += result;
        frame.next++;
      }
      if (frame.next < frame.parts.length) {
        result = this.enterWith(stack, this.nodes[frame.id].children![frame.next], frame.parts[frame.next]);
      } else {
        stack.pop();
        result = frame.tree;
      }
    }
    return result === UNKNOWN ? undefined : result;
  }

  /** `estimateWith`'s step: the estimate at `id` when no frame is needed, else PUSHED (or UNKNOWN). */
  private enterWith(stack: ExtraFrame[], id: number, extra: WeightedRows): number {
    if (extra.rows.length === 0) return this.own[id];
    const node = this.nodes[id];
    if (!node.split || !node.children) {
      const counts = classCounts(this.data, extra, this.k);
      for (let c = 0; c < this.k; c++) counts[c] += node.counts[c];
      return this.leafEstimate(counts);
    }
    const { parts, unknown } = this.route(node, extra);
    if (unknown > 0) return UNKNOWN;
    stack.push({ id, parts, next: 0, tree: 0 });
    return PUSHED;
  }
}

/** Whether every weight of `at` is a whole number and their total below 2⁵³ (so every partial sum is exact). */
function wholeWeights(at: WeightedRows): boolean {
  let sum = 0;
  for (let i = 0; i < at.w.length; i++) {
    if (!Number.isInteger(at.w[i])) return false;
    sum += at.w[i];
  }
  return sum < Number.MAX_SAFE_INTEGER;
}

/** The rows of every part but `skip`, one after another. */
function others(parts: WeightedRows[], skip: number): WeightedRows {
  let m = 0;
  for (let b = 0; b < parts.length; b++) if (b !== skip) m += parts[b].rows.length;
  const rows = new Int32Array(m);
  const w = new Float64Array(m);
  let at = 0;
  for (let b = 0; b < parts.length; b++) {
    if (b === skip) continue;
    rows.set(parts[b].rows, at);
    w.set(parts[b].w, at);
    at += parts[b].rows.length;
  }
  return { rows, w };
}
