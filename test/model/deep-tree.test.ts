/**
 * Walks over a tree use explicit stacks, never recursion over depth: a 100,000-deep chain must
 * predict, spread C4.5 fractional missing values down to its bottom, export DOT and round-trip its
 * model file without a stack overflow, and every built-in pruner (error-based with subtree raising
 * too) must prune one to the number of leaves its rows call for, and the pruning helpers must copy
 * and recount one.
 *
 * Text and rules exports stay linear in the depth: text draws at most TEXT_MAX_INDENT levels of
 * indentation, and the rules of a tree higher than RULES_MERGE_HEIGHT merge each feature's tests.
 */
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { treeToDot } from '../../src/export/dot.js';
import { RULES_MERGE_HEIGHT, rulesToText, treeToRules } from '../../src/export/rules.js';
import { TEXT_MAX_INDENT, treeToText } from '../../src/export/text.js';
import { compactTree } from '../../src/model/compact.js';
import { DecisionTree } from '../../src/model/decision-tree.js';
import type { TreeNode } from '../../src/model/node.js';
import { pruneErrorBased } from '../../src/prune/error-based.js';
import { BUILTIN_PRUNERS, pruneTree } from '../../src/prune/index.js';
import { recount } from '../../src/prune/recount.js';

const DEPTH = 100_000;

/** A fitted model's file with the given nodes (the features: x numeric, c categorical a/b). */
function modelWith(nodes: TreeNode[]): DecisionTree {
  const data = datasetFromRows([
    { x: 1, c: 'a', y: 'no' },
    { x: 2, c: 'b', y: 'yes' },
  ]);
  const file = fit(data, { algorithm: 'c45' }).toJSON();
  return new DecisionTree({ ...file, nodes });
}

/**
 * Internal node of depth d has id 2d and children [2d + 1, 2d + 2]: branch 0 a leaf of class `no`,
 * branch 1 the rest of the chain (at the bottom, a leaf of class `yes`). Even depths test
 * `x <= d`, odd depths `c ∈ {a}`; no node has a missingBranch (C4.5's fractional policy).
 */
function chain(depth: number): TreeNode[] {
  const nodes: TreeNode[] = [];
  for (let d = 0; d < depth; d++) {
    const split: TreeNode['split'] =
      d % 2 === 0
        ? { kind: 'numeric', feature: 0, thresholds: [d] }
        : { kind: 'subset', feature: 1, left: [0], right: [1] };
    const below = depth - d; // leaves under this node's right branch, with the bottom one
    nodes.push({ counts: [below, 1], n: below + 1, depth: d, split, children: [2 * d + 1, 2 * d + 2] });
    nodes.push({ counts: [1, 0], n: 1, depth: d + 1 });
  }
  nodes.push({ counts: [0, 1], n: 1, depth });
  return nodes;
}

/** P(yes) for a row that goes right at every node of `spread` parity and is spread at the others. */
function bottomShare(depth: number, spreadAt: 0 | 1): number {
  let w = 1;
  for (let d = spreadAt; d < depth; d += 2) w *= (depth - d) / (depth - d + 1);
  return w;
}

describe(`a ${DEPTH.toLocaleString('en')}-deep chain`, () => {
  const nodes = chain(DEPTH);
  const tree = modelWith(nodes);
  const rows = [
    { x: 1e9, c: 'b' }, // to the bottom
    { x: 7, c: 'b' }, // stops at depth 8 (x <= 8)
    { x: 1e9, c: null }, // spread at every categorical node
    { x: null, c: 'b' }, // spread at every numeric node
  ];

  it('predicts and spreads missing values to the bottom', () => {
    expect(tree.predict(rows.slice(0, 2))).toEqual(['yes', 'no']);
    const proba = tree.predictProba(rows);
    expect(proba[0]).toEqual([0, 1]);
    expect(proba[1]).toEqual([1, 0]);
    const [byCategory, byNumber] = [bottomShare(DEPTH, 1), bottomShare(DEPTH, 0)];
    expect(proba[2][1]).toBeCloseTo(byCategory, 12);
    expect(proba[2][0]).toBeCloseTo(1 - byCategory, 12);
    expect(proba[3][1]).toBeCloseTo(byNumber, 12);
    expect(tree.predict(rows.slice(2))).toEqual(rows.slice(2).map((_, i) => (proba[2 + i][1] > 0.5 ? 'yes' : 'no')));
  });

  it('exports DOT and round-trips its model file', () => {
    const dot = treeToDot(tree);
    expect(dot.split('\n').filter((l) => l.includes(' -> ')).length).toBe(2 * DEPTH);
    const copy = DecisionTree.fromJSON(JSON.parse(JSON.stringify(tree.toJSON())));
    expect(JSON.stringify(copy.nodes)).toBe(JSON.stringify(nodes));
    expect(copy.stats().height).toBe(DEPTH);
    expect(copy.predictProbaFlat(rows)).toEqual(tree.predictProbaFlat(rows));
  });
});

