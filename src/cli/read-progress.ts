/**
 * Reading a command's data source, with a progress bar on stderr for reads that take longer than
 * a second when stderr is a terminal (never in a pipe, a log, or with --no-progress).
 */

import cliProgress from 'cli-progress';
import type { Dataset } from '../data/dataset.js';
import { type DataSource, openSource, type ReadProgress, type SourceReadOptions } from '../sources/index.js';
import { warn } from './output.js';

/** Reads shorter than this show no progress. */
const QUIET_MS = 1000;

function human(n: number, bytes: boolean): string {
  if (!bytes) return n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(0)}k` : String(n);
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
  const started = now();
  let bar: cliProgress.SingleBar | undefined;
  const onProgress = (p: ReadProgress): void => {
    const elapsed = now() - started;
    if (elapsed < QUIET_MS) return;
    const bytes = p.bytes !== undefined;
    const done = (bytes ? p.bytes : p.rows) ?? 0;
    const total = (bytes ? p.totalBytes : p.totalRows) ?? done;
    const unit = bytes ? '' : ' rows';
    const payload = {
      done: `${human(done, bytes)}${unit}`,
      all: `${human(total, bytes)}${unit}`,
      rate: `${human((done * 1000) / elapsed, bytes)}${unit}/s`,
    };
    if (!bar) {
      bar = new cliProgress.SingleBar(
        {
          stream,
          format: `grove: reading ${label} {bar} {percentage}% | {done} of {all} | {rate}`,
          barsize: 24,
          hideCursor: true,
          clearOnComplete: true,
          fps: 5,
        },
        cliProgress.Presets.shades_classic,
      );
      bar.start(Math.max(1, total), done, payload);
    } else bar.update(done, payload);
  };
  return { onProgress, stop: () => bar?.stop() };
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
