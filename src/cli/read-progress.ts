/**
 * Reading a command's data source, with a progress bar on stderr for reads that take longer than
 * a second when stderr is a terminal (never in a pipe, a log, or with --no-progress).
 */

import type { Dataset } from '../data/dataset.js';
import { type DataSource, openSource, type ReadProgress, type SourceReadOptions } from '../sources/index.js';
import { warn } from './output.js';
import { compactCount, ttyProgress } from './tty-progress.js';

function human(n: number, bytes: boolean): string {
  if (!bytes) return compactCount(n);
  return n >= 1 << 30
    ? `${(n / (1 << 30)).toFixed(2)} GB`
    : n >= 1 << 20
      ? `${(n / (1 << 20)).toFixed(1)} MB`
      : `${(n / 1024).toFixed(0)} kB`;
}

/** A progress callback that draws a bar once a read has lasted a second; `stop()` clears it. */
export function readProgressBar(
  label: string,
  stream: NodeJS.WriteStream = process.stderr,
  now: () => number = Date.now,
): { onProgress: (p: ReadProgress) => void; stop: () => void } {
  const shown = ttyProgress(`reading ${label}`, { stream, now });
  const onProgress = (p: ReadProgress): void => {
    const bytes = p.bytes !== undefined;
    const done = (bytes ? p.bytes : p.rows) ?? 0;
    const total = (bytes ? p.totalBytes : p.totalRows) ?? done;
    const unit = bytes ? '' : ' rows';
    const rate = `${human(shown.rate(done), bytes)}${unit}/s`;
    const text = `${human(done, bytes)}${unit} of ${human(total, bytes)}${unit} | ${rate}`;
    shown.update(done, total, text);
  };
  return { onProgress, stop: shown.stop };
}

/**
 * Read `spec` (any source, or an opened one) for a command; `progress` false (from --no-progress) or a stderr that
 * is not a terminal means no bar. Warnings (a skipped column) go to stderr.
 */
export async function readData(
  spec: string | DataSource,
  options: SourceReadOptions,
  progress = true,
): Promise<Dataset> {
  const source = typeof spec === 'string' ? openSource(spec) : spec;
  const shown = progress && process.stderr.isTTY ? readProgressBar(source.spec) : undefined;
  try {
    return await source.read({ onWarning: warn, ...options, onProgress: shown?.onProgress });
  } finally {
    shown?.stop();
  }
}
