import type { SavedCmbsvOptions } from '../../model/schema.js';
import type { ResolvedOptions } from '../../options/options.js';

/**
 * What a C-MBSV model file records beyond grove's common options: its settings under
 * `options.cmbsv`, and `criterion: 'correlation'` (C-MBSV selects by correlation and scores no
 * split with a criterion). Empty for every other algorithm.
 */
export function cmbsvSavedOptions(o: ResolvedOptions): { criterion?: string; cmbsv?: SavedCmbsvOptions } {
  if (o.algorithm !== 'cmbsv') return {};
  return {
    criterion: 'correlation',
    cmbsv: {
      labelCoding: o.labelCoding,
      correlationCentring: o.correlationCentring,
      svmC: o.svmC,
      svmBalance: o.svmBalance,
      svmScaling: o.svmScaling,
      svmBias: o.svmBias,
      unclassified: o.unclassified,
      knnK: o.knnK,
    },
  };
}
