import { ENTRY, NEW_VALUE, type SortedSlice } from '../split/sorted-slice.js';
import type { PartitionScratch } from './partition.js';

/** What lazy partitioning keeps on each node entry. */
export interface LazyEntry {
  start: number;
  end: number;
  /** The node's number among those `LazySlices` has seen (also the time it was made). */
  serial: number;
  /**
   * Per feature: the serial of the nearest node, this one or an ancestor, whose positions of the
   * feature's sorted slice held exactly its entries in sorted order (its "source").
   */
  source: Int32Array;
}

/**
 * Lazy partitioning of the sorted slices, for growers that draw a few features per node
 * (`maxFeatures`): a split partitions only the slices of the features the node evaluated; a
 * feature a node draws whose slice is stale there is brought up to date from its source (the
 * nearest node where it was sorted) in one stable pass that sorts the source's range into the
 * nodes now under it. Eager partitioning moves every feature's slice at every split, most of them
 * never read below.
 *
 * Why a stale slice can be repaired: every operation on a slice (a partition at a node, a regroup
 * of a source's range) permutes entries within a node's range and keeps the relative order of
 * each open node's entries; so a source's range always holds exactly the source's entries, each
 * open node's in sorted order, and a stable scatter by node gives each open node its sorted slice.
 * The nodes under a source are found by `at`: the start of the node each entry was last placed
 * in (ids are partitioned at every split, eagerly).
 */
export class LazySlices {
  private serials = 0;
  private rangeStart = new Int32Array(256);
  private rangeEnd = new Int32Array(256);
  /** Per entry: the start of the node whose split last placed it. */
  private readonly at: Int32Array;
  /** Per node start: the next write position in a regroup. */
  private readonly cursor: Int32Array;
  /** Per node start: the count of value changes seen when it last took an entry. */
  private readonly lastMark: Int32Array;
  /** Per node start: the regroup that last set its cursor (regroups are numbered from 1). */
  private readonly stamp: Int32Array;
  private regroups = 0;
  /** Per feature: the serial of the node that last evaluated it. */
  private readonly evaluatedBy: Int32Array;
  /** (source serial × features + feature) → the time its range was regrouped for that feature. */
  private readonly regrouped = new Map<number, number>();

  constructor(
    entries: number,
    private readonly d: number,
  ) {
    this.at = new Int32Array(entries);
    this.cursor = new Int32Array(entries);
    this.lastMark = new Int32Array(entries);
    this.stamp = new Int32Array(entries);
    this.evaluatedBy = new Int32Array(d).fill(-1);
  }

  /** Number the root: every slice is sorted there. */
  root(entry: Omit<LazyEntry, 'serial' | 'source'> & Partial<LazyEntry>): void {
    entry.serial = this.newSerial(entry.start, entry.end);
    entry.source = new Int32Array(this.d).fill(entry.serial);
  }

  /** Whether feature `f`'s slice holds `entry`'s entries, sorted, at its positions. */
  private fresh(entry: LazyEntry, f: number): boolean {
    const s = entry.source[f];
    return s === entry.serial || (this.regrouped.get(s * this.d + f) ?? -1) > entry.serial;
  }

  /** Make `slice` (feature `f`'s) right at `entry`'s positions, and note that `entry` evaluates `f`. */
  prepare(entry: LazyEntry, f: number, slice: SortedSlice, work: PartitionScratch): void {
    this.evaluatedBy[f] = entry.serial;
    if (this.fresh(entry, f)) {
      entry.source[f] = entry.serial;
      return;
    }
    const s = entry.source[f];
    this.regroup(slice, this.rangeStart[s], this.rangeEnd[s], work);
    this.regrouped.set(s * this.d + f, ++this.serials);
    entry.source[f] = entry.serial;
  }

  /** Whether a split of `entry` partitions feature `f`'s slice: when the node evaluated it. */
  partitions(entry: LazyEntry, f: number): boolean {
    return this.evaluatedBy[f] === entry.serial;
  }

  /** After a split of `entry` partitioned the ids: each entry's node start (`ids[from..]`, branch by branch). */
  placed(ids: Int32Array, from: number, sizes: Int32Array, count: number): void {
    const { at } = this;
    let i = from;
    for (let b = 0; b < count; b++) {
      const start = i;
      for (const end = i + sizes[b]; i < end; i++) at[ids[i]] = start;
    }
  }

  /** Number `child` of `parent` and give it its sources. */
  child(parent: LazyEntry, child: Omit<LazyEntry, 'serial' | 'source'> & Partial<LazyEntry>): void {
    const serial = this.newSerial(child.start, child.end);
    const source = new Int32Array(this.d);
    for (let f = 0; f < this.d; f++)
      source[f] =
        this.evaluatedBy[f] === parent.serial ? serial : this.fresh(parent, f) ? parent.serial : parent.source[f];
    child.serial = serial;
    child.source = source;
  }

  private newSerial(start: number, end: number): number {
    const s = ++this.serials;
    if (s >= this.rangeStart.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(2 * a.length);
        b.set(a);
        return b;
      };
      this.rangeStart = grow(this.rangeStart);
      this.rangeEnd = grow(this.rangeEnd);
    }
    this.rangeStart[s] = start;
    this.rangeEnd[s] = end;
    return s;
  }

  /**
   * Stable scatter of `slice[from, to)` by each entry's node (`at`), marks kept true as in a k-way
   * `partitionSorted`: each node under the range gets its entries, sorted, at its positions.
   */
  private regroup(slice: SortedSlice, from: number, to: number, work: PartitionScratch): void {
    const { order, labs } = slice;
    const { at, cursor, lastMark, stamp } = this;
    const { ids: scratch, labs: scratchL } = work;
    const id = ++this.regroups;
    let seen = 0;
    for (let i = from; i < to; i++) {
      const x = order[i];
      if (x < 0) seen++;
      const e = x & ENTRY;
      const g = at[e];
      if (stamp[g] !== id) {
        stamp[g] = id;
        cursor[g] = g;
        lastMark[g] = -1;
      }
      const d = cursor[g]++;
      scratch[d] = lastMark[g] === seen ? e : e | NEW_VALUE;
      scratchL[d] = labs[i];
      lastMark[g] = seen;
    }
    order.set(scratch.subarray(from, to), from);
    labs.set(scratchL.subarray(from, to), from);
  }
}
