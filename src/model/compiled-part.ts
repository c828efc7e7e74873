import type { CompiledTree, ForestPart } from './compiled.js';
import { storeProbaInto } from './compiled-layout.js';
import type { NodeInts, TreeStore } from './store.js';

const LEAF = 0;
const NUMERIC = 1;
/** Any split the fast walk leaves to the compiled tree (several thresholds, categories). */
const OTHER = 2;

/**
 * A tree's store as a `ForestPart`. A binary numeric split (a store's `feature` ≥ 0) is a fast
 * node with its threshold at its `splitIndex`; every other split is a stop. A leaf that weighs nothing
 * (it may inherit its parent's distribution, `CompiledTree.inherit`) is left to the compiled tree.
 */
export class StorePart implements ForestPart {
  readonly kind: Uint8Array;
  readonly feature: NodeInts;
  readonly firstChild: Int32Array;
  readonly paramStart: Int32Array;
  readonly paramCount: Uint8Array;
  readonly thresholds: Float64Array;
  readonly classes: number;

  constructor(
    private readonly store: TreeStore,
    private readonly compile: () => CompiledTree,
  ) {
    const m = store.size;
    this.classes = store.classes;
    this.kind = new Uint8Array(m);
    this.paramStart = new Int32Array(m);
    const { branches, feature } = store;
    for (let i = 0; i < m; i++) {
      this.kind[i] = branches[i] === 0 ? LEAF : feature[i] >= 0 ? NUMERIC : OTHER;
      this.paramStart[i] = this.kind[i] === NUMERIC ? store.splitIndex(i) : 0;
    }
    // A fast node has one threshold (kind 1), a stop does not (0 or 2): the walk only asks that.
    this.paramCount = this.kind;
    this.feature = store.feature;
    this.firstChild = store.firstChild;
    this.thresholds = store.threshold;
  }

  leafCodeOf(node: number): number {
    return this.kind[node] === LEAF && this.store.counts.total(node) > 0 ? this.store.counts.majority(node) : -1;
  }

  leafProbaInto(node: number, out: Float64Array, at: number): void {
    storeProbaInto(this.store.counts, node, this.classes, out, at);
  }

  compiledTree(): CompiledTree {
    return this.compile();
  }
}
