/**
 * "Which branch does this value take" has one definition (src/model/route.ts). These tests check
 * that the other places that decide or describe a branch agree with it: the fast path's inline
 * single-threshold rule, the compiled predictor's walk, pruning's row router and the branch
 * descriptions the exporters print.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/random.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { branchCondition } from '../../src/export/conditions.js';
import { CompiledTree } from '../../src/model/compiled.js';
import { BLOCK, FastRoutes } from '../../src/model/fast-routes.js';
import type { TreeNode } from '../../src/model/node.js';
import {
  branchCount,
  branchDomain,
  categoryBranch,
  categoryBranches,
  categoryTableSize,
  NO_BRANCH,
  numericBranch,
  rowRouter,
} from '../../src/model/route.js';
import type { FeatureSchema } from '../../src/model/schema.js';
import type { Split } from '../../src/model/split.js';
import { arraySource } from '../../src/model/store.js';

const f32 = Math.fround;
const next = (x: number, dir: 1 | -1): number => {
  if (x === 0) return dir * Number.MIN_VALUE;
  const buf = new Float64Array([x]);
  const bits = new BigInt64Array(buf.buffer);
  bits[0] += (x > 0 ? 1n : -1n) * BigInt(dir);
  return buf[0];
};

/** Thresholds and values that sit on the edges of the rule `x <= t`. */
const THRESHOLDS = [0, -0, 1.5, -2.25, f32(0.1), 0.1, 1e300, -1e-300, Number.MAX_VALUE];
function edgeValues(t: number): number[] {
  return [
    t,
    next(t, 1),
    next(t, -1),
    f32(t),
    f32(next(t, 1)),
    0,
    -0,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.MIN_VALUE,
    -Number.MIN_VALUE,
    f32(0.1),
    0.1,
  ];
}

const NUMERIC_FEATURE: FeatureSchema[] = [{ name: 'x', kind: 'numeric' }];

/** A root split on x with `thresholds`, one leaf per branch (leaf b is node 1 + b). */
function stump(thresholds: number[]): TreeNode[] {
  const branches = thresholds.length + 1;
  const leaves = Array.from({ length: branches }, (_, b): TreeNode => ({ counts: [b + 1, 1], n: 1, depth: 1 }));
  return [
    {
      counts: [0, 0],
      n: 0,
      depth: 0,
      split: { kind: 'numeric', feature: 0, thresholds },
      children: leaves.map((_, b) => 1 + b),
    },
    ...leaves,
  ];
}

/** The fast path's branch for each value (`NO_BRANCH` where it sends the row back to the root). */
function fastBranches(tree: CompiledTree, column: Float64Array | Float32Array): number[] {
  const fast = FastRoutes.of(tree, () => -1);
  const out: number[] = [];
  const stops = new Int32Array(BLOCK);
  for (let base = 0; base < column.length; base += BLOCK) {
    const count = Math.min(BLOCK, column.length - base);
    fast.route([column], base, count, stops);
    for (let j = 0; j < count; j++) out.push(stops[j] < 0 ? NO_BRANCH : fast.orig[stops[j]] - 1);
  }
  return out;
}

describe('the fast path takes the branch numericBranch gives', () => {
  for (const t of THRESHOLDS) {
    it(`threshold ${Object.is(t, -0) ? '-0' : t}`, () => {
      const tree = new CompiledTree(arraySource(stump([t])), NUMERIC_FEATURE, 2);
      const values = edgeValues(t);
      const known = values.filter((x) => !Number.isNaN(x));
      // Known values only: walked four in lockstep (and the remainder one at a time). Then each value
      // in a group with a NaN: walked one at a time. Then as float32 columns.
      const layouts = [known, values.flatMap((x) => [x, Number.NaN, 1, 2])];
      for (const layout of layouts) {
        for (const column of [Float64Array.from(layout), Float32Array.from(layout)]) {
          const expected = Array.from(column, (x) => numericBranch([t], x));
          expect(fastBranches(tree, column)).toEqual(expected);
          const viaRoute = Array.from(column, (_, i) => tree.route([column], i));
          expect(viaRoute).toEqual(expected.map((b) => (b === NO_BRANCH ? -1 : 1 + b)));
        }
      }
    });
  }
});

describe("a tagged walk reports the tag kept in the stop's threshold", () => {
  it('the same stops as by id, each as its tag (any int32 but -1), -1 for a missing value', () => {
    const tree = new CompiledTree(arraySource(stump([0.5])), NUMERIC_FEATURE, 2);
    const values = [...edgeValues(0.5), ...edgeValues(0.5).flatMap((x) => [x, Number.NaN, 1, 2])];
    const column = Float64Array.from(values);
    const fast = FastRoutes.of(tree, () => -1);
    const byId = new Int32Array(BLOCK);
    const tagged = new Int32Array(BLOCK);
    const tagOf = (id: number) => (id % 2 === 0 ? -2 - id : 1_000_000 + id);
    for (let id = 0; id < fast.orig.length; id++) if (fast.isStop(id)) fast.tagStop(id, tagOf(id));
    expect(fast.isStop(0)).toBe(false);
    for (let base = 0; base < column.length; base += BLOCK) {
      const count = Math.min(BLOCK, column.length - base);
      fast.fill([column], base, count);
      fast.walk(0, count, byId);
      fast.walk(0, count, tagged, true);
      for (let j = 0; j < count; j++) {
        expect(tagged[j]).toBe(byId[j] < 0 ? -1 : tagOf(byId[j]));
        // Tagged stops still stop the walk where numericBranch says.
        expect(byId[j] < 0 ? NO_BRANCH : fast.orig[byId[j]] - 1).toBe(numericBranch([0.5], column[base + j]));
      }
    }
  });
});

