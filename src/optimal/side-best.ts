import { leafSolution, type Solution, splitSolution } from './solution.js';

/**
 * The best depth-1 split found so far for one side of a root test: its test and its two leaves'
 * objective values, or `cost` = the side as a leaf (then `g` is -1).
 */
export class SideBest {
  cost = 0;
  g = -1;
  a = 0;
  b = 0;
  missingLeft = false;
  /** A subset test's left categories (null: the test is `a`, `b`). */
  left: number[] | null = null;
  leftCost = 0;
  rightCost = 0;

  reset(leafCost: number): void {
    this.cost = leafCost;
    this.g = -1;
  }

  offer(cost: number, g: number, a: number, b: number, missingLeft: boolean, lc: number, rc: number): boolean {
    if (!(cost < this.cost)) return false;
    this.cost = cost;
    this.g = g;
    this.a = a;
    this.b = b;
    this.missingLeft = missingLeft;
    this.leftCost = lc;
    this.rightCost = rc;
    this.left = null;
    return true;
  }

  solution(): Solution {
    if (this.g < 0) return leafSolution(this.cost);
    const test = { feature: this.g, a: this.a, b: this.b, missingLeft: this.missingLeft };
    if (this.left)
      return splitSolution({ ...test, left: this.left }, leafSolution(this.leftCost), leafSolution(this.rightCost));
    return splitSolution(test, leafSolution(this.leftCost), leafSolution(this.rightCost));
  }
}
