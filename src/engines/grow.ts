/**
 * The in-database grower's nodes: each open node's class histograms (counted, or its parent's
 * minus its siblings'), the split `expandNode` chooses from them, and the routes the next level's
 * rows take (routing.ts). The level loop is level-loop.ts.
 */
import { argMax } from '../core/extent.js';
import type { Column } from '../data/dataset.js';
import { type Branches, type GrowEntry, type NodeExpansion, rootGrowEntry } from '../learn/expand.js';
import { assignFromHistogram, codeBranches, missingShares } from '../learn/hist-branches.js';
import { type ChosenSplit, chooseSplit } from '../learn/split-policy.js';
import { TreeStore } from '../model/store.js';
import type { ResolvedOptions } from '../options/options.js';
import type { Candidate } from '../split/candidate.js';
import { EntryPool } from '../split/entries.js';
import { FeatureEvaluator } from '../split/evaluate.js';
import type { BinnedFeature } from '../split/histogram.js';
import { exactZeros, HistogramPool, subtractSiblings } from '../split/histogram-pool.js';
import type { HistLayout, NodeHists } from './level-counts.js';
import type { RouteState } from './routing.js';
import type { EngineSchema } from './schema.js';
import type { Route } from './step-sql.js';

/** A node of the frontier: its class histograms (HistGrower's layout) while its level is expanded. */
export interface EngineEntry extends GrowEntry {
  hist: Float64Array | null;
  /** With weighted rows, the rows of each class in the histogram's class slots (exactZeros). */
  classRows: Float64Array | null;
  /** The node's slot in its level's rows (the `node` column of the level table). */
  slot: number;
}

/**
 * The nodes of a level that share a parent: those whose histograms are counted (`counted`, with
 * their entries, null for a leaf sibling counted only to subtract), and the open child whose
 * histogram is the parent's minus its siblings' (`derived`), as the in-memory grower makes them.
 */
export interface Family {
  parent: EngineEntry | null;
  counted: { id: number; entry: EngineEntry | null }[];
  derived: EngineEntry | null;
  /** The slot of `counted[0]`; the others follow. */
  first: number;
}

/**
 * Histogram cells of parents kept for their largest child's histogram (by subtraction) at most;
 * beyond, a parent's children are all counted.
 */
const KEPT_CELLS = 1 << 22;

/**
 * The node expansion of growth in a database: each node's counts form a class histogram in
 * `HistGrower`'s layout, and `expandNode` with the histogram scanners does the rest, so the tree
 * is the one histogram mode grows in memory from the same bins. The largest child's counts are
 * its parent's minus its siblings'.
 */
export class EngineGrower implements NodeExpansion<EngineEntry, ChosenSplit>, RouteState {
  readonly k: number;
  readonly d: number;
  readonly nodes: TreeStore;
  readonly nBins: number[];
  readonly layout: HistLayout;
  /** Histograms no node holds, for reuse. */
  readonly pool: HistogramPool;
  readonly routes = new Map<number, Route>();
  /** The nodes split in the level being expanded, and their routes (the next level's step). */
  readonly routedChildren = new Map<number, Route>();
  /** The slots of the nodes split in the level being expanded. */
  readonly slotOf = new Map<number, number>();
  private readonly stride: number;
  private readonly offset: Int32Array;
  private readonly histSize: number;
  private readonly evaluator: FeatureEvaluator;
  private readonly cands: Candidate[];
  /** The parent of each node made in the level being expanded. */
  private readonly parents = new Map<EngineEntry, EngineEntry>();
  /** A node's histograms: 2 with weighted rows (the class weights and the class rows), else 1. */
  private histsPerNode = 1;
  /** Parents' histograms kept for subtraction. */
  private kept = 0;
  private readonly codeBranch: Int32Array;
  private rootEntry: EngineEntry | null = null;

  constructor(
    schema: EngineSchema,
    private readonly binned: (BinnedFeature | null)[],
    readonly opts: ResolvedOptions,
    /**
     * C4.5's fractional missing values on rows with missing values: every open child is counted
     * (a child of a split with missing values holds more rows than its parent, none by subtraction).
     */
    readonly fractional = false,
  ) {
    this.k = schema.classes.length;
    this.d = schema.features.length;
    this.nodes = TreeStore.root(this.k);
    this.stride = this.k + 1;
    const columns: Column[] = schema.features.map((col) =>
      col.kind === 'numeric'
        ? { kind: 'numeric', name: col.name, values: new Float64Array(0) }
        : { kind: 'categorical', name: col.name, codes: new Int32Array(0), categories: col.categories },
    );
    this.nBins = schema.features.map((col, f) => (col.kind === 'numeric' ? binned[f]!.bins : col.categories.length));
    this.offset = new Int32Array(this.d);
    let size = 0;
    this.nBins.forEach((b, f) => {
      this.offset[f] = size;
      size += (b + 1) * this.stride;
    });
    this.histSize = size;
    this.pool = new HistogramPool(size);
    const none = new Int32Array(0);
    this.evaluator = new FeatureEvaluator(columns, EntryPool.over(none, none, new Float64Array(0)), this.k, opts);
    this.cands = columns.map(() => this.evaluator.newCandidate());
    let widest = this.evaluator.maxBranches;
    for (const b of this.nBins) if (b > widest) widest = b;
    this.codeBranch = new Int32Array(widest + 1);
    const { k, d, stride, offset } = this;
    this.layout = { k, d, stride, offset, codeCount: this.codeBranch.length };
  }

