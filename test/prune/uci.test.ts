import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { readDataset } from '../../src/sources/file-source.js';
import { corpus, haveCorpus } from '../helpers/paths.js';

const pima = haveCorpus ? await readDataset(corpus('pima-indians-diabetes')) : undefined;

describe.skipIf(!haveCorpus)('pruning on pima-indians-diabetes (shared UCI corpus)', () => {
  const data = pima;

  // C4.5 release 8's growth (without J48's rules, whose tree hardly needs pruning here: 22 → 20 leaves).
  const c45 = { algorithm: 'c45', j48Rules: false } as const;

  it('error-based pruning leaves far fewer leaves than the unpruned c45 tree', () => {
    const full = fit(data!, { ...c45, prune: 'none' }).stats().leaves;
    const pruned = fit(data!, { ...c45, prune: 'error-based', subtreeRaising: false });
    const raised = fit(data!, { ...c45, prune: 'error-based', subtreeRaising: true });
    expect(pruned.stats().leaves).toBeLessThan(0.75 * full);
    expect(raised.stats().leaves).toBeLessThanOrEqual(pruned.stats().leaves);
    expect(pruned.pruning).toMatchObject({
      method: 'error-based',
      leavesBefore: full,
      leavesAfter: pruned.stats().leaves,
      confidence: 0.25,
    });
  });

  it('cost-complexity with α chosen by 10-fold CV: no more leaves than unpruned, deterministic given the seed', () => {
    const full = fit(data!, { algorithm: 'cart', prune: 'none' }).stats().leaves;
    const a = fit(data!, { algorithm: 'cart', prune: 'cost-complexity', ccpRule: '1se', seed: 1 });
    const b = fit(data!, { algorithm: 'cart', prune: 'cost-complexity', ccpRule: '1se', seed: 1 });
    const min = fit(data!, { algorithm: 'cart', prune: 'cost-complexity', ccpRule: 'min', seed: 1 });
    expect(JSON.stringify(a.toJSON())).toBe(JSON.stringify(b.toJSON()));
    expect(a.stats().leaves).toBeLessThanOrEqual(full);
    expect(a.stats().leaves).toBeLessThan(full / 2);
    expect(a.stats().leaves).toBeLessThanOrEqual(min.stats().leaves);
    // The chosen row obeys the rule: the largest α whose CV error ≤ min + 1 SE.
    const cv = a.pruning!.cv!;
    const best = cv.table[cv.minIndex];
    cv.table.forEach((row, j) => {
      expect(row.error).toBeGreaterThanOrEqual(best.error);
      if (j > cv.chosenIndex) expect(row.error).toBeGreaterThan(best.error + best.se);
    });
    expect(cv.table[cv.chosenIndex].error).toBeLessThanOrEqual(best.error + best.se);
    expect(a.pruning!.alpha).toBe(cv.table[cv.chosenIndex].alpha);
    expect(a.stats().leaves).toBe(cv.table[cv.chosenIndex].leaves);
    expect(cv.table.every((row) => row.foldErrors.length === 10)).toBe(true);
  });
});
