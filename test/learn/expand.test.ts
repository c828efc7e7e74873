import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { GroveError } from '../../src/core/errors.js';
import { gainRatio } from '../../src/criteria/gain.js';
import { registerCriterion } from '../../src/criteria/registry.js';
import type { CountTable, Criterion } from '../../src/criteria/types.js';
import { DepthFirstGrower } from '../../src/learn/depth-first.js';
import type { Branches, GrowEntry } from '../../src/learn/expand.js';
import { rootGrowEntry } from '../../src/learn/expand.js';
import type { NodeSplit } from '../../src/learn/split-policy.js';
import { TreeStore } from '../../src/model/store.js';
import { readDataset } from '../../src/sources/file-source.js';
import { corpus, haveCorpus } from '../helpers/paths.js';

/**
 * A grower that keeps no rows: each node is a class-count vector per value of one ordinal
 * feature (a count table, as an in-database grower would get from GROUP BY), split at the middle
 * value while it has more than one value. It shows which pieces a grower supplies.
 */
class CountsGrower extends DepthFirstGrower<GrowEntry & { values: number[][] }> {
  readonly k = 2;
  readonly opts = { minSamplesSplit: 2, maxDepth: 10, purity: 1 };
  readonly leavesKept: number[] = [];
  private childValues: number[][][] = [];

  findSplit(entry: GrowEntry & { values: number[][] }): NodeSplit | null {
    if (entry.values.length < 2) return null;
    const cut = Math.floor(entry.values.length / 2) - 1;
    return {
      split: { kind: 'numeric', feature: 0, thresholds: [cut + 0.5] },
      branches: 2,
      missingBranch: 0,
      score: 1,
      improvement: 1,
    };
  }

  assign(entry: GrowEntry & { values: number[][] }, chosen: NodeSplit, into: Branches): void {
    const t = chosen.split.kind === 'numeric' ? chosen.split.thresholds[0] : 0;
    this.childValues = [[], []];
    entry.values.forEach((counts, v) => {
      const b = v <= t ? 0 : 1;
      this.childValues[b].push(counts);
      counts.forEach((n, c) => {
        into.sizes[b] += n;
        into.totals[b][c] += n;
      });
    });
  }

  partition(): number {
    return 0; // nothing to move: positions mean nothing here
  }

  child(_parent: GrowEntry, b: number, base: GrowEntry): GrowEntry & { values: number[][] } {
    return { ...base, values: this.childValues[b] };
  }

  override keepLeaf(entry: GrowEntry): void {
    this.leavesKept.push(entry.id);
  }
}

describe('expandNode', () => {
  it('grows from count tables alone: stats, stop rule, children ids depth-first, leaves told', () => {
    const grower = new CountsGrower();
    // Four values of one feature; class counts per value.
    const values = [
      [3, 0],
      [2, 1],
      [0, 4],
      [1, 1],
    ];
    const totals = Float64Array.from([6, 6]);
    const nodes = TreeStore.root(2);
    grower.grow(nodes, [{ ...rootGrowEntry(12, totals, grower.opts), values }]);
    const tree = nodes.toNodes();
    expect(tree.map((n) => n.counts)).toEqual([
      [6, 6],
      [5, 1],
      [1, 5],
      [3, 0],
      [2, 1],
      [0, 4],
      [1, 1],
    ]);
    expect(tree.map((n) => n.depth)).toEqual([0, 1, 1, 2, 2, 2, 2]);
    expect(tree[0].children).toEqual([1, 2]);
    expect(tree[1].children).toEqual([3, 4]);
    expect(tree[2].children).toEqual([5, 6]);
    // Pure nodes stop by the stop rule (no split search); impure single-value nodes are told they stay leaves.
    expect(grower.leavesKept).toEqual([4, 6]);
  });

  it('makes a split that leaves one branch with rows a leaf', () => {
    const grower = new CountsGrower();
    const values = [
      [0, 0],
      [2, 3],
    ];
    const nodes = TreeStore.root(2);
    grower.grow(nodes, [{ ...rootGrowEntry(5, Float64Array.from([2, 3]), grower.opts), values }]);
    expect(nodes.size).toBe(1);
    expect(grower.leavesKept).toEqual([0]);
  });
});

describe('criterion corrections', () => {
  it.skipIf(!haveCorpus)("apply C4.5's MDL correction through the criterion's own hook", async () => {
    const data = await readDataset(corpus('iris'));
    let calls = 0;
    const copy: Criterion = {
      ...gainRatio,
      name: 'gain-ratio-hooked',
      mdlCorrected(t: CountTable, unknownWeight: number, gain: number): number {
        calls++;
        return gainRatio.mdlCorrected!(t, unknownWeight, gain);
      },
    };
    registerCriterion(copy, { replace: true });
    const options = { mdlCorrection: true, prune: 'none' as const, categoricalSplit: 'multiway' as const };
    const hooked = fit(data, { ...options, criterion: 'gain-ratio-hooked' });
    const builtin = fit(data, { ...options, criterion: 'gain-ratio' });
    expect(calls).toBeGreaterThan(0);
    expect(hooked.nodes).toEqual(builtin.nodes);
    // Without the hook the correction only lowers the gain (read by C4.5's average-gain rule).
    const unhooked = fit(data, { ...options, criterion: registerPlain() });
    expect(unhooked.nodes[0].score).not.toBe(builtin.nodes[0].score);
  });

  it('rejects a hook that is not a function', () => {
    expect(() =>
      registerCriterion({ ...gainRatio, name: 'bad-hook', mdlCorrected: 3 as never }, { replace: true }),
    ).toThrow(GroveError);
  });
});

function registerPlain(): string {
  const { mdlCorrected: _hook, ...plain } = gainRatio;
  registerCriterion({ ...plain, name: 'gain-ratio-plain' }, { replace: true });
  return 'gain-ratio-plain';
}
