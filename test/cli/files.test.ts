/**
 * What grove promises about the user's files (docs/limits.md, "Files"), on the built CLI:
 * an output never overwrites an input (also through a symlink or a hard link); `--out` that is a
 * symlink is written through, a non-regular file is refused, an existing file keeps its mode; two
 * `compare` runs never share an output folder; a signal never leaves a temporary file behind.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, type CliResult, cliPath, fixture, grove, lines, repoRoot, tmpLeftovers } from '../helpers/cli.js';

const PLAY = fixture('play-tennis.csv');
const IRIS = resolve(repoRoot, 'data', 'iris.csv');
let root: string;
let n = 0;
/** A fresh empty directory for one test. */
const fresh = () => {
  const d = join(root, `t${n++}`);
  mkdirSync(d);
  return d;
};

beforeAll(() => {
  assertBuilt();
  root = mkdtempSync(join(tmpdir(), 'grove-files-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Exit 2, exactly one line on stderr, matching `pattern`. */
function expectRefused(r: CliResult, pattern: RegExp): void {
  expect(r.status, r.stderr).toBe(2);
  expect(lines(r.stderr)).toHaveLength(1);
  expect(r.stderr).toMatch(pattern);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

/** A data copy, and a model fitted on it, in a fresh directory. */
function setup(): { dir: string; data: string; model: string } {
  const dir = fresh();
  const data = join(dir, 'play.csv');
  copyFileSync(PLAY, data);
  const model = join(dir, 'model.json');
  const r = grove(['fit', data, '--out', model]);
  expect(r.status, r.stderr).toBe(0);
  return { dir, data, model };
}

const quoteRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('an output never overwrites an input', () => {
  it('fit DATA --out DATA (same path, a symlink to it, a hard link to it) is refused before any work', () => {
    const { dir, data } = setup();
    const before = readFileSync(data, 'utf8');
    symlinkSync(data, join(dir, 'sym.csv'));
    linkSync(data, join(dir, 'hard.csv'));
    for (const out of [data, join(dir, 'sym.csv'), join(dir, 'hard.csv'), join(dir, '.', 'play.csv')]) {
      const r = grove(['fit', data, '--out', out]);
      expectRefused(r, new RegExp(`--out ${quoteRe(out)}.*input`));
      expect(readFileSync(data, 'utf8')).toBe(before);
    }
    // The symlink is the input, the real file the output: refused too.
    expectRefused(grove(['fit', join(dir, 'sym.csv'), '--out', data]), /--out .*input/);
    expect(readFileSync(data, 'utf8')).toBe(before);
    expect(tmpLeftovers(dir)).toEqual([]);
  });

  it('predict: --out equal to the data or to the model is refused', () => {
    const { dir, data, model } = setup();
    const d0 = readFileSync(data, 'utf8');
    const m0 = readFileSync(model, 'utf8');
    symlinkSync(model, join(dir, 'model-link.json'));
    for (const out of [data, model, join(dir, 'model-link.json')]) {
      expectRefused(grove(['predict', data, '--model', model, '--out', out]), /--out .*input/);
    }
    expect(readFileSync(data, 'utf8')).toBe(d0);
    expect(readFileSync(model, 'utf8')).toBe(m0);
    expect(tmpLeftovers(dir)).toEqual([]);
  });

  it('show MODEL --out MODEL (or a hard link to it) is refused', () => {
    const { dir, model } = setup();
    const m0 = readFileSync(model, 'utf8');
    linkSync(model, join(dir, 'same.json'));
    for (const format of ['text', 'json']) {
      for (const out of [model, join(dir, 'same.json')]) {
        expectRefused(grove(['show', model, '--format', format, '--out', out]), /--out .*input/);
      }
    }
    expect(readFileSync(model, 'utf8')).toBe(m0);
  });

  it('report RESULTS --out RESULTS and compare --json/--out onto an input are refused', () => {
    const dir = fresh();
    const out = join(dir, 'run');
    const base = ['compare', '--data', IRIS, '--algorithms', 'id3', '--criteria', '', '--folds', '2', '--no-models'];
    expect(grove([...base, '--no-progress', '--out', out]).status).toBe(0);
    const results = join(out, 'results.json');
    const r0 = readFileSync(results, 'utf8');
    expectRefused(grove(['report', results, '--out', results]), /--out .*input/);
    expect(readFileSync(results, 'utf8')).toBe(r0);

    // --json onto a data file; --json onto the --configs file.
    const data = join(dir, 'iris.csv');
    copyFileSync(IRIS, data);
    const d0 = readFileSync(data, 'utf8');
    expectRefused(grove(['compare', '--data', data, '--json', data]), /--json .*input/);
    const configs = join(dir, 'configs.json');
    writeFileSync(configs, '{"a":{"algorithm":"id3"}}');
    expectRefused(grove(['compare', '--data', IRIS, '--configs', `@${configs}`, '--json', configs]), /--json .*input/);
    expect(readFileSync(configs, 'utf8')).toBe('{"a":{"algorithm":"id3"}}');
    // --out DIR when DIR holds a data file that compare writes (results.csv).
    const both = join(dir, 'both');
    mkdirSync(both);
    copyFileSync(IRIS, join(both, 'results.csv'));
    expectRefused(grove(['compare', '--data', both, '--out', both]), /--out .*results\.csv.*input/);
    expect(readFileSync(join(both, 'results.csv'), 'utf8')).toBe(d0);
    expect(readdirSync(both)).toEqual(['results.csv']);
  });
});

describe('--out: the atomic write', () => {
  it('writes through a symlink (also a dangling one): the link stays a link', () => {
    const { dir, data } = setup();
    const target = join(dir, 'real.json');
    writeFileSync(target, 'old');
    const link = join(dir, 'link.json');
    symlinkSync('real.json', link); // relative, as `ln -s` makes them
    expect(grove(['fit', data, '--out', link]).status).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe('real.json');
    expect(JSON.parse(readFileSync(target, 'utf8')).format).toBe('grove-tree');

    const dangling = join(dir, 'dangling.json');
    symlinkSync(join(dir, 'new.json'), dangling);
    expect(grove(['show', join(dir, 'real.json'), '--out', dangling]).status).toBe(0);
    expect(lstatSync(dangling).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'new.json'), 'utf8')).toMatch(/^Outlook|^\S/);
    expect(tmpLeftovers(dir)).toEqual([]);
  });

  it('refuses a directory, a FIFO, a socket and a device (through a symlink), replacing none', async () => {
    const { dir, data, model } = setup();
    const sub = join(dir, 'sub');
    mkdirSync(sub);
    const fifo = join(dir, 'fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const sock = join(dir, 'sock');
    const server: Server = createServer();
    await new Promise<void>((done) => server.listen(sock, done));
    const dev = join(dir, 'null-link');
    symlinkSync('/dev/null', dev);
    try {
      const cases: Array<[string, RegExp, () => boolean]> = [
        [sub, /directory/, () => statSync(sub).isDirectory()],
        [fifo, /FIFO/, () => lstatSync(fifo).isFIFO()],
        [sock, /socket/, () => lstatSync(sock).isSocket()],
        [dev, /device/, () => lstatSync(dev).isSymbolicLink() && statSync(dev).isCharacterDevice()],
      ];
      for (const [out, kind, intact] of cases) {
        for (const args of [
          ['fit', data, '--out', out],
          ['predict', data, '--model', model, '--out', out],
        ]) {
          const r = grove(args);
          expectRefused(r, new RegExp(`${quoteRe(out)}.*not a regular file`));
          expect(r.stderr).toMatch(kind);
          expect(intact()).toBe(true);
        }
      }
      expect(tmpLeftovers(dir)).toEqual([]);
    } finally {
      server.close();
    }
  });

  it('an existing --out keeps its permission bits; a new one gets the umask mode', () => {
    const { dir, data, model } = setup();
    const out = join(dir, 'kept.csv');
    writeFileSync(out, 'old');
    chmodSync(out, 0o640);
    expect(grove(['predict', data, '--model', model, '--out', out]).status).toBe(0);
    expect(statSync(out).mode & 0o7777).toBe(0o640);
    expect(readFileSync(out, 'utf8')).toMatch(/^predicted\n/);
    chmodSync(out, 0o600);
    expect(grove(['fit', data, '--out', out]).status).toBe(0);
    expect(statSync(out).mode & 0o7777).toBe(0o600);
    // A new file: 0o666 less the umask (the child inherits ours).
    const created = join(dir, 'created.json');
    expect(grove(['fit', data, '--out', created]).status).toBe(0);
    const umask = process.umask();
    expect(statSync(created).mode & 0o7777).toBe(0o666 & ~umask);
  });
});

// ---------------------------------------------------------------------------------------------
// A child grove run, for the lock and signal tests
// ---------------------------------------------------------------------------------------------

interface Running {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/**
 * Start `grove ...args`; `pauseAfterTemp` = `name:ms` makes every atomic write of a file called
 * `name` wait `ms` after its temporary file is written (GROVE_TEST_PAUSE_AFTER_TEMP).
 */
function start(args: readonly string[], pauseAfterTemp?: string): Running {
  const child = spawn(process.execPath, [cliPath, ...args], {
    cwd: repoRoot,
    env: { ...process.env, GROVE_DEBUG: '', GROVE_TEST_PAUSE_AFTER_TEMP: pauseAfterTemp ?? '' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (b) => {
    stdout += b;
  });
  child.stderr!.on('data', (b) => {
    stderr += b;
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (ok) => child.on('close', (code, signal) => ok({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

/** Wait until `dir` holds a temporary file (or fail after 20 s). */
async function untilTemp(dir: string, running: Running): Promise<void> {
  const t0 = Date.now();
  let exited = false;
  void running.done.then(() => {
    exited = true;
  });
  while (!existsSync(dir) || tmpLeftovers(dir).length === 0) {
    if (exited)
      throw new Error(`grove ended before writing a temporary file in ${dir}: ${(await running.done).stderr}`);
    if (Date.now() - t0 > 20_000) throw new Error(`no temporary file appeared in ${dir}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const COMPARE = ['compare', '--data', IRIS, '--algorithms', 'id3', '--criteria', '', '--folds', '2', '--no-models'];
const LOCK = '.grove-compare.lock';

describe('compare: one run per --out folder', () => {
  it('a second run into the same --out is refused, naming the folder; the first finishes and unlocks', async () => {
    const out = join(fresh(), 'run');
    const first = start([...COMPARE, '--jobs', '1', '--no-progress', '--out', out], 'cells.jsonl:1500');
    await untilTemp(out, first);
    // Stopped, the first run still holds the lock however slowly the second one starts.
    first.child.kill('SIGSTOP');
    let second: CliResult;
    try {
      second = grove([...COMPARE, '--no-progress', '--out', out]);
    } finally {
      first.child.kill('SIGCONT');
    }
    expectRefused(second, new RegExp(`${quoteRe(out)}.*another grove compare \\(pid ${first.child.pid}\\)`));
    const r = await first.done;
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(out, LOCK))).toBe(false);
    expect(JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')).folds).toHaveLength(2);
    // Free again: a later run goes ahead.
    expect(grove([...COMPARE, '--no-progress', '--out', out]).status).toBe(0);
  });

  it('a lock left by a process that is gone is taken over, with a note', () => {
    const out = fresh();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    }).stdout;
    writeFileSync(join(out, LOCK), `${dead}\n`);
    const r = grove([...COMPARE, '--no-progress', '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`taking over .*lock.* pid ${dead}`));
    expect(existsSync(join(out, LOCK))).toBe(false);
  });

  it('a lock held by a live process refuses the run before anything is written', () => {
    const out = fresh();
    writeFileSync(join(out, LOCK), `${process.pid}\n`);
    expectRefused(grove([...COMPARE, '--out', out]), new RegExp(`${quoteRe(out)}.*pid ${process.pid}`));
    expect(readdirSync(out)).toEqual([LOCK]);
  });

  it('the lock is released after an error and after Ctrl-C', async () => {
    const out = fresh();
    expect(grove([...COMPARE, '--no-progress', '--out', out]).status).toBe(0);
    // --resume with other settings fails once the lock is held.
    expectRefused(grove([...COMPARE, '--folds', '3', '--out', out, '--resume']), /cannot resume/);
    expect(existsSync(join(out, LOCK))).toBe(false);
    const run = start([...COMPARE, '--jobs', '1', '--no-progress', '--out', out], 'cells.jsonl:1500');
    await untilTemp(out, run);
    run.child.kill('SIGINT');
    const r = await run.done;
    expect(r.code, r.stderr).toBe(130);
    expect(existsSync(join(out, LOCK))).toBe(false);
    expect(tmpLeftovers(out)).toEqual([]);
  });
});

describe('a signal leaves no temporary file', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('fit: %s while the model is being written', async (signal, code) => {
    const { dir, data } = setup();
    const run = start(['fit', data, '--out', join(dir, 'big.json')], 'big.json:1500');
    await untilTemp(dir, run);
    run.child.kill(signal);
    const r = await run.done;
    expect(tmpLeftovers(dir)).toEqual([]);
    expect(r.code, r.stderr).toBe(code);
  });

  it('predict and show: SIGTERM while the output is being written', async () => {
    const { dir, data, model } = setup();
    for (const args of [
      ['predict', data, '--model', model, '--proba', '--out', join(dir, 'out.txt')],
      ['show', model, '--format', 'rules', '--out', join(dir, 'out.txt')],
    ]) {
      const run = start(args, 'out.txt:1500');
      await untilTemp(dir, run);
      run.child.kill('SIGTERM');
      const r = await run.done;
      expect(tmpLeftovers(dir)).toEqual([]);
      expect(r.code, r.stderr).toBe(143);
    }
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('compare: %s while report.html is being written', async (signal, code) => {
    const out = join(fresh(), 'run');
    const run = start([...COMPARE, '--jobs', '1', '--no-progress', '--out', out], 'report.html:1500');
    await untilTemp(out, run);
    run.child.kill(signal);
    const r = await run.done;
    expect(tmpLeftovers(out)).toEqual([]);
    expect(r.code, r.stderr).toBe(code);
    expect(existsSync(join(out, LOCK))).toBe(false);
  });
});
