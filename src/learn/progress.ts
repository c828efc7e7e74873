/** How far a tree's growth is, as `fit`'s `onProgress` hears it. */
export interface GrowProgress {
  /** Nodes grown so far (leaves and splits). */
  nodes: number;
  /** Training weight that has reached a finished leaf: from 0 to `weight`, which it equals at the end. */
  settled: number;
  /** The training weight of the rows the tree grows on. */
  weight: number;
}

/** Nodes between reports at least, whatever the time. */
const REPORT_NODES = 256;
/** Milliseconds between reports at most while nodes are grown (a big node's split can take long). */
const REPORT_MS = 100;

/**
 * Counts a growing tree's nodes and settled weight for a progress callback, which it calls every
 * `REPORT_NODES` nodes or `REPORT_MS` milliseconds, whichever comes first, and once at the end
 * (`finish`): per batch of nodes, never per row, so a fit pays nothing measurable for it.
 */
export class GrowMeter {
  private nodes = 0;
  private settled = 0;
  private last = Date.now();

  constructor(
    private readonly weight: number,
    private readonly report: (progress: GrowProgress) => void,
  ) {}

  /** A node of class weights `totals` recorded; `leaf`: it stays a leaf, so its weight is settled. */
  node(totals: Float64Array, leaf: boolean): void {
    if (leaf) this.settled += totalOf(totals);
    this.count(1);
  }

  /** A subtree grown elsewhere (a worker thread): `nodes` nodes, all its root's weight (`totals`) settled. */
  subtree(totals: Float64Array, nodes: number): void {
    this.settled += totalOf(totals);
    this.count(nodes);
  }

  /** The tree is grown: the last report, every weight settled. */
  finish(nodes: number): void {
    this.report({ nodes, settled: this.weight, weight: this.weight });
  }

  private count(nodes: number): void {
    const before = this.nodes;
    this.nodes += nodes;
    const now = Date.now();
    if (Math.floor(before / REPORT_NODES) === Math.floor(this.nodes / REPORT_NODES) && now - this.last < REPORT_MS)
      return;
    this.last = now;
    // Rounding may carry the sum a hair past the total before the end.
    this.report({ nodes: this.nodes, settled: Math.min(this.settled, this.weight), weight: this.weight });
  }
}

function totalOf(totals: Float64Array): number {
  let s = 0;
  for (let c = 0; c < totals.length; c++) s += totals[c];
  return s;
}

/**
 * `grow(meter)` with a meter reporting to `onProgress` (none when it is undefined), finished with
 * the grown tree's node count (`size`): the progress of one tree grown on rows of weights `weights`.
 */
export function metered<T>(
  weights: Float64Array,
  onProgress: ((progress: GrowProgress) => void) | undefined,
  grow: (meter: GrowMeter | undefined) => T,
  size: (tree: T) => number,
): T {
  if (!onProgress) return grow(undefined);
  let weight = 0;
  for (let i = 0; i < weights.length; i++) weight += weights[i];
  const meter = new GrowMeter(weight, onProgress);
  const tree = grow(meter);
  meter.finish(size(tree));
  return tree;
}