  /** The number of codes of the widest feature (and of a split's branches). */
  get codeCount(): number {
    return this.codeBranch.length;
  }

  /** True when a node's histograms include the class rows (weighted rows). */
  get weighted(): boolean {
    return this.histsPerNode === 2;
  }

  /** The root's entry, from its class weights and rows (`weighted`: rows differ in weight). */
  root(rows: number, totals: Float64Array, weighted: boolean): EngineEntry {
    if (weighted) this.histsPerNode = 2;
    this.evaluator.countRows(rows);
    this.rootEntry = { ...rootGrowEntry(rows, totals, this.opts), hist: null, classRows: null, slot: 0 };
    return this.rootEntry;
  }

  /** Best-first growth is refused in an engine (engines/fit.ts): the split is used as found. */
  hold(_entry: EngineEntry, chosen: ChosenSplit): ChosenSplit {
    return chosen;
  }

  resume(): void {}

  /** The families of level `depth` whose nodes are `frontier`: the root's alone at depth 0. */
  levelFamilies(depth: number, frontier: readonly EngineEntry[]): Family[] {
    if (depth > 0) return this.families(frontier);
    const root = this.rootEntry!;
    return root.leaf ? [] : [{ parent: null, counted: [{ id: 0, entry: root }], derived: null, first: 0 }];
  }

  /** Forget the level's splits once its rows are routed: the next level's splits come. */
  endLevel(): void {
    this.routedChildren.clear();
    this.slotOf.clear();
    this.parents.clear();
  }

  /** After `e`'s expansion: it keeps its histogram while its largest child needs it (made by subtraction). */
  expanded(e: EngineEntry): void {
    if (this.keepsHist(e)) this.kept++;
    else this.release(e);
  }

  /** The rows of the nodes in `slots` (the children of the families' parents): a new table's rows. */
  slotRows(families: Family[], slots: Map<number, number>): number {
    let rows = 0;
    for (const { parent } of families) {
      const route = this.routes.get(parent!.id)!;
      route.children.forEach((id, b) => {
        if (slots.has(id)) rows += route.sizes[b];
      });
    }
    return rows;
  }

  /** The families of a level in batches of at most `batchCells` histogram cells (a family is never split). */
  batches(families: Family[], batchCells: number): Family[][] {
    const batches: Family[][] = [];
    const size = this.histSize * this.histsPerNode;
    for (let lo = 0; lo < families.length; ) {
      let hi = lo + 1;
      let cells = families[lo].counted.length * size;
      while (hi < families.length && cells + families[hi].counted.length * size <= batchCells)
        cells += families[hi++].counted.length * size;
      batches.push(families.slice(lo, hi));
      lo = hi;
    }
    return batches;
  }

  /**
   * The open nodes of `frontier` grouped by parent. Of a parent's children, the largest's
   * histogram is the parent's minus its siblings' when it is open (its siblings, leaves
   * included, are then counted), as the in-memory grower does; else the open children are counted.
   */
  private families(frontier: readonly EngineEntry[]): Family[] {
    const byParent = new Map<EngineEntry, Map<number, EngineEntry>>();
    for (const e of frontier) {
      if (e.leaf) continue;
      const parent = this.parents.get(e)!;
      let open = byParent.get(parent);
      if (!open) byParent.set(parent, (open = new Map()));
      open.set(e.id, e);
    }
    const families: Family[] = [];
    for (const [parent, open] of byParent) {
      const route = this.routes.get(parent.id)!;
      const { sizes, children, leaf } = route;
      const largest = argMax(sizes);
      const subtract = !leaf[largest] && parent.hist !== null && !this.fractional;
      const counted: Family['counted'] = [];
      children.forEach((id, b) => {
        if (subtract ? b !== largest && sizes[b] > 0 : !leaf[b]) counted.push({ id, entry: open.get(id) ?? null });
      });
      if (!subtract && parent.hist) {
        this.kept--;
        this.release(parent);
      }
      families.push({ parent, counted, derived: subtract ? open.get(children[largest])! : null, first: 0 });
    }
    return families;
  }

