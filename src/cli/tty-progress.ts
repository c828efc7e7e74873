/**
 * Progress on stderr for work that may last: nothing during its first second, then a bar (when the
 * total is known) or a status line, redrawn in place by cli-progress; only when the stream is a
 * terminal (never in a pipe or a log) and not with --no-progress. `stop()` clears it, so what the
 * command prints next starts on a clean line. Every command's progress (reading, growing, searching,
 * explaining) is drawn by this.
 */

import cliProgress from 'cli-progress';

/** Work shorter than this shows nothing. */
const QUIET_MS = 1000;

/** What a command shows its progress on. */
export interface TtyProgress {
  /**
   * `done` of `total` (undefined: a status line without a bar), then `text`. Cheap before the first
   * second and when nothing is shown, so it may be called often.
   */
  update(done: number, total: number | undefined, text: string): void;
  /** `done` per second since the start. */
  rate(done: number): number;
  /** Clear what was drawn. */
  stop(): void;
  /** False when nothing will be drawn (not a terminal, or --no-progress): callers may skip their callback. */
  readonly shown: boolean;
}

/** Where and whether to draw. */
export interface TtyProgressOptions {
  /** False with --no-progress. Default true. */
  show?: boolean;
  /** Default process.stderr (drawn only when it is a terminal). */
  stream?: NodeJS.WriteStream;
  /** The clock (tests). */
  now?: () => number;
}

/** Progress named `label` ("reading x.csv", "growing a forest"), as a `grove: LABEL …` line. */
export function ttyProgress(label: string, options: TtyProgressOptions = {}): TtyProgress {
  const { stream = process.stderr, now = Date.now } = options;
  const shown = options.show !== false && stream.isTTY === true;
  const started = now();
  let bar: cliProgress.SingleBar | undefined;
  const rate = (done: number): number => (done * 1000) / Math.max(1, now() - started);
  const update = (done: number, total: number | undefined, text: string): void => {
    if (!shown || now() - started < QUIET_MS) return;
    if (!bar) {
      const counted = total !== undefined;
      bar = new cliProgress.SingleBar(
        {
          stream,
          format: counted ? `grove: ${label} {bar} {percentage}% | {text}` : `grove: ${label} {text}`,
          barsize: 24,
          hideCursor: true,
          clearOnComplete: true,
          fps: 5,
        },
        cliProgress.Presets.shades_classic,
      );
      bar.start(Math.max(1, total ?? 1), counted ? done : 0, { text });
      return;
    }
    if (total !== undefined) bar.setTotal(Math.max(1, total));
    bar.update(total === undefined ? 0 : done, { text });
  };
  return { update, rate, stop: () => bar?.stop(), shown };
}

/** A count in few characters: 950, 12k, 3.4M. */
export function compactCount(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e4 ? `${(n / 1e3).toFixed(0)}k` : String(Math.round(n));
}

/** `done of total unit | rate unit/s` (counts compacted). */
export function countText(progress: TtyProgress, done: number, total: number, unit: string): string {
  return `${compactCount(done)} of ${compactCount(total)} ${unit} | ${compactRate(progress.rate(done))} ${unit}/s`;
}

/** A rate: three significant digits below 100, whole up to 10,000, compacted above. */
export function compactRate(r: number): string {
  return r >= 1e4 ? compactCount(r) : r >= 100 ? String(Math.round(r)) : r.toPrecision(3);
}
