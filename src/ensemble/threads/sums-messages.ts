/** Messages between a forest's parallel prediction and its workers (parallel-sums.ts, sums-worker.ts). */
import type { SharedSums } from '../forest-sums.js';

/** What a worker is asked: sum blocks of `job` with block `slot`, or go idle (no answer). */
export type SumsRequest = { op: 'sums'; job: SharedSums; slot: number } | { op: 'release' };

/** What a worker answers: no block left, or its error message. */
export type SumsReply = { op: 'done' } | { op: 'error'; error: string };
