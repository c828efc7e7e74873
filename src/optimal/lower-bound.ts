import type { Binarised } from './binarise.js';

/**
 * A lower bound on the misclassified weight of every tree over the search's tests: rows with the
 * same code on every feature reach the same leaf of any such tree, so all but the heaviest class
 * of each group of identical rows is misclassified (GOSDT's "equivalence points" bound). Used
 * for the bound reported when a search stops early.
 */
export function equivalenceBound(b: Binarised): number {
  const groups = new Map<string, Float64Array>();
  const F = b.features.length;
  const key: number[] = new Array(F);
  for (let r = 0; r < b.n; r++) {
    for (let g = 0; g < F; g++) key[g] = b.features[g].codes[r];
    const id = key.join(',');
    let w = groups.get(id);
    if (!w) {
      w = new Float64Array(b.k);
      groups.set(id, w);
    }
    w[b.labels[r]] += b.weights[r];
  }
  let bound = 0;
  for (const w of groups.values()) {
    let sum = 0;
    let max = 0;
    for (const x of w) {
      sum += x;
      if (x > max) max = x;
    }
    bound += sum - max;
  }
  return bound;
}
