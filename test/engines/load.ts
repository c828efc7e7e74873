/** Test helper: copy a CSV file into a database table of text columns (the engine types them as grove does). */
import { readFileSync } from 'node:fs';
import type { Engine } from '../../src/engines/engine.js';
import { Params } from '../../src/engines/engine.js';
import { parseCsvRows } from '../helpers/csv-rows.js';

/** Create `table` (text columns named by the header) holding the rows of `csv`, 200 rows an INSERT. */
export async function loadCsv(engine: Engine, csv: string, table: string, createSuffix = ''): Promise<void> {
  const { header, rows } = parseCsvRows(readFileSync(csv, 'utf8'));
  const d = engine.dialect;
  const text = d.name === 'clickhouse' ? 'String' : 'text';
  await engine.query(
    `CREATE TABLE ${d.quote(table)} (${header.map((h) => `${d.quote(h)} ${text}`).join(', ')})${createSuffix}`,
  );
  for (let at = 0; at < rows.length; at += 200) {
    const p = new Params(d);
    const values = rows.slice(at, at + 200).map((r) => `(${r.map((cell) => p.add(cell)).join(', ')})`);
    await engine.query(`INSERT INTO ${d.quote(table)} VALUES ${values.join(', ')}`, p.values);
  }
}
