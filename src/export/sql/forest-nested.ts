import type { Dialect } from '../../sql/index.js';
import type { PortableTree } from '../portable.js';
import { chained, codeChildren, isCoded, type LevelTables } from './levels.js';
import { featureValue, type Named } from './query.js';

/** How the nested expressions read the row. */
export interface NestedContext {
  r: Dialect;
  /** A numeric feature's value (NULL read as NaN) or a coded feature's value code. */
  value: (f: number) => string;
}

/**
 * A numeric split with thresholds t0 < … < tk as nested `if`s: branch j when the value is at
 * most tj, else on; a missing value (NaN) fails every `≤` and stops at its missing branch, whose
 * test is written `not(x > tj)`, true for NaN.
 */
function numericSplit(thresholds: readonly number[], m: number, x: string, child: string[], r: Dialect): string {
  let sql = child[thresholds.length];
  for (let j = thresholds.length - 1; j >= 0; j--) {
    const t = r.double(thresholds[j]);
    sql = `if(${j === m ? `not(${x} > ${t})` : `${x} <= ${t}`}, ${child[j]}, ${sql})`;
  }
  return sql;
}

/** A split on a value code: each child's codes tested with `IN`, the missing branch's child otherwise. */
function codedSplit(targets: readonly number[], code: string, sqlOf: (node: number) => string): string {
  const codes = new Map<number, number[]>();
  targets.forEach((node, c) => {
    if (c > 0 && node !== targets[0]) codes.set(node, [...(codes.get(node) ?? []), c]);
  });
  if (codes.size === 0) return sqlOf(targets[0]);
  const arms = [...codes].map(([node, cs]) => `${code} IN (${cs.join(', ')}), ${sqlOf(node)}`);
  return `multiIf(${arms.join(', ')}, ${sqlOf(targets[0])})`;
}

/**
 * The tree's leaf as one expression (ClickHouse): `-leaf` (the leaf numbering of `tables`), the
 * splits written as nested `if`s and `multiIf`s, built from the leaves up without recursion.
 * Every node is evaluated for every row (vectorised, so cheaper than a lambda per level for
 * trees of moderate size), and there is no lambda per step: ClickHouse 18.16 analyses each lambda
 * against every column computed before it, so a walk of lambdas per tree grew with the square of
 * the forest's trees.
 */
export function nestedLeaf(p: PortableTree, tables: LevelTables, ctx: NestedContext): string {
  const nodes = p.tree.nodes;
  const sql = new Array<string>(nodes.length);
  tables.leafNode.forEach((i, l) => {
    sql[i] = `-${l + 1}`;
  });
  // A node's children have higher ids than the node.
  for (let i = nodes.length - 1; i >= 0; i--) {
    const { split, children } = nodes[i];
    if (!split || !children) continue;
    const taken = (node: number): string => {
      const s = sql[node];
      sql[node] = '';
      return s;
    };
    const m = p.missingBranch[i];
    sql[i] =
      chained(p, split) && split.kind === 'numeric'
        ? numericSplit(split.thresholds, m, ctx.value(split.feature), children.map(taken), ctx.r)
        : codedSplit(codeChildren(p, i), ctx.value(split.feature), taken);
  }
  return sql[0];
}

/**
 * The row's values the trees test, as `WITH` definitions: the numeric features' values, NULL as
 * NaN (grove reads NaN as missing too), in `grove_numbers`, the coded features' value codes in
 * `grove_codes`; `value(f)` reads feature f's inside a lambda whose parameters are `grove_n` and
 * `grove_c` (one-element arrays of those two, `params` and `args`).
 */
export function nestedValues(p: PortableTree, features: readonly number[], r: Dialect, named: Named) {
  const column = (f: number): string => `t.${r.quote(p.tree.features[f].name)}`;
  const numeric = features.filter((f) => !isCoded(p, f));
  const coded = features.filter((f) => isCoded(p, f));
  const slot = new Map([...numeric.map((f, j) => [f, j + 1] as const), ...coded.map((f, j) => [f, j + 1] as const)]);
  const definitions: string[] = [];
  const params: string[] = [];
  const args: string[] = [];
  if (numeric.length > 0) {
    definitions.push(`${r.array(numeric.map((f) => `ifNull(${r.numberToDouble(column(f))}, nan)`))} AS grove_numbers`);
    params.push('grove_n');
    args.push('grove_numbers');
  }
  if (coded.length > 0) {
    definitions.push(`${r.array(coded.map((f) => featureValue(p, f, column(f), r, named)))} AS grove_codes`);
    params.push('grove_c');
    args.push('grove_codes');
  }
  const value = (f: number): string => `${isCoded(p, f) ? 'grove_c' : 'grove_n'}[${slot.get(f)}]`;
  return { definitions, params, args, value };
}
