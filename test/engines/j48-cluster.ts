/** Shared by the engine tests: training values within 1e-6 below a J48 threshold (J48 scans them in row order). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Write `cluster.csv` in `dir` and return its path: class a up to 10.0000006, b from 11. The root's
 * midpoint is 10.5000003; the largest value below it is 10.0000006, but J48 keeps 10 first and
 * then skips the values within 1e-6 above it, so its threshold is {@link CLUSTER_THRESHOLD}.
 */
export function writeClusterCsv(dir: string): string {
  const xs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10.0000006, 10.0000003, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20];
  const csv = join(dir, 'cluster.csv');
  writeFileSync(csv, `x,y\n${xs.map((x) => `${x},${x < 10.5 ? 'a' : 'b'}`).join('\n')}\n`);
  return csv;
}

/** J48's root threshold on {@link writeClusterCsv}'s rows, in their order. */
export const CLUSTER_THRESHOLD = 10;
