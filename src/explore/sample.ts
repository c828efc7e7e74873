import { mulberry32, shuffle } from '../core/random.js';

/**
 * `size` rows of `labels.length`, stratified by class and seeded: each class keeps its share
 * (largest remainders, every present class at least one row when `size` allows), the rows of a
 * class drawn by a seeded shuffle. Returned in increasing row order.
 */
export function stratifiedSample(labels: Int32Array, nClasses: number, size: number, seed: number): Int32Array {
  const n = labels.length;
  if (size >= n) return Int32Array.from({ length: n }, (_, i) => i);
  const byClass: number[][] = Array.from({ length: nClasses }, () => []);
  for (let i = 0; i < n; i++) byClass[labels[i]].push(i);
  const quota = byClass.map((rows) => Math.floor((rows.length * size) / n));
  const present = byClass.map((rows, c) => [c, rows.length] as const).filter(([, m]) => m > 0);
  for (const [c] of present) if (quota[c] === 0 && size >= present.length) quota[c] = 1;
  let left = size - quota.reduce((a, b) => a + b, 0);
  // Largest remainders first; ties by class index.
  const order = present
    .map(([c, m]) => [c, (m * size) / n - Math.floor((m * size) / n)] as const)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  for (let j = 0; left > 0 && order.length > 0; j = (j + 1) % order.length) {
    const c = order[j][0];
    if (quota[c] < byClass[c].length) {
      quota[c]++;
      left--;
    }
  }
  while (left < 0) {
    // Only when the one-row floors overshot: take back from the largest quotas.
    let big = 0;
    for (let c = 1; c < nClasses; c++) if (quota[c] > quota[big]) big = c;
    quota[big]--;
    left++;
  }
  const random = mulberry32(seed);
  const chosen: number[] = [];
  byClass.forEach((rows, c) => {
    const pick = shuffle(rows.slice(), random).slice(0, quota[c]);
    for (const r of pick) chosen.push(r);
  });
  return Int32Array.from(chosen).sort();
}
