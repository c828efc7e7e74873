/**
 * Run one benchmark child under GNU time (peak RSS of the whole process, %M) with a wall-clock
 * cap: the child is started in its own process group and the whole group is killed at the cap.
 * stdout is parsed as JSON lines ({"event": ...}); the last "result" event is the result, the
 * "fit" events before it survive a kill (so a capped run still reports the fits it finished).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const GNU_TIME = '/usr/bin/time';

export function hasGnuTime() {
  if (!existsSync(GNU_TIME)) return false;
  return true;
}

/**
 * @returns {Promise<{ status: 'ok' | 'capped' | 'failed', events: object[], result?: object,
 *   peakRssBytes: number | null, wallSeconds: number, stderr: string, exitCode: number | null }>}
 */
export function runChild(cmd, args, { capSeconds, env, cwd, useTime = true, keepStdout = false, onEvent = () => {} }) {
  const dir = mkdtempSync(join(tmpdir(), 'grove-bench-'));
  const timeFile = join(dir, 'time.txt');
  const [file, argv] = useTime ? [GNU_TIME, ['-f', '%M %e', '-o', timeFile, cmd, ...args]] : [cmd, args];
  const started = performance.now();
  return new Promise((resolvePromise) => {
    const child = spawn(file, argv, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let raw = '';
    let err = '';
    const events = [];
    let capped = false;
    const takeLines = () => {
      let nl;
      while ((nl = out.indexOf('\n')) >= 0) {
        const line = out.slice(0, nl).trim();
        out = out.slice(nl + 1);
        if (!line.startsWith('{')) continue;
        try {
          const ev = JSON.parse(line);
          events.push(ev);
          onEvent(ev);
        } catch {
          /* not ours */
        }
      }
    };
    child.stdout.on('data', (b) => {
      const text = b.toString();
      if (keepStdout) raw += text;
      else out += text;
      if (!keepStdout) takeLines();
    });
    child.stderr.on('data', (b) => {
      err += b.toString();
      if (err.length > 200_000) err = err.slice(-100_000);
    });
    const timer = setTimeout(() => {
      capped = true;
      try {
        process.kill(-child.pid, 'SIGKILL'); // the group we started: GNU time and the child under it
      } catch {
        /* already gone */
      }
    }, capSeconds * 1000);
    child.on('close', (code) => {
      clearTimeout(timer);
      takeLines();
      const wallSeconds = (performance.now() - started) / 1000;
      let peakRssBytes = null;
      if (useTime && existsSync(timeFile)) {
        const lines = readFileSync(timeFile, 'utf8').trim().split('\n');
        const m = lines[lines.length - 1].match(/^(\d+) ([\d.]+)$/);
        if (m) peakRssBytes = Number(m[1]) * 1024;
      }
      rmSync(dir, { recursive: true, force: true });
      const result = [...events].reverse().find((e) => e.event === 'result');
      const status = capped ? 'capped' : result && code === 0 ? 'ok' : 'failed';
      resolvePromise({
        status: keepStdout ? (capped ? 'capped' : code === 0 ? 'ok' : 'failed') : status,
        events,
        result,
        peakRssBytes,
        wallSeconds,
        stdout: raw,
        stderr: err,
        exitCode: code,
      });
    });
  });
}

/**
 * Run `cmd args` to the end under GNU time (its figures in a file of their own, so the child's
 * stderr stays the child's): the parent's wall seconds, user + system CPU seconds, peak RSS in
 * bytes, and the child's output. Throws when the child fails.
 *
 * @returns {{ wall: number, cpu: number, rssBytes: number, stdout: string, stderr: string }}
 */
export function timedSync(cmd, args, { env } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'grove-bench-'));
  const timeFile = join(dir, 'time.txt');
  try {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(GNU_TIME, ['-f', '%M %U %S', '-o', timeFile, cmd, ...args], {
      encoding: 'utf8',
      env,
      maxBuffer: 1 << 26,
    });
    const wall = Number(process.hrtime.bigint() - t0) / 1e9;
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr.slice(-2000)}`);
    const [kb, user, system] = readFileSync(timeFile, 'utf8').trim().split('\n').pop().split(' ').map(Number);
    return { wall, cpu: user + system, rssBytes: kb * 1024, stdout: r.stdout, stderr: r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
