/**
 * Damaged Arrow IPC files: a valid file (file and stream format, dictionary columns, nulls) made
 * with apache-arrow, one bit flipped at a time — every bit of the metadata (message prefixes,
 * flatbuffers, footer) in a long run; in `npm test` every bit of the first message of the file format and a
 * seeded sample of the other metadata and of the bodies, some gzip-compressed. Property: grove's reader gives a Dataset or a one-line GroveError naming
 * the file, quickly; apache-arrow alone loops for minutes and takes gigabytes on some of these.
 * The reads run in a worker with a heap limit, so a hang or a runaway allocation is reported.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Bool, Dictionary, Float64, Int32, Table, tableToIPC, Utf8, vectorFromArray } from 'apache-arrow';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkMessage } from '../../src/data/arrow-metadata.js';
import { repoRoot } from '../helpers/cli.js';
import { FUZZ_TIMEOUT, fuzzParams, LONG_RUN } from './config.js';

const WORKER = resolve(repoRoot, 'test/fuzz/arrow-worker.mjs');
/** A file still being read after this long is a hang (a good one reads in milliseconds). */
const HANG_MS = 5000;
/** The worker's heap: the files are 65 KB; a read that needs more is runaway. */
const HEAP_MB = 256;

type Format = 'file' | 'stream';
type Case = { id: number; format: Format; bit: number; gzip: boolean };
type Outcome = { kind: 'read' | 'grove' | 'other' | 'hang' | 'crash'; path?: string; message?: string };

let dir: string;
const good = new Map<Format, Uint8Array>();

/** About 65 KB of Arrow IPC: numbers, a dictionary column and booleans with nulls, a text label. */
function table(): Table {
  const rows = Array.from({ length: 4000 }, (_, i) => i);
  return new Table({
    x: vectorFromArray(
      rows.map((i) => (i % 7 === 0 ? null : (i % 50) / 3)),
      new Float64(),
    ),
    colour: vectorFromArray(
      rows.map((i) => (i % 9 === 0 ? null : ['red', 'blue', 'green'][i % 3])),
      new Dictionary(new Utf8(), new Int32()),
    ),
    flag: vectorFromArray(
      rows.map((i) => (i % 5 === 0 ? null : i % 2 === 0)),
      new Bool(),
    ),
    y: vectorFromArray(
      rows.map((i) => (i % 3 === 0 ? 'a' : 'b')),
      new Utf8(),
    ),
  });
}

/** Byte ranges of a good file's metadata: each message's prefix and flatbuffer, the footer and tail. */
function metadataRanges(bytes: Uint8Array, format: Format): Array<[number, number]> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ranges: Array<[number, number]> = [];
  let end = bytes.length;
  let position = 0;
  if (format === 'file') {
    const footer = view.getInt32(bytes.length - 10, true);
    end = bytes.length - 10 - footer;
    ranges.push([0, 8], [end, bytes.length]);
    position = 8;
  }
  while (position + 8 <= end) {
    const length = view.getInt32(position + 4, true);
    if (length === 0) {
      ranges.push([position, position + 8]);
      break;
    }
    const meta = position + 8 + length;
    ranges.push([position, meta]);
    position = meta + checkMessage(bytes.subarray(position + 8, meta), end, 'a good file').bodyLength;
  }
  return ranges;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'grove-arrow-damaged-'));
  const t = table();
  for (const format of ['file', 'stream'] as const) good.set(format, tableToIPC(t, format));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Read every case in workers; a hang or a crash ends the worker and the rest go on in a new one. */
async function readAll(cases: Case[]): Promise<Map<number, Outcome>> {
  const out = new Map<number, Outcome>();
  const goodBytes = Object.fromEntries([...good].map(([f, b]) => [f, b.slice().buffer]));
  let rest = cases;
  while (rest.length) {
    const pending = rest;
    rest = await new Promise<Case[]>((done) => {
      const worker = new Worker(WORKER, {
        workerData: { dist: resolve(repoRoot, 'dist'), dir, good: goodBytes, cases: pending },
        resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
      });
      let current: { id: number; path: string } | undefined;
      let timer: NodeJS.Timeout | undefined;
      const fail = (kind: 'hang' | 'crash', message: string) => {
        if (current && !out.has(current.id)) out.set(current.id, { kind, path: current.path, message });
      };
      worker.on('message', (m: { type: string; id: number; path: string } & Outcome) => {
        clearTimeout(timer);
        if (m.type !== 'start') out.set(m.id, m);
        else {
          current = m;
          timer = setTimeout(() => {
            fail('hang', `no answer within ${HANG_MS} ms`);
            void worker.terminate();
          }, HANG_MS);
        }
      });
      worker.on('error', (err) => fail('crash', String(err)));
      worker.on('exit', (code) => {
        clearTimeout(timer);
        fail('crash', `the worker exited (${code})`);
        done(pending.filter((c) => !out.has(c.id)));
      });
    });
  }
  return out;
}

/** The damaged files of one run: metadata bits (all in a long run, else a seeded sample) and body bits. */
function cases(): Case[] {
  const { seed, numRuns } = fuzzParams<unknown>(250);
  const rng = fc.sample(fc.nat({ max: 2 ** 31 - 1 }), { seed, numRuns: 4 * numRuns + 4 });
  let draw = 0;
  const next = (n: number) => rng[draw++ % rng.length] % n;
  const list: Case[] = [];
  for (const format of ['file', 'stream'] as const) {
    const bytes = good.get(format)!;
    const ranges = metadataRanges(bytes, format);
    const bits: number[] = [];
    for (const [from, to] of ranges) for (let b = from * 8; b < to * 8; b++) bits.push(b);
    // Every bit of the file format's first message (its vector lengths made apache-arrow loop)
    // always, a sample of the rest.
    const [from, to] = format === 'file' ? ranges[2] : [0, 0];
    const first = Array.from({ length: (to - from) * 8 }, (_, k) => from * 8 + k);
    const chosen = LONG_RUN ? bits : [...first, ...Array.from({ length: numRuns }, () => bits[next(bits.length)])];
    for (let k = 0; k < numRuns / 5; k++) chosen.push(next(bytes.length * 8));
    for (const bit of chosen) list.push({ id: list.length, format, bit, gzip: next(8) === 0 });
  }
  return list;
}

/** One line that starts with the file's name, as every GroveError about a file does. */
function oneLineNaming(message: string, path: string): boolean {
  return message.startsWith(path) && /^[:,] /.test(message.slice(path.length)) && !message.includes('\n');
}

describe('damaged Arrow IPC files', () => {
  it(
    'one flipped bit: a Dataset or a one-line GroveError naming the file, never a hang',
    async () => {
      const all = cases();
      const outcomes = await readAll(all);
      const bad: string[] = [];
      let refused = 0;
      for (const c of all) {
        const o = outcomes.get(c.id);
        const ok = o?.kind === 'read' || (o?.kind === 'grove' && oneLineNaming(o.message!, o.path!));
        if (o?.kind === 'grove') refused++;
        if (!ok)
          bad.push(`${c.format} bit ${c.bit}${c.gzip ? ' (gzip)' : ''}: ${o?.kind} ${o?.message?.split('\n')[0]}`);
      }
      expect(bad).toEqual([]);
      // The sample does reach damage that matters, not only bits nothing reads.
      expect(refused).toBeGreaterThan(all.length / 10);
    },
    FUZZ_TIMEOUT * 5,
  );
});
