import { GroveError } from '../core/errors.js';
import type { FitOptions } from './types.js';

/** A fit's `threads` option checked (default 1); `label` names it in the error (`threads`, `--threads`). */
export function checkThreads(threads: FitOptions['threads'], label: string): number | 'auto' {
  if (threads === undefined) return 1;
  if (threads === 'auto' || (Number.isInteger(threads) && threads >= 1)) return threads;
  throw new GroveError(`${label} must be an integer ≥ 1 or 'auto', got ${String(threads)}`, { code: 'E_OPTION' });
}
