import type { SearchProgress } from '../optimal/fit-optimal.js';

/**
 * A one-line status of the optimal-tree search on stderr, redrawn in place about twice a second
 * once the search has lasted a second, when stderr is a terminal (never in a pipe or a log, or
 * with --no-progress); `stop()` clears it.
 */
export function searchProgressLine(
  show: boolean,
  stream: NodeJS.WriteStream = process.stderr,
): { onProgress?: (p: SearchProgress) => void; stop: () => void } {
  if (!show || !stream.isTTY) return { stop: () => {} };
  let drawn = false;
  const onProgress = (p: SearchProgress): void => {
    if (p.seconds < 1) return;
    const bound = Number.isFinite(p.bound) ? `, best so far ${p.bound.toPrecision(6)}` : '';
    const line =
      `grove: optimal search ${p.seconds.toFixed(0)} s: ${p.subproblems} sub-problems ` +
      `(${p.depth2} depth-2), ${p.cacheHits} cache hits${bound}`;
    stream.write(`\r\x1b[2K${line}`);
    drawn = true;
  };
  return { onProgress, stop: () => drawn && stream.write('\r\x1b[2K') };
}
