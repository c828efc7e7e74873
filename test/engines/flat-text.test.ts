/**
 * The flat queries' text (ClickHouse over rows on other servers) grows linearly with the classes,
 * the categories and the depth: each level query carries it, and the server analyses all of it.
 */
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engines/engine.js';
import { flatCodes, flatRow } from '../../src/engines/flat.js';
import type { EngineRows } from '../../src/engines/rows.js';
import { Params } from '../../src/engines/rows.js';
import { aliasNamer, type EngineFeature, type EngineSchema } from '../../src/engines/schema.js';
import { clickhouseDialect, type WalkRoute, walkNode } from '../../src/sql/index.js';

const engine = { dialect: clickhouseDialect } as Engine;

/** Rows of `classes` classes (class weights 1, 2, …) and one categorical feature of `categories` categories. */
function rowsOf(classes: number, categories: number): EngineRows {
  const feature: EngineFeature = {
    name: 'colour',
    kind: 'categorical',
    value: "if(`colour` IN ('', '?'), NULL, replaceRegexpAll(toString(`colour`), '^ +| +$', ''))",
    categories: Array.from({ length: categories }, (_, i) => `c${i}`),
  };
  const schema: EngineSchema = {
    source: { from: () => '`t`', label: 't' },
    features: [feature],
    targetName: 'label',
    label: 'toString(`label`)',
    classes: Array.from({ length: classes }, (_, i) => `k${i}`),
    weight: null,
    nRows: 1,
    columnNames: ['colour', 'label'],
    alias: aliasNamer(['colour', 'label']),
  };
  return { engine, schema, classWeights: Float64Array.from({ length: classes }, (_, i) => i + 1) };
}

/** How much longer the text at 2n is than at n: 2 when linear, 4 when quadratic. */
const growth = (text: (n: number) => string, n: number) => text(2 * n).length / text(n).length;

describe('flat query text (ClickHouse, rows on other servers)', () => {
  it('the row weight with class weights is linear in the classes (the class code written once)', () => {
    const w = (k: number) => flatRow(rowsOf(k, 2), new Params(clickhouseDialect)).w;
    expect(growth(w, 100)).toBeLessThan(2.2);
  });

  it('a category code writes the value once (a lookup, not a comparison per category)', () => {
    const code = (n: number) => {
      const rows = rowsOf(2, n);
      const p = new Params(clickhouseDialect);
      return flatCodes(rows, flatRow(rows, p), [null], [n], p)[0];
    };
    expect(code(300).split('`colour`').length - 1).toBe(2); // the value's text holds the column twice
    expect(growth(code, 150)).toBeLessThan(2.2);
  });

  it("the walk's text is linear in the depth", () => {
    // A chain: node 2i splits on feature i % 3 into leaf 2i + 1 and node 2i + 2; the slots are the deepest children.
    const walk = (depth: number) => {
      const routes = new Map<number, WalkRoute>();
      for (let i = 0; i < depth; i++)
        routes.set(2 * i, {
          feature: i % 3,
          branchOfCode: Int32Array.from([0, 1, 1]),
          children: Int32Array.from([2 * i + 1, 2 * i + 2]),
        });
      const slots = new Map([
        [2 * depth - 1, 0],
        [2 * depth, 1],
      ]);
      return walkNode(clickhouseDialect, ['c0', 'c1', 'c2'], routes, slots, 'UInt8', (b) => `grove_${b}`);
    };
    expect(growth(walk, 20)).toBeLessThan(2.2);
    expect(growth(walk, 20)).toBeGreaterThan(1.8);
  });

  it('the walk leaves out closed subtrees: its text does not grow with split nodes that have no slot below', () => {
    // Root 0 splits into 1 and 2; below 2 an open chain of 10 split nodes whose last one's
    // children are the slots; below 1 a closed chain of `closed` split nodes alongside it.
    const walk = (closed: number) => {
      const split = (children: number[]): WalkRoute => ({
        feature: 0,
        branchOfCode: Int32Array.from([0, 1]),
        children: Int32Array.from(children),
      });
      const routes = new Map<number, WalkRoute>([[0, split([1, 2])]]);
      // Node `from` and its second child, and so on, `length` split nodes: the last one's children.
      const chain = (from: number, length: number, base: number) => {
        let id = from;
        for (let i = 0; i < length; i++) {
          routes.set(id, split([base + 2 * i, base + 2 * i + 1]));
          id = base + 2 * i + 1;
        }
        return [id - 1, id];
      };
      const [a, b] = chain(2, 10, 1000);
      chain(1, closed, 5000);
      const slots = new Map([
        [a, 0],
        [b, 1],
      ]);
      return walkNode(clickhouseDialect, ['c0'], routes, slots, 'UInt8', (b) => `grove_${b}`);
    };
    expect(walk(20)).toBe(walk(0));
  });
});
