import { describe, expect, it } from 'vitest';
import { caseStep, codesTest, lookupCase, nodeStep, type Route, stepTables } from '../../src/engines/step-sql.js';

/** A route on feature `feature` sending code i to branch `branchOfCode[i]`, children `children`. */
const route = (feature: number, branchOfCode: number[], children: number[]): Route => ({
  feature,
  branchOfCode: Int32Array.from(branchOfCode),
  children: Int32Array.from(children),
  sizes: new Int32Array(children.length),
  leaf: children.map(() => false),
});

/** The branch `codesTest`'s SQL sends `code` to, evaluated by hand for its four forms. */
function holds(test: string, code: number): boolean {
  return test
    .replace(/^\(|\)$/g, '')
    .split(' OR ')
    .some((part) => {
      const [, op, a, b] = /^c\d+ (=|<=|>=|BETWEEN) (\d+)(?: AND (\d+))?$/.exec(part)!;
      if (op === '=') return code === Number(a);
      if (op === '<=') return code <= Number(a);
      if (op === '>=') return code >= Number(a);
      return code >= Number(a) && code <= Number(b);
    });
}

describe('codesTest', () => {
  it('is true exactly for the codes of the branch, runs written as ranges', () => {
    const table = [0, 0, 1, 0, 1, 1, 0];
    for (const b of [0, 1]) {
      const test = codesTest('c3', Int32Array.from(table), b)!;
      table.forEach((branch, code) => expect(holds(test, code)).toBe(branch === b));
    }
    expect(codesTest('c0', Int32Array.from([0, 0, 0]), 1)).toBeNull();
    expect(codesTest('c0', Int32Array.from([0, 0, 1, 1]), 0)).toBe('c0 <= 1');
  });
});

describe('nodeStep and caseStep', () => {
  it("send a parent's rows to its children's slots, −1 to children without one", () => {
    const r = route(2, [0, 0, 1], [7, 8]);
    const slots = new Map([[7, 0]]);
    expect(nodeStep(r, slots)).toBe('CASE WHEN c2 <= 1 THEN 0 ELSE -1 END');
    expect(nodeStep(r, new Map())).toBeNull();
    const routed = new Map([[3, r]]);
    expect(caseStep('node', routed, new Map([[3, 5]]), slots)).toBe(
      'CASE WHEN node = 5 THEN CASE WHEN c2 <= 1 THEN 0 ELSE -1 END ELSE -1 END',
    );
    expect(caseStep('node', routed, new Map([[3, 5]]), new Map())).toBe('-1');
  });
});

describe('stepTables and lookupCase', () => {
  it("hold each parent slot's feature and each (parent slot, code)'s child slot", () => {
    const routed = new Map([
      [3, route(1, [0, 1, 1], [7, 8])],
      [4, route(0, [1, 0], [9, 10])],
    ]);
    const slotOf = new Map([
      [3, 1],
      [4, 0],
    ]);
    const slots = new Map([
      [7, 0],
      [8, 1],
      [10, 2],
    ]);
    const t = stepTables(routed, slotOf, slots)!;
    expect(t.width).toBe(3);
    expect(Array.from(t.feature)).toEqual([0, 1]);
    // Parent slot 0 (node 4): code 0 → node 10 (slot 2), code 1 → node 9 (no slot).
    expect(Array.from(t.child)).toEqual([2, -1, -1, 0, 1, 1]);
    expect([...t.split].sort()).toEqual([0, 1]);
    expect(lookupCase('sf', 'base', new Set([0, 1]))).toBe(
      'CASE sf WHEN 0 THEN lc[base + c0] WHEN 1 THEN lc[base + c1] ELSE -1 END',
    );
    expect(lookupCase('sf', 'base', new Set())).toBe('-1');
  });
});
