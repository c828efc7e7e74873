/**
 * The explore page's status: its element lookup, the error box, the busy flag the tests (and
 * screen readers) read, and waiting for the browser to paint.
 */
import { Cancelled } from './client.js';

/** The page's element of id `id`. */
export const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** Show `message` in the page's error box. */
export function showError(message: string): void {
  const box = $('error');
  box.textContent = message;
  box.hidden = false;
}

/** Hide the page's error box. */
export function clearError(): void {
  $('error').hidden = true;
}

/** Show an error unless it is a request dropped with its worker. */
export function report(err: unknown): void {
  if (!(err instanceof Cancelled)) showError(err instanceof Error ? err.message : String(err));
}

let pending = 0;
/** `p`, the page marked busy until it and every other promise passed here settle. */
export function busy<T>(p: Promise<T>): Promise<T> {
  pending++;
  document.body.dataset.state = 'busy';
  const done = () => {
    if (--pending === 0) document.body.dataset.state = 'idle';
  };
  p.then(done, done);
  return p;
}

/** Resolves once the browser has painted the next frame, or once the tab is hidden (a hidden tab paints none). */
export function afterPaint(): Promise<void> {
  if (document.hidden) return Promise.resolve();
  return new Promise((done) => {
    const finish = () => {
      document.removeEventListener('visibilitychange', finish);
      done();
    };
    document.addEventListener('visibilitychange', finish);
    requestAnimationFrame(() => setTimeout(finish, 0));
  });
}

/** `painted`, or `ms` from now if that comes first. */
export function paintedOrLate(painted: Promise<void>, ms: number): Promise<void> {
  return Promise.race([painted, new Promise<void>((done) => setTimeout(done, ms))]);
}

/**
 * `f()`, marked on the page's performance timeline as a measure named `name`: the open bench
 * (bench/explore-open.mjs) names the steps a long task of the main thread overlaps.
 */
export function measured<T>(name: string, f: () => T): T {
  const start = performance.now();
  try {
    return f();
  } finally {
    performance.measure(name, { start });
  }
}
