import type { SearchProgress } from '../optimal/fit-optimal.js';
import { ttyProgress } from './tty-progress.js';

/**
 * A one-line status of the optimal-tree search on stderr (`ttyProgress`: once the search has
 * lasted a second, on a terminal, not with --no-progress); `stop()` clears it.
 */
export function searchProgressLine(
  show: boolean,
  stream: NodeJS.WriteStream = process.stderr,
): { onProgress?: (p: SearchProgress) => void; stop: () => void } {
  const line = ttyProgress('optimal search', { show, stream });
  if (!line.shown) return { stop: () => {} };
  const onProgress = (p: SearchProgress): void => {
    const bound = Number.isFinite(p.bound) ? `, best so far ${p.bound.toPrecision(6)}` : '';
    const resident = p.resident === undefined ? '' : `, ${(p.resident / 2 ** 20).toFixed(0)} MB resident`;
    const text =
      `${p.seconds.toFixed(0)} s: ${p.subproblems} sub-problems ` +
      `(${p.depth2} depth-2), ${p.cacheHits} cache hits${resident}${bound}`;
    line.update(p.subproblems, undefined, text);
  };
  return { onProgress, stop: line.stop };
}
