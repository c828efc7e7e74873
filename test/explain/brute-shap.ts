/**
 * Brute-force Shapley values of the path-dependent value function, for checking TreeSHAP: v(S)
 * walks the tree, following the model's routing at a split on a feature in S and every branch,
 * weighted by the training weight of each child, at a split on a feature outside S; every subset
 * of features is evaluated (2^F walks per row), so only for small F.
 */
import type { AlignedColumn, CompiledTree } from '../../src/model/compiled.js';
import { NO_BRANCH } from '../../src/model/route.js';

/** v(S) per class for row i, S given as a bit mask over features. */
export function pathValue(tree: CompiledTree, columns: AlignedColumn[], i: number, mask: number): Float64Array {
  const k = tree.classes;
  const out = new Float64Array(k);
  const stack: Array<[number, number]> = [[0, 1]];
  while (stack.length > 0) {
    const [v, w] = stack.pop()!;
    if (tree.isLeaf(v)) {
      for (let c = 0; c < k; c++) out[c] += w * tree.proba[v * k + c];
      continue;
    }
    const first = tree.firstChild[v];
    const inS = (mask >> tree.feature[v]) & 1;
    const b = inS ? tree.branchAt(columns, i, v) : NO_BRANCH;
    if (b !== NO_BRANCH) stack.push([first + b, w]);
    else for (let c = 0; c < tree.branches[v]; c++) stack.push([first + c, w * tree.share[first + c]]);
  }
  return out;
}

/** Shapley values (features × classes, classes innermost) of row i by enumerating every subset. */
export function bruteShap(tree: CompiledTree, columns: AlignedColumn[], i: number, nFeatures: number): Float64Array {
  const k = tree.classes;
  const values = Array.from({ length: 1 << nFeatures }, (_, mask) => pathValue(tree, columns, i, mask));
  const fact = [1];
  for (let n = 1; n <= nFeatures; n++) fact.push(fact[n - 1] * n);
  const out = new Float64Array(nFeatures * k);
  for (let j = 0; j < nFeatures; j++) {
    for (let mask = 0; mask < 1 << nFeatures; mask++) {
      if ((mask >> j) & 1) continue;
      let size = 0;
      for (let m = mask; m; m &= m - 1) size++;
      const weight = (fact[size] * fact[nFeatures - size - 1]) / fact[nFeatures];
      const withJ = values[mask | (1 << j)];
      const without = values[mask];
      for (let c = 0; c < k; c++) out[j * k + c] += weight * (withJ[c] - without[c]);
    }
  }
  return out;
}