describe('pruning helpers on a deep chain', () => {
  it(`is copied and recounted by the pruning helpers (depth ${DEPTH.toLocaleString('en')})`, () => {
    const nodes = chain(DEPTH);
    const json = JSON.stringify(nodes);
    expect(JSON.stringify(compactTree(nodes, () => false))).toBe(json);
    const data = datasetFromRows([
      { x: 2, c: 'a', y: 'no' },
      { x: 1e9, c: 'b', y: 'yes' },
      { x: 3, c: 'b', y: 'no' },
    ]);
    const counted = recount(nodes, data, [1, 1, 1]);
    expect(counted[2 * DEPTH].counts).toEqual([0, 1]);
    expect(counted[0].n).toBe(3);
    expect(counted[3].n).toBe(1); // c = a at depth 1
    expect(counted[9].n).toBe(1); // x <= 4 at depth 4
  });
});

/**
 * A chain of `x <= d` nodes (left a leaf, right the rest of the chain) grown on one row per leaf
 * of the top `top` levels, `x = d` of class d mod 2, and one row of class 0 at the bottom; the other
 * leaves hold no rows. Every pruner keeps the top levels (each of their subtrees makes no error,
 * the node alone at least one row's weight) and makes a leaf of node `top` (its subtree and the
 * node alone both make no error): `top + 1` leaves.
 */
function prunableChain(depth: number, top: number) {
  const nodes: TreeNode[] = [];
  for (let d = 0; d < depth; d++) {
    const split: TreeNode['split'] = { kind: 'numeric', feature: 0, thresholds: [d] };
    nodes.push({ counts: [0, 0], n: 0, depth: d, split, children: [2 * d + 1, 2 * d + 2] });
    nodes.push({ counts: [0, 0], n: 0, depth: d + 1 });
  }
  nodes.push({ counts: [0, 0], n: 0, depth });
  const rows = Array.from({ length: top }, (_, d) => ({ x: d, y: `c${d % 2}` }));
  rows.push({ x: depth, y: 'c0' });
  const data = datasetFromRows(rows);
  expect(data.classes).toEqual(['c0', 'c1']);
  const weights = new Float64Array(rows.length).fill(10);
  return { nodes: recount(nodes, data, weights), data, weights };
}

describe('every built-in pruner on a deep chain', () => {
  const TOP = 6;
  const { nodes, data, weights } = prunableChain(DEPTH, TOP);
  const all = Array.from({ length: data.nRows }, (_, r) => r);
  const leavesOf = (pruned: TreeNode[]) => pruned.filter((node) => !node.children).length;

  it.each(BUILTIN_PRUNERS.map((p) => p.name))(`%s (depth ${DEPTH.toLocaleString('en')})`, (prune) => {
    const { nodes: pruned, info } = pruneTree(nodes, {
      options: { prune, ccpAlpha: 0 },
      data,
      weights,
      trainRows: all,
      validationRows: all,
    });
    const expected = prune === 'none' ? DEPTH + 1 : TOP + 1;
    expect(leavesOf(pruned)).toBe(expected);
    expect(info.leavesAfter).toBe(expected);
    expect(pruned[0].counts).toEqual([40, 30]);
  });

  it('error-based with subtree raising, through pruneTree and on the uncollapsed chain', () => {
    const ctx = { data, weights, trainRows: all };
    const viaTable = pruneTree(nodes, { ...ctx, options: { prune: 'error-based', subtreeRaising: true } });
    expect(leavesOf(viaTable.nodes)).toBe(TOP + 1);
    const raised = pruneErrorBased(nodes, { subtreeRaising: true, collapse: false, data, weights });
    expect(leavesOf(raised)).toBe(TOP + 1);
    expect(raised[2 * (TOP - 1)].counts).toEqual([10, 10]); // node TOP − 1: the row x = TOP − 1 and the bottom one
    expect(JSON.stringify(raised)).toBe(JSON.stringify(viaTable.nodes));
  });
});

