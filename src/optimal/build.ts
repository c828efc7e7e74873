import type { Split } from '../model/split.js';
import { TreeStore } from '../model/store.js';
import { type Binarised, thresholdBetween } from './binarise.js';
import { leafError, type Solution, type Test } from './solution.js';

/**
 * The model's split for a search test, and whether its branches are the test's sides swapped.
 * A categorical test is a `subset` split of its left categories against every other category of
 * the feature (so a category unseen at the node goes right); the model format puts the side with
 * fewer categories first, the lowest code on a tie, hence the swap.
 */
function splitOf(data: Binarised, test: Test): { split: Split; swap: boolean } {
  const f = data.features[test.feature];
  if (f.kind === 'ordinal')
    return {
      split: { kind: 'numeric', feature: test.feature, thresholds: [thresholdBetween(f, test.a, test.b)] },
      swap: false,
    };
  const chosen = new Set(test.left ?? [test.a]);
  const left = [...chosen].sort((x, y) => x - y);
  const rest: number[] = [];
  for (let c = 0; c < f.bins; c++) if (!chosen.has(c)) rest.push(c);
  const swap = rest.length < left.length || (rest.length === left.length && rest[0] < left[0]);
  return {
    split: { kind: 'subset', feature: test.feature, left: swap ? rest : left, right: swap ? left : rest },
    swap,
  };
}

/** Whether row r takes the test's left side. */
function goesLeft(data: Binarised, test: Test, r: number): boolean {
  const f = data.features[test.feature];
  const code = f.codes[r];
  if (code === f.bins) return test.missingLeft;
  if (f.kind === 'ordinal') return code <= test.a;
  return test.left ? test.left.includes(code) : code === test.a;
}

/**
 * The search's tree as a `TreeStore`, every node's class weights and row count recounted from
 * the training rows (walked with an explicit stack). A node's missing values take the side the
 * search chose when training rows missing its feature reached it; otherwise (the test had no
 * missing rows to learn from) the heavier side, as grove's `majority` rule does.
 */
export function buildStore(data: Binarised, solution: Solution): TreeStore {
  const { k, labels, weights } = data;
  const store = TreeStore.root(k);
  const all = new Int32Array(data.n);
  for (let r = 0; r < data.n; r++) all[r] = r;
  const stack: { id: number; sol: Solution; rows: Int32Array }[] = [{ id: 0, sol: solution, rows: all }];
  const w = new Float64Array(k);
  while (stack.length > 0) {
    const { id, sol, rows } = stack.pop()!;
    w.fill(0);
    for (const r of rows) w[labels[r]] += weights[r];
    store.setStats(id, w, rows.length, store.depth[id]);
    if (!sol.test || !sol.left || !sol.right) continue;
    const test = sol.test;
    const sides = partition(data, test, rows);
    const errBefore = leafError(w, 0, k);
    const weightOf = (rs: Int32Array) => rs.reduce((s, r) => s + weights[r], 0);
    const errAfter = sideError(data, sides.left) + sideError(data, sides.right);
    const total = weightOf(rows);
    const improvement = total > 0 ? (errBefore - errAfter) / total : 0;
    const { split, swap } = splitOf(data, test);
    let missingBranch: number;
    if (sides.missing > 0) missingBranch = test.missingLeft !== swap ? 0 : 1;
    else missingBranch = weightOf(sides.left) >= weightOf(sides.right) !== swap ? 0 : 1;
    const first = store.split(id, split, improvement, improvement, missingBranch, 2);
    const branch0 = swap ? { sol: sol.right, rows: sides.right } : { sol: sol.left, rows: sides.left };
    const branch1 = swap ? { sol: sol.left, rows: sides.left } : { sol: sol.right, rows: sides.right };
    stack.push({ id: first + 1, ...branch1 }, { id: first, ...branch0 });
  }
  return store;
}

function partition(data: Binarised, test: Test, rows: Int32Array) {
  const f = data.features[test.feature];
  let nl = 0;
  let missing = 0;
  for (const r of rows) {
    if (goesLeft(data, test, r)) nl++;
    if (f.codes[r] === f.bins) missing++;
  }
  const left = new Int32Array(nl);
  const right = new Int32Array(rows.length - nl);
  let i = 0;
  let j = 0;
  for (const r of rows) {
    if (goesLeft(data, test, r)) left[i++] = r;
    else right[j++] = r;
  }
  return { left, right, missing };
}

function sideError(data: Binarised, rows: Int32Array): number {
  const w = new Float64Array(data.k);
  for (const r of rows) w[data.labels[r]] += data.weights[r];
  return leafError(w, 0, data.k);
}
