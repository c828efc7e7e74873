/**
 * A data set whose columns are named like the aliases and lambda parameters grove's SQL uses (y,
 * w, v0, rn, node, …, and grove_y / grove_w, which the alias names then avoid): on ClickHouse an
 * alias of a SELECT wins over a column of the same name, so a clash reads the wrong values.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const NUMERIC = ['y', 'v0', 'sw', 'w', 'node', 'x', 'n', 'p', 'grove_y'];
const CATEGORICAL = ['rn', 'v', 'c0', 'first', 'fc', 's', 'cs', 'slot'];
const LETTERS = ['a', 'b', 'c', 'd', ''];

export interface ClashingFiles {
  /** Features and `label` (the last column): the file memory mode reads. */
  plain: string;
  /** The same with a sample-weight column `grove_w` after `label` (whole numbers, zeros among them). */
  weighted: string;
  weights: Float64Array;
}

/**
 * Write the files into `dir`: 300 rows from a seeded generator, classes A, B, C of 100 rows each
 * (balanced class weights are then exactly 1, and the engine's sums exact), missing categories
 * among them.
 */
export function writeClashingCsv(dir: string): ClashingFiles {
  let seed = 12345;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const n = 300;
  const rows = Array.from({ length: n }, () => [
    ...NUMERIC.map(() => String(Math.floor(next() * 40) / 2)),
    ...CATEGORICAL.map(() => LETTERS[Math.floor(next() * LETTERS.length)]),
  ]);
  const at = (name: string) => [...NUMERIC, ...CATEGORICAL].indexOf(name);
  const score = rows.map(
    (r) =>
      Number(r[at('y')]) +
      (Number(r[at('v0')]) > 10 ? 8 : 0) -
      Number(r[at('node')]) / 2 +
      (r[at('rn')] === 'a' ? 9 : 0) +
      (r[at('c0')] === 'b' ? 6 : 0) +
      (r[at('slot')] === '' ? 4 : 0) +
      next() * 6,
  );
  const order = score.map((_, i) => i).sort((a, b) => score[a] - score[b] || a - b);
  const label = new Array<string>(n);
  order.forEach((row, rank) => (label[row] = 'ABC'[Math.floor((rank * 3) / n)]));
  const weights = Float64Array.from(rows, (_, i) => (i * 7) % 4);
  const header = [...NUMERIC, ...CATEGORICAL, 'label'];
  const plain = join(dir, 'clashing.csv');
  const weighted = join(dir, 'clashing-weighted.csv');
  writeFileSync(plain, `${[header, ...rows.map((r, i) => [...r, label[i]])].map((r) => r.join(',')).join('\n')}\n`);
  writeFileSync(
    weighted,
    `${[[...header, 'grove_w'], ...rows.map((r, i) => [...r, label[i], weights[i]])].map((r) => r.join(',')).join('\n')}\n`,
  );
  return { plain, weighted, weights };
}
