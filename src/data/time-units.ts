/** Dates and times read as seconds (see {@link TimeUnit}): how such a number reads as a date or a time again. */

import type { TimeUnit } from './dataset.js';

/** Words for a unit, as `grove info` and `grove show` print it. */
export function timeUnitText(unit: TimeUnit): string {
  return unit === 'epoch-seconds' ? 'seconds since 1970-01-01' : 'seconds since midnight';
}

/**
 * Seconds of `unit` as a date or time: `2020-01-02`, `2020-01-02 03:04:05.5` (UTC, or the wall
 * clock of a zone-less timestamp), `03:04:05`; a value no date holds as its number.
 */
export function timeText(seconds: number, unit: TimeUnit): string {
  const ms = Math.round(seconds * 1000);
  if (!Number.isFinite(seconds) || Math.abs(ms) > 8.64e15) return String(seconds);
  const iso = new Date(ms).toISOString(); // 2020-01-02T03:04:05.500Z (±YYYYYY for far years)
  const at = iso.indexOf('T');
  const clock = iso.slice(at + 1, -1).replace(/\.000$/, '');
  if (unit === 'day-seconds') return clock;
  return clock === '00:00:00' ? iso.slice(0, at) : `${iso.slice(0, at)} ${clock}`;
}
