import type { LevelReport } from '../engines/level-loop.js';
import { compactCount, type TtyProgressOptions, ttyProgress } from './tty-progress.js';

/**
 * Progress of a fit inside a database, one report per level of the tree. On a terminal, a bar of
 * the rows already in leaves, redrawn in place (`ttyProgress`); in a pipe or a log, where a long
 * in-database run is often watched, one line per level. Nothing with --no-progress.
 */
export function engineProgress(
  engine: string,
  where: TtyProgressOptions = {},
): { onLevel: (report: LevelReport) => void; rows: () => number; stop: () => void } {
  const { show = true, stream = process.stderr } = where;
  const bar = ttyProgress(`growing in ${engine}`, where);
  let total = 0;
  const onLevel = (r: LevelReport): void => {
    if (r.level === 0) total = r.rows;
    if (bar.shown) {
      const text = `level ${r.level}: ${compactCount(r.openNodes)} open nodes, ${compactCount(r.rows)} rows left`;
      bar.update(total - r.rows, total, text);
    } else if (show) {
      stream.write(`grove: level ${r.level}: ${r.openNodes} open nodes, ${r.rows} rows, ${r.seconds.toFixed(1)} s\n`);
    }
  };
  return { onLevel, rows: () => total, stop: bar.stop };
}
