import type { ResolvedOptions } from '../../options/options.js';

/**
 * What a C-MBSV model file records differently from grove's common options:
 * `criterion: 'correlation'`, since C-MBSV selects by correlation and scores no split with a
 * criterion. (Its own settings go under `options.cmbsv`, by the option table.) Empty for every
 * other algorithm.
 */
export function cmbsvSavedOptions(o: ResolvedOptions): { criterion?: string } {
  return o.algorithm === 'cmbsv' ? { criterion: 'correlation' } : {};
}
