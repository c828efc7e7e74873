/**
 * A split's branches as the histogram growers read them (in memory and in a database): the branch
 * of each bin or category code, C4.5's shares of a row whose value is missing, and the children's
 * sizes and class weights from the node's histogram of the split feature. One arithmetic for both,
 * so that a database's tree is the one memory grows.
 */
import { categoryBranches } from '../model/route.js';
import type { Branches } from './expand.js';
import type { ChosenSplit } from './split-policy.js';

/**
 * The branch of every code 0 … `missingCode` of the split's feature into `table`: bins are in
 * value order (a bin up to the split's last left bin goes left), categories by the split's lists;
 * the missing code, and a category the split does not list, take `chosen.missingBranch` (−1 under
 * the fractional policy: every branch).
 */
export function codeBranches(chosen: ChosenSplit, missingCode: number, table: Int32Array): Int32Array {
  const { split, missingBranch } = chosen;
  if (split.kind === 'numeric') {
    const last = chosen.best.splitBin;
    for (let b = 0; b < missingCode; b++) table[b] = b <= last ? 0 : 1;
  } else categoryBranches(split, missingCode, table);
  for (let c = 0; c < missingCode; c++) if (table[c] < 0) table[c] = missingBranch;
  table[missingCode] = missingBranch;
  return table;
}

/**
 * C4.5's fractional policy: each branch's share of a row whose split value is missing, the
 * branch's known weight over the node's (equal shares when the known rows weigh nothing), in the
 * split's branch order (a subset split may list its sides the other way round from the scan).
 */
export function missingShares(chosen: ChosenSplit): Float64Array {
  const { best, branches } = chosen;
  const swapped = best.subsetSwapped();
  const shares = new Float64Array(branches);
  let sum = 0;
  for (let b = 0; b < branches; b++) {
    shares[b] = best.branchWeight(swapped ? 1 - b : b);
    sum += shares[b];
  }
  for (let b = 0; b < branches; b++) shares[b] = sum > 0 ? shares[b] / sum : 1 / branches;
  return shares;
}

/**
 * The children's sizes and class weights from a node's histogram `h` of the split feature (codes
 * at `offset` + code × (k + 1): k class weights, then the rows), branches by `table`
 * (`codeBranches`). A code of branch −1 (missing values under the fractional policy) goes down
 * every branch: its rows count in each, its weights times the branch's share (`missingShares`).
 */
export function assignFromHistogram(
  h: Float64Array,
  offset: number,
  k: number,
  missingCode: number,
  table: Int32Array,
  chosen: ChosenSplit,
  into: Branches,
): void {
  const stride = k + 1;
  let everyBranch = -1;
  for (let code = 0; code <= missingCode; code++) {
    const at = offset + code * stride;
    if (h[at + k] === 0) continue;
    const b = table[code];
    if (b < 0) {
      everyBranch = at;
      continue;
    }
    into.sizes[b] += h[at + k];
    const t = into.totals[b];
    for (let c = 0; c < k; c++) t[c] += h[at + c];
  }
  if (everyBranch < 0) return;
  const shares = missingShares(chosen);
  const rows = h[everyBranch + k];
  for (let b = 0; b < into.count; b++) {
    into.sizes[b] += rows;
    const t = into.totals[b];
    for (let c = 0; c < k; c++) t[c] += h[everyBranch + c] * shares[b];
  }
  into.everyBranch = rows;
}
