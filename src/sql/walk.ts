/**
 * A row's node as a walk down the tree so far, for an engine that makes no level tables
 * (ClickHouse over a Distributed table: the level query reads the source, src/engines/flat.ts).
 * Each depth is a few lookups in integer lists, whatever the number of nodes, where a nested CASE
 * over the tree costs every split's test on every row (ClickHouse evaluates every branch of a
 * CASE). ClickHouse SQL: array literals, 1-based indexing (`[a, b][i]`), and each depth a lambda
 * over the last depth's state, so the query grows linearly with the depth (flat.ts says why).
 */

import { GroveError, type GroveErrorCode } from '../core/errors.js';
import type { Dialect } from './dialect.js';

/** A split node's routing: the code column it reads, each code's branch and each branch's child. */
export interface WalkRoute {
  feature: number;
  branchOfCode: Int32Array;
  children: Int32Array;
}

/**
 * The slot of a row (−1 for a row in no node of `slots`) from its codes (`codes`, expressions):
 * the state of depth l is the 1-based position of the row's node among the split nodes of depth l
 * (0: out of the walk); a depth reads the code of the node's feature from the row's list
 * `[0, c0, …]` and looks up the next state in one list of every node's block of codes; the last
 * depth's list holds slot + 1. Lists are indexed from 1 and never out of range (the dead state 0
 * reads entry 1 and a block of zeros). `name` gives the lambdas' parameters names no column has.
 */
export function walkNode(
  d: Dialect,
  codes: readonly string[],
  routes: ReadonlyMap<number, WalkRoute>,
  slots: ReadonlyMap<number, number>,
  codeType: string,
  name: (base: string) => string,
): string {
  if (slots.has(0)) return '0';
  const [row, state] = [name('cs'), name('s')];
  const cs = `[CAST(0 AS ${codeType}), ${codes.map((c) => `CAST(${c} AS ${codeType})`).join(', ')}]`;
  let widest = 0;
  for (const route of routes.values()) widest = Math.max(widest, route.branchOfCode.length);
  // The split nodes with a slot below them: the walk leaves out closed subtrees (a row there is
  // out of the walk, state 0), so the text grows with the open part of the tree, not all of it.
  const parent = new Map<number, number>();
  for (const [id, route] of routes) for (const child of route.children) parent.set(child, id);
  const live = new Set<number>();
  for (const slotted of slots.keys())
    for (let id = parent.get(slotted); id !== undefined && !live.has(id); id = parent.get(id)) live.add(id);
  let walk = '[toUInt32(1)]';
  let depth = [0];
  // Ends at the depth whose children hold the slots' nodes (every slot's node is below the root).
  for (;;) {
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
        else if (live.has(child)) {
          if (!deeper.has(child)) deeper.set(child, deeper.size + 1);
          next.push(deeper.get(child)!);
        } else next.push(0);
      }
    }
    const code = `${row}[[${feature.join(', ')}][${state} + 1] + 1]`;
    walk = `arrayMap(${state} -> [${next.join(', ')}][[${start.join(', ')}][${state} + 1] + ${code} + 1], ${walk})`;
    if (last) return bindOnceOf(d, 'E_DATA')([row], [cs], `toInt64(${walk}[1]) - 1`);
    depth = [...deeper.keys()];
    if (depth.length === 0) throw new GroveError('the walk found no split node above the level', { code: 'E_DATA' });
  }
}

/**
 * The dialect's one-time binding of values to lambda parameters (`Dialect.bindOnce`), which a
 * walk needs; a GroveError with `code` where the database has no lambdas.
 */
export function bindOnceOf(d: Dialect, code: GroveErrorCode): NonNullable<Dialect['bindOnce']> {
  if (d.bindOnce === undefined) throw new GroveError(`${d.name} has no lambdas to walk the tree with`, { code });
  return d.bindOnce;
}
