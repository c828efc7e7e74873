import type { Split } from '../model/split.js';

/** The parts of a node that the comparison reads. */
interface Comparable {
  split?: Split;
  children?: number[];
}

function sameSplit(a: Split | undefined, b: Split | undefined): boolean {
  if (!a || !b) return a === b;
  if (a.kind !== b.kind || a.feature !== b.feature) return false;
  const lists = (s: Split): number[][] =>
    s.kind === 'numeric' ? [s.thresholds] : s.kind === 'multiway' ? [s.values] : [s.left, s.right];
  const la = lists(a);
  const lb = lists(b);
  return la.every((list, i) => list.length === lb[i].length && list.every((v, j) => v === lb[i][j]));
}

/**
 * Where two trees of the same data first disagree: walking both from the root in step, the pairs
 * of nodes at the same place whose splits differ (one a leaf, another feature, another threshold or
 * grouping), nothing below them. `a(id)`, `b(id)`: node `id` of each tree. Returns the node ids in
 * each tree (equal lengths, pair by pair).
 */
export function firstDisagreements(a: (id: number) => Comparable, b: (id: number) => Comparable): [number[], number[]] {
  const outA: number[] = [];
  const outB: number[] = [];
  const queue: [number, number][] = [[0, 0]];
  for (let q = 0; q < queue.length; q++) {
    const [x, y] = queue[q];
    const nx = a(x);
    const ny = b(y);
    if (!sameSplit(nx.split, ny.split)) {
      outA.push(x);
      outB.push(y);
      continue;
    }
    const ca = nx.children;
    const cb = ny.children;
    if (ca && cb) for (let i = 0; i < ca.length; i++) queue.push([ca[i], cb[i]]);
  }
  return [outA, outB];
}

/** What the page says of the first disagreements `na` (tree A's nodes) and `nb` (tree B's, pairwise). */
export function disagreementText(na: number[], nb: number[]): string {
  return na.length === 0
    ? 'The two trees are the same.'
    : `They first disagree at ${na.length} place${na.length > 1 ? 's' : ''} (outlined in red): ` +
        na.map((id, i) => `A’s node ${id} vs B’s node ${nb[i]}`).join('; ');
}
