/**
 * Standard output that fails, on the built CLI: a pipe closed by its reader (`grove predict … |
 * head -1`) ends the run quietly (exit 0, nothing on stderr, as Unix tools end on SIGPIPE); a full
 * device (`> /dev/full`: ENOSPC) is one line and exit 2, never a stack trace.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cliPath, fixture, grove, lines } from '../helpers/cli.js';

let dir: string;
let data: string;
let model: string;
beforeAll(() => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'grove-stdout-'));
  // Far more predictions than a pipe's buffer holds (64 KiB), so the writer meets the closed pipe.
  data = join(dir, 'big.csv');
  const rows = ['x,y,class'];
  for (let i = 0; i < 60_000; i++) rows.push(`${i % 97},${(i * 7) % 13},${i % 3 === 0 ? 'alpha' : 'beta'}`);
  writeFileSync(data, `${rows.join('\n')}\n`);
  model = join(dir, 'model.json');
  expect(grove(['fit', data, '--max-depth', '3', '--out', model]).status).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = { ...process.env, GROVE_DEBUG: '', NO_COLOR: '1' };

/** Run the CLI with stdout a pipe that the reader closes after its first chunk. */
function closedPipe(args: readonly string[]): Promise<{ code: number | null; stderr: string; read: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let read = 0;
    child.stderr.on('data', (c) => {
      stderr += String(c);
    });
    child.stdout.once('data', (c: Buffer) => {
      read = c.length;
      child.stdout.destroy();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr, read }));
  });
}

describe('a closed pipe ends the run quietly', () => {
  it('predict (also with probabilities and paths): exit 0, nothing on stderr', async () => {
    for (const args of [
      ['predict', data, '--model', model],
      ['predict', data, '--model', model, '--proba', '--path'],
    ]) {
      const r = await closedPipe(args);
      expect(r.read).toBeGreaterThan(0);
      expect(r.stderr).toBe('');
      expect([0, 141]).toContain(r.code);
    }
  }, 60_000);
});

describe.skipIf(!existsSync('/dev/full'))('a full device (ENOSPC) is one line, exit 2', () => {
  it('info, show, export, criteria and predict > /dev/full', () => {
    for (const args of [
      ['info', fixture('play-tennis.csv')],
      ['show', model],
      ['export', model, '--format', 'sql', '--dialect', 'duckdb', '--table', 't'],
      ['criteria'],
      ['predict', data, '--model', model],
    ]) {
      const full = openSync('/dev/full', 'w');
      try {
        const r = spawnSync(process.execPath, [cliPath, ...args], { env, stdio: ['ignore', full, 'pipe'] });
        const stderr = String(r.stderr);
        expect(r.status, stderr).toBe(2);
        expect(lines(stderr)).toEqual(['grove: cannot write the standard output (ENOSPC)']);
      } finally {
        closeSync(full);
      }
    }
  });
});