describe('the compiled walk of a multi-threshold node takes the branch numericBranchAt gives', () => {
  it('on edge values of each threshold', () => {
    const thresholds = [-1, f32(0.1), 0, 2.5].sort((a, b) => a - b);
    const tree = new CompiledTree(arraySource(stump(thresholds)), NUMERIC_FEATURE, 2);
    const column = Float64Array.from(thresholds.flatMap(edgeValues));
    for (let i = 0; i < column.length; i++) {
      const b = numericBranch(thresholds, column[i]);
      // A missing value at a node without missingBranch: the walk stops there (-1 - node).
      expect(tree.route([column], i)).toBe(b === NO_BRANCH ? -1 : 1 + b);
    }
  });
});

function randomCategorical(random: () => number): Exclude<Split, { kind: 'numeric' }> {
  const codes = Array.from({ length: 12 }, (_, v) => v).filter(() => random() < 0.7);
  for (let i = codes.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [codes[i], codes[j]] = [codes[j], codes[i]];
  }
  if (random() < 0.5) return { kind: 'multiway', feature: 1, values: codes };
  const cut = Math.max(1, Math.floor(codes.length / 3));
  return { kind: 'subset', feature: 1, left: codes.slice(0, cut), right: codes.slice(cut) };
}

describe('branchDomain describes exactly the values each branch receives', () => {
  it('numeric splits: value in (low, high] ⇔ numericBranch gives the branch', () => {
    const random = mulberry32(5);
    for (let trial = 0; trial < 50; trial++) {
      const thresholds = [
        ...new Set(Array.from({ length: 1 + Math.floor(random() * 4) }, () => Math.round(random() * 20) / 4)),
      ].sort((a, b) => a - b);
      const split: Split = { kind: 'numeric', feature: 0, thresholds };
      for (const x of thresholds.flatMap(edgeValues)) {
        const b = numericBranch(thresholds, x);
        for (let c = 0; c < branchCount(split); c++) {
          const d = branchDomain(split, c);
          if (d.kind !== 'interval') throw new Error('numeric split described by categories');
          const inside = (d.low === undefined || x > d.low) && (d.high === undefined || x <= d.high);
          expect(inside).toBe(b === c);
        }
      }
    }
  });

  it('categorical splits: code listed ⇔ categoryBranch gives the branch; the row router agrees', () => {
    const random = mulberry32(9);
    const data = datasetFromRows(
      Array.from({ length: 14 }, (_, v) => ({ x: v, c: v < 12 ? `k${v}` : '', y: v % 2 ? 'a' : 'b' })),
    );
    const column = data.features[1];
    if (column.kind !== 'categorical') throw new Error('expected a categorical column');
    for (let trial = 0; trial < 50; trial++) {
      const split = randomCategorical(random);
      const table = categoryBranches(split, categoryTableSize(split));
      const route = rowRouter(split, data);
      for (let code = -1; code < 14; code++) {
        const b = categoryBranch(table, code);
        for (let c = 0; c < branchCount(split); c++) {
          const d = branchDomain(split, c);
          if (d.kind !== 'categories') throw new Error('categorical split described by an interval');
          expect(d.codes.includes(code)).toBe(b === c);
        }
      }
      for (let r = 0; r < data.nRows; r++) {
        const code = column.codes[r];
        const name = code < 0 ? undefined : column.categories[code];
        const modelCode = name === undefined ? -1 : Number(name.slice(1));
        expect(route(r)).toBe(categoryBranch(table, modelCode));
      }
    }
  });

  it('branchCondition prints the domain', () => {
    const features: FeatureSchema[] = [
      { name: 'x', kind: 'numeric' },
      { name: 'c', kind: 'categorical', categories: ['red', 'green', 'blue'] },
    ];
    const numeric: Split = { kind: 'numeric', feature: 0, thresholds: [1, 2.5] };
    expect([0, 1, 2].map((b) => branchCondition(numeric, b, features))).toEqual(['x <= 1', '1 < x <= 2.5', 'x > 2.5']);
    const subset: Split = { kind: 'subset', feature: 1, left: [2], right: [0, 1] };
    expect([0, 1].map((b) => branchCondition(subset, b, features))).toEqual(['c = blue', 'c in {red, green}']);
    const multiway: Split = { kind: 'multiway', feature: 1, values: [1, 0] };
    expect([0, 1].map((b) => branchCondition(multiway, b, features))).toEqual(['c = green', 'c = red']);
  });
});
