/**
 * The recipe "Add a database engine" of docs/architecture.md, done as a new engine would do it: an
 * Engine with only the required methods (no `streamNumbers`, `interrupt` or `rowsElsewhere`) and a
 * Dialect whose capabilities differ from every built-in one. Each grows memory's tree: the grower
 * picks its routing from the declared capabilities, never from the engine's name.
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBEngine } from '../../src/engines/duckdb.js';
import type { Engine } from '../../src/engines/engine.js';
import type { FitOptions } from '../../src/options/options.js';
import { parseSourceSpec } from '../../src/sources/engine-source.js';
import { type Dialect, duckdbDialect } from '../../src/sql/index.js';
import { repoRoot } from '../helpers/cli.js';
import { engineModel, memoryModel } from './identical.js';

/** The required methods of Engine, passed to a database that runs the SQL. */
function minimalEngine(inner: Engine, dialect: Dialect): Engine {
  return {
    dialect,
    query: (sql, params) => inner.query(sql, params),
    stream: (sql, params, onRows) => inner.stream(sql, params, onRows),
    columns: (relation, params) => inner.columns(relation, params),
    tempTable: (select, params) => inner.tempTable(select, params),
    acceptQuery: (query) => inner.acceptQuery(query),
    close: async () => {},
  };
}

/** Dialects as a new database might declare them: fewer capabilities, each a different routing. */
const DIALECTS: [string, Dialect][] = [
  ['every capability of DuckDB', duckdbDialect],
  ['no in-place node column (a new table per level)', { ...duckdbDialect, nodeColumn: undefined }],
  ['lists as constants, not columns', { ...duckdbDialect, listColumns: false }],
  [
    'no lists at all (bin codes by nested CASE)',
    { ...duckdbDialect, doubleList: undefined, intList: undefined, listColumns: false, nodeColumn: undefined },
  ],
];

const FILES = ['iris', 'glass', 'house-votes-84'];
const OPTIONS: FitOptions[] = [
  { prune: 'none', maxDepth: 6 },
  { criterion: 'gain-ratio', prune: 'none', maxDepth: 5 },
];

let duckdb: DuckDBEngine;
beforeAll(async () => {
  duckdb = await DuckDBEngine.open();
});
afterAll(async () => duckdb?.close());

describe('a new engine from the recipe grows memory’s tree', () => {
  for (const [what, dialect] of DIALECTS) {
    it(what, async () => {
      const engine = minimalEngine(duckdb, dialect);
      for (const name of FILES) {
        const csv = resolve(repoRoot, `data/${name}.csv`);
        const spec = await parseSourceSpec(csv);
        for (const options of OPTIONS)
          expect(await engineModel(engine, spec.source, options), `${name} ${JSON.stringify(options)}`).toBe(
            await memoryModel(csv, options),
          );
      }
    }, 120_000);
  }
});