  /** Slots of a level: the counted nodes 0 …, family by family, then the derived ones. */
  assignSlots(families: Family[]): Map<number, number> {
    const slots = new Map<number, number>();
    for (const family of families) {
      family.first = slots.size;
      for (const { id, entry } of family.counted) {
        if (entry) entry.slot = slots.size;
        slots.set(id, slots.size);
      }
    }
    for (const family of families)
      if (family.derived) {
        family.derived.slot = slots.size;
        slots.set(family.derived.id, slots.size);
      }
    return slots;
  }

  /**
   * The slots whose rows a level's table holds. A derived node's rows serve only to count its
   * children at the next level; when those are at the depth limit (leaves by `stopsHere`'s depth
   * rule: every node of a level has its depth), no query reads them, and only the counted nodes'
   * rows are kept.
   */
  rowSlots(level: number, families: Family[], slots: Map<number, number>): Map<number, number> {
    if (level + 1 < this.opts.maxDepth) return slots;
    const counted = new Map(slots);
    for (const { derived } of families) if (derived) counted.delete(derived.id);
    return counted;
  }

  /** True when the split of `e` (just expanded) makes its largest child's histogram by subtraction. */
  private keepsHist(e: EngineEntry): boolean {
    const route = this.routedChildren.get(e.id);
    if (!route || !e.hist || this.fractional) return false;
    if ((this.kept + 1) * this.histSize * this.histsPerNode > KEPT_CELLS) return false;
    const { sizes, leaf } = route;
    return !leaf[argMax(sizes)];
  }

  /**
   * Hand the counted histograms to a family's entries, make the derived child's (the parent's
   * minus its siblings'), and return the family's open nodes.
   */
  give(family: Family, hists: NodeHists[], first: number): EngineEntry[] {
    const open: EngineEntry[] = [];
    const mine = hists.slice(family.first - first, family.first - first + family.counted.length);
    family.counted.forEach(({ entry }, i) => {
      if (entry) {
        entry.hist = mine[i].hist;
        entry.classRows = mine[i].classRows;
        open.push(entry);
      }
    });
    const { parent, derived } = family;
    if (derived && parent?.hist) {
      derived.hist = parent.hist;
      derived.classRows = parent.classRows;
      parent.hist = null;
      parent.classRows = null;
      this.kept--;
      subtractSiblings(
        derived.hist,
        mine.map((m) => m.hist),
      );
      if (derived.classRows) {
        subtractSiblings(
          derived.classRows,
          mine.map((m) => m.classRows),
        );
        exactZeros(derived.hist, derived.classRows, this.k);
      }
      family.counted.forEach(({ entry }, i) => {
        if (!entry) {
          this.pool.give(mine[i].hist);
          this.pool.give(mine[i].classRows);
        }
      });
      open.push(derived);
    }
    return open;
  }

  /** Give back the histograms `e` holds. */
  private release(e: EngineEntry): void {
    this.pool.give(e.hist);
    this.pool.give(e.classRows);
    e.hist = null;
    e.classRows = null;
  }

  findSplit(entry: EngineEntry): ChosenSplit | null {
    const { hist, excluded } = entry;
    const { evaluator, cands, offset, binned } = this;
    for (let f = 0; f < this.d; f++) {
      if (excluded.includes(f)) cands[f].reset(f, 'numeric');
      else evaluator.fromHistogram(f, binned[f], hist!, offset[f], cands[f]);
    }
    return chooseSplit(cands, this.opts, evaluator.view);
  }

  /** The histogram of a node that stays a leaf is given back after its expansion (grow). */
  keepLeaf(): void {}

  /** The children's sizes and class weights from the node's histogram of the split feature. */
  assign(entry: EngineEntry, chosen: ChosenSplit, into: Branches): void {
    const f = chosen.split.feature;
    const table = codeBranches(chosen, this.nBins[f], this.codeBranch);
    assignFromHistogram(entry.hist!, this.offset[f], this.k, this.nBins[f], table, chosen, into);
  }

  /** Record the split for the next level's routing (no rows to move). */
  partition(entry: EngineEntry, chosen: ChosenSplit, branches: Branches, leaf: readonly boolean[]): number {
    const missingCode = this.nBins[chosen.split.feature];
    const table = codeBranches(chosen, missingCode, this.codeBranch).slice(0, missingCode + 1);
    const route: Route = {
      feature: chosen.split.feature,
      branchOfCode: table,
      children: new Int32Array(branches.count),
      sizes: branches.sizes.slice(),
      leaf: leaf.slice(),
      ...(branches.everyBranch > 0 ? { shares: missingShares(chosen) } : {}),
    };
    this.routes.set(entry.id, route);
    this.slotOf.set(entry.id, entry.slot);
    return 0;
  }

  child(parent: EngineEntry, b: number, base: GrowEntry): EngineEntry {
    const route = this.routes.get(parent.id)!;
    route.children[b] = base.id;
    this.routedChildren.set(parent.id, route);
    const entry = base as EngineEntry;
    entry.hist = null;
    entry.classRows = null;
    entry.slot = -1;
    this.parents.set(entry, parent);
    return entry;
  }
}