/** A chain of one-branch nodes (c ∈ {b}), one leaf at the bottom. */
function singleBranchChain(depth: number): TreeNode[] {
  const nodes: TreeNode[] = [];
  for (let d = 0; d < depth; d++)
    nodes.push({
      counts: [0, 1],
      n: 1,
      depth: d,
      split: { kind: 'multiway', feature: 1, values: [1] },
      children: [d + 1],
    });
  nodes.push({ counts: [0, 1], n: 1, depth });
  return nodes;
}

describe('text and rules of deep trees', () => {
  const deep = modelWith(chain(DEPTH)); // checked as a model file is: built once
  it(`rules of a ${DEPTH.toLocaleString('en')}-deep chain: each feature's tests merged into one condition`, () => {
    const tree = deep;
    const rules = treeToRules(tree);
    expect(rules.length).toBe(DEPTH + 1);
    expect(rules.every((r) => r.conditions.length <= 2)).toBe(true);
    expect(rules[0].conditions).toEqual(['x <= 0']);
    expect(rules[1].conditions).toEqual(['x > 0', 'c = a']);
    expect(rules[4].conditions).toEqual(['2 < x <= 4', 'c = b']); // x > 0, c = b, x > 2, c = b, x <= 4
    expect(rules[DEPTH].conditions).toEqual([`x > ${DEPTH - 2}`, 'c = b']);
    expect(rules[DEPTH]).toMatchObject({ class: 'yes', support: 1 });
    const text = rulesToText(tree);
    expect(text.length).toBeLessThan(100 * DEPTH);
    expect(text.split('\n')[4]).toBe('R5: IF 2 < x <= 4 AND c = b THEN y = no  [support 1, confidence 1.00]');
  });

  it(`rules list the path's conditions up to height ${RULES_MERGE_HEIGHT}, merged above`, () => {
    const atLimit = treeToRules(modelWith(singleBranchChain(RULES_MERGE_HEIGHT)));
    expect(atLimit[0].conditions).toEqual(Array(RULES_MERGE_HEIGHT).fill('c = b'));
    const above = treeToRules(modelWith(singleBranchChain(RULES_MERGE_HEIGHT + 1)));
    expect(above[0].conditions).toEqual(['c = b']);
  });

  it(`text of a ${DEPTH.toLocaleString('en')}-deep chain: indentation drawn to ${TEXT_MAX_INDENT} levels, then the depth`, () => {
    const text = treeToText(deep);
    const lines = text.split('\n');
    expect(lines.length).toBe(2 * DEPTH + 5);
    expect(lines[0]).toBe('x <= 0: no (1)');
    const bars = (n: number) => '|   '.repeat(n);
    expect(lines[2 * TEXT_MAX_INDENT]).toBe(`${bars(TEXT_MAX_INDENT)}x <= ${TEXT_MAX_INDENT}: no (1)`);
    expect(lines[2 * TEXT_MAX_INDENT + 2]).toBe(`${bars(TEXT_MAX_INDENT)}|…(depth 101) c = a: no (1)`);
    expect(lines[2 * DEPTH - 1]).toBe(`${bars(TEXT_MAX_INDENT)}|…(depth ${DEPTH - 1}) c = b: yes (1)`);
    expect(text).toContain(`Height: ${DEPTH}`);
  });
});
