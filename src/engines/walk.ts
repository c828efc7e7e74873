/**
 * A row's node as a walk down the tree so far, one subquery layer per depth, for an engine that
 * makes no level tables (ClickHouse over a Distributed table: the level query reads the source).
 * Each layer is a few lookups in integer lists, whatever the number of nodes, where a nested CASE
 * over the tree costs every split's test on every row (ClickHouse evaluates every branch of a
 * CASE). The SQL uses array literals and 1-based indexing (`[a, b][i]`: ClickHouse, DuckDB).
 */

import { GroveError } from '../core/errors.js';

/** A split node's routing: the code column it reads, each code's branch and each branch's child. */
export interface WalkRoute {
  feature: number;
  branchOfCode: Int32Array;
  children: Int32Array;
}

/** The rows with their node: `from` (a FROM item with the columns of `base` and the walk's) and `node`, its SQL. */
export interface Walk {
  from: string;
  node: string;
}

/**
 * The slot of each row of `base` (columns y, w, c0 … c(d−1); −1 for a row in no node of `slots`):
 * the state of layer l is the 1-based position of the row's node among the split nodes of depth l
 * (0: out of the walk); the layer reads the code of the node's feature from the row's list
 * `[0, c0, …]` and looks up the next state in one list of every node's block of codes; the last
 * layer's list holds slot + 1. Lists are indexed from 1 and never out of range (the dead state 0
 * reads entry 1 and a block of zeros).
 */
export function routeWalk(
  base: string,
  d: number,
  routes: ReadonlyMap<number, WalkRoute>,
  slots: ReadonlyMap<number, number>,
  codeType: string,
): Walk {
  if (slots.has(0)) return { from: base, node: '0' };
  const codes = Array.from({ length: d }, (_, f) => `c${f}`);
  const cs = `[CAST(0 AS ${codeType}), ${codes.map((c) => `CAST(${c} AS ${codeType})`).join(', ')}]`;
  let widest = 0;
  for (const route of routes.values()) widest = Math.max(widest, route.branchOfCode.length);
  let from = `(SELECT y, w, ${codes.join(', ')}, ${cs} AS cs, 1 AS s0 FROM ${base} AS walk)`;
  let depth = [0];
  // Ends at the depth whose children hold the slots' nodes (every slot's node is below the root).
  for (let layer = 0; ; layer++) {
    const last = depth.some((id) => routes.get(id)?.children.some((c) => slots.has(c)));
    const feature: number[] = [0];
    const start: number[] = [0];
    const next: number[] = new Array(widest).fill(0);
    // The split nodes of the next depth, each with its state (position + 1).
    const deeper = new Map<number, number>();
    for (const id of depth) {
      const route = routes.get(id)!;
      feature.push(route.feature + 1);
      start.push(next.length);
      for (const branch of route.branchOfCode) {
        const child = route.children[branch];
        if (last) next.push(slots.has(child) ? slots.get(child)! + 1 : 0);
        else if (routes.has(child)) {
          if (!deeper.has(child)) deeper.set(child, deeper.size + 1);
          next.push(deeper.get(child)!);
        } else next.push(0);
      }
    }
    const s = `s${layer}`;
    const code = `cs[[${feature.join(', ')}][${s} + 1] + 1]`;
    const step = `[${next.join(', ')}][[${start.join(', ')}][${s} + 1] + ${code} + 1]`;
    from = `(SELECT y, w, ${codes.join(', ')}, cs, ${step} AS s${layer + 1} FROM ${from} AS l${layer})`;
    if (last) return { from, node: `CAST(s${layer + 1} AS Int64) - 1` };
    depth = [...deeper.keys()];
    if (depth.length === 0) throw new GroveError('the walk found no split node above the level', { code: 'E_DATA' });
  }
}
