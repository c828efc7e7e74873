/**
 * CLI fuzz: argument lists generated from the commands' real flags (the tree-option flags of fit
 * and score from OPTION_DESCRIPTORS, the rest read from the commander program), with valid and
 * junk values, valid and broken files. Most cases call the CLI's `run` in this process with stdout
 * and stderr captured; a few spawn the built binary to check that the two agree. Properties: the
 * exit code is 0 or 2; on 2, stderr is exactly one `grove: ` line and no stack trace; stderr holds no
 * raw control character (unknown flags carry some; junk values too); no input file
 * changes; the output file exists only if the command succeeded, and no temporary file is left.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Option } from 'commander';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildProgram, run } from '../../src/cli/run.js';
import { listCriteria } from '../../src/criteria/registry.js';
import { loadModel } from '../../src/io/model-file.js';
import { OPTION_DESCRIPTORS, type OptionDescriptor, PRESETS } from '../../src/options/options.js';
import { listPruners } from '../../src/prune/registry.js';
import { cliPath, fixture, withCapturedOutput } from '../helpers/cli.js';
import { FUZZ_TIMEOUT, fuzzParams } from './config.js';
import { KNOWN_CLI } from './known.js';

const base = mkdtempSync(join(tmpdir(), 'grove-fuzz-cli-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const INPUTS = ['data.csv', 'data.arff', 'income.csv', 'ragged.csv', 'empty.csv', 'model.json', 'results.json'];
let caseNo = 0;

/** A fresh directory with the input files; returns it. */
function workspace(): string {
  const dir = join(base, String(caseNo++));
  mkdirSync(join(dir, 'folder'), { recursive: true });
  copyFileSync(fixture('play-tennis.csv'), join(dir, 'data.csv'));
  copyFileSync(fixture('weather.arff'), join(dir, 'data.arff'));
  copyFileSync(fixture('taxable-income.csv'), join(dir, 'income.csv'));
  copyFileSync(fixture('bad-ragged.csv'), join(dir, 'ragged.csv'));
  copyFileSync(fixture('bad-empty.csv'), join(dir, 'empty.csv'));
  copyFileSync(MODEL, join(dir, 'model.json'));
  copyFileSync(MODEL, join(dir, 'results.json')); // a JSON file that is not a results file
  return dir;
}

const MODEL = join(base, 'model.json');

const hashes = (dir: string) =>
  INPUTS.map((f) =>
    createHash('sha256')
      .update(readFileSync(join(dir, f)))
      .digest('hex'),
  ).join(' ');

/** Placeholders resolved against a case's directory: `@name` is a file there. */
const file = fc.constantFrom(
  '@data.csv',
  '@data.arff',
  '@income.csv',
  '@ragged.csv',
  '@empty.csv',
  '@model.json',
  '@results.json',
  '@folder',
  '@missing.csv',
  '',
);
const junk = fc.constantFrom(
  '',
  '-1',
  '0',
  '1.5',
  'abc',
  '1e999',
  '0x10',
  'Infinity',
  'NaN',
  ' 3 ',
  '__proto__',
  'constructor',
  'toString',
  'a\nb',
  '\u001b[31m',
  '--out',
);

function descriptorValue(d: OptionDescriptor): fc.Arbitrary<string> {
  switch (d.type) {
    case 'integer':
      return fc.oneof(fc.integer({ min: d.min, max: d.min + 4 }).map(String), junk);
    case 'number':
      return fc.oneof(fc.constantFrom('0', '0.01', '0.25', '0.5', '1', '2'), junk);
    case 'choice':
      return fc.oneof(fc.constantFrom(...d.choices), junk);
    case 'criterion':
      return fc.oneof(fc.constantFrom(...listCriteria().map((c) => c.name)), junk);
    case 'pruner':
      return fc.oneof(fc.constantFrom(...listPruners().map((p) => p.name)), junk);
    case 'class-weight':
      return fc.oneof(fc.constantFrom('balanced', 'Yes=2,No=1', 'Yes=-1', 'x=1', '=1', 'Yes'), junk);
    case 'ordered-categories':
      return fc.oneof(fc.constantFrom('Temperature=Cool,Mild,Hot', 'Temperature=Cool', 'nope=a,b', '=a'), junk);
    default:
      return junk;
  }
}

/** Values for the flags that are not tree options, by long flag. */
const OTHER_VALUES: Record<string, fc.Arbitrary<string>> = {
  '--out': fc.constantFrom('@out.json', '@out.csv', '@folder', '@missing-dir/out.json', '@data.csv'),
  '--json': fc.constantFrom('@out.json', '@folder'),
  '--model': file,
  '--target': fc.oneof(fc.constantFrom('Play', 'Outlook', 'Cheat', 'nope'), junk),
  '--categorical': fc.oneof(fc.constantFrom('Outlook', 'Income', 'Outlook,Wind', 'nope'), junk),
  '--numeric': fc.oneof(fc.constantFrom('Income', 'Outlook', 'nope'), junk),
  '--algorithm': fc.oneof(fc.constantFrom(...Object.keys(PRESETS)), junk),
  '--threads': fc.oneof(fc.constantFrom('1', '2', 'auto'), junk),
  '--format': fc.oneof(fc.constantFrom('text', 'rules', 'dot', 'json', 'stats'), junk),
  '--unclassified': fc.oneof(fc.constantFrom('none', 'knn'), junk),
  '--knn-k': fc.oneof(fc.constantFrom('1', '3'), junk),
  '--folds': fc.constantFrom('2', '3', '1', 'x'),
  '--repeats': fc.constantFrom('1', '0', 'x'),
  '--seed': fc.oneof(fc.constantFrom('1', '7'), junk),
  '--jobs': fc.constantFrom('1', '0'),
  '--algorithms': fc.constantFrom('cart', 'id3,c45', 'nope', '__proto__'),
  '--criteria': fc.constantFrom('gini', 'dcsm', 'nope', ''),
  '--base': fc.constantFrom('cart', 'nope', 'toString'),
  '--configs': fc.constantFrom('a:algorithm=cart', 'a:min-leaf=0', 'junk', '[]', '@missing.json'),
  '--datasets': fc.constantFrom('data', 'nope'),
  '--data': fc.constantFrom('@data.csv', '@missing.csv'),
};

const program = await buildProgram();

/** An unknown flag, plain or carrying control characters the argument parser's message must escape. */
const unknownFlag = fc.constantFrom(['--bogus'], ['--\u001b[2J'], ['--a\nb'], ['--\u001b]0;t\u0007'], ['--x\u009by']);

/** A control character on stderr other than the newline ending a line: must never be printed raw. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/;
const byFlag = new Map((OPTION_DESCRIPTORS as readonly OptionDescriptor[]).map((d) => [`--${d.flag}`, d]));

/** One generated flag of `cmd`: `[--flag]` or `[--flag, value]`, or an unknown flag. */
function flagsOf(name: string): fc.Arbitrary<string[]> {
  const options = program.commands.find((c) => c.name() === name)!.options as readonly Option[];
  const one = fc.constantFrom(...options).chain((o): fc.Arbitrary<string[]> => {
    const long = o.long!;
    if (!o.required && !o.optional) return fc.constant([long]);
    const d = byFlag.get(long);
    const value = d ? descriptorValue(d) : (OTHER_VALUES[long] ?? junk);
    return value.map((v) => [long, v]);
  });
  return fc
    .array(fc.oneof({ weight: 9, arbitrary: one }, { weight: 1, arbitrary: unknownFlag }), {
      maxLength: 5,
    })
    .map((fs) => fs.flat());
}

/** A command line: a command, its positional argument (or none), its flags. */
const argvOf = (commands: string[]) =>
  fc
    .constantFrom(...commands)
    .chain((cmd) =>
      fc
        .tuple(fc.constant(cmd), fc.option(file, { freq: 8, nil: undefined }), flagsOf(cmd))
        .map(([c, f, flags]) => [c, ...(f === undefined ? [] : [f]), ...flags]),
    );

const resolveArgs = (argv: string[], dir: string) => argv.map((a) => (a.startsWith('@') ? join(dir, a.slice(1)) : a));

interface Outcome {
  code: number | 'threw';
  stdout: string;
  stderr: string;
}

/** `run(argv)` in this process with stdout and stderr captured. */
async function runCaptured(argv: string[]): Promise<Outcome> {
  let stack = '';
  const {
    value: code,
    stdout,
    stderr,
  } = await withCapturedOutput(() =>
    run(argv).catch((e: unknown): Outcome['code'] => {
      stack = String((e as Error)?.stack ?? e);
      return 'threw';
    }),
  );
  return { code, stdout, stderr: stderr + stack };
}

/** The known failure (issue item) a command line runs into, if any: such cases are left out of the property. */
export function knownFailure(argv: string[]): string | undefined {
  for (const [item, test] of KNOWN_CLI) if (test.matches(argv)) return item;
  return undefined;
}

/**
 * The built binary, run asynchronously (a synchronous spawn blocks vitest's own messages for as
 * long as a long run lasts).
 */
function spawnGrove(args: string[], cwd: string): Promise<Outcome> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [cliPath, ...args],
      { cwd, encoding: 'utf8', timeout: 60_000, env: { ...process.env, GROVE_DEBUG: '', NO_COLOR: '1' } },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 'threw') : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}

/** Check one case's properties; throws with the case on failure. */
async function checkCase(argv: string[], spawn = false): Promise<void> {
  const dir = workspace();
  const before = hashes(dir);
  const args = resolveArgs(argv, dir);
  const r = spawn ? await spawnGrove(args, dir) : await runCaptured(args);
  const where = `grove ${JSON.stringify(argv)} -> ${r.code}: ${JSON.stringify(r.stderr.slice(0, 300))}`;
  expect([0, 2], where).toContain(r.code);
  if (r.code === 2) {
    expect(r.stderr.endsWith('\n') && r.stderr.split('\n').length === 2, `one line: ${where}`).toBe(true);
    expect(r.stderr.startsWith('grove: '), where).toBe(true);
  }
  expect(r.stderr, where).not.toMatch(/\n\s+at |internal error/);
  expect(r.stderr, `control characters escaped: ${where}`).not.toMatch(RAW_CONTROL);
  expect(hashes(dir), `inputs unchanged: ${where}`).toBe(before);
  const outs = ['out.json', 'out.csv', 'missing-dir'].filter((f) => existsSync(join(dir, f)));
  if (r.code !== 0) expect(outs, `no output after a failure: ${where}`).toEqual([]);
  expect(
    readdirSync(dir).filter((f) => f.endsWith('.tmp')),
    where,
  ).toEqual([]);
  if (r.code === 0 && argv[0] === 'fit' && outs.includes('out.json')) loadModel(join(dir, 'out.json'));
}

expect((await runCaptured(['fit', fixture('play-tennis.csv'), '--out', MODEL, '--algorithm', 'id3'])).code).toBe(0);

const SIMPLE = ['fit', 'predict', 'show', 'score', 'criteria', 'report'];

describe('CLI fuzz', () => {
  it(
    'generated command lines: exit 0, or exit 2 with one line on stderr; inputs untouched; output only on success',
    async () => {
      await fc.assert(
        fc.asyncProperty(argvOf(SIMPLE), async (argv) => {
          fc.pre(knownFailure(argv) === undefined);
          await checkCase(argv);
        }),
        fuzzParams(150, 0.5),
      );
    },
    FUZZ_TIMEOUT,
  );

  it(
    'compare command lines (one tiny data set, one job)',
    async () => {
      await fc.assert(
        fc.asyncProperty(flagsOf('compare'), async (flags) => {
          const argv = ['compare', '--data', '@data.csv', '--folds', '2', '--jobs', '1', '--no-progress', ...flags];
          fc.pre(knownFailure(argv) === undefined);
          await checkCase(argv);
        }),
        fuzzParams(12, 0.1),
      );
    },
    FUZZ_TIMEOUT,
  );

  it(
    'the built binary agrees (a few spawned cases)',
    async () => {
      await fc.assert(
        fc.asyncProperty(argvOf(SIMPLE), async (argv) => {
          fc.pre(knownFailure(argv) === undefined);
          await checkCase(argv, true);
        }),
        fuzzParams(6, 0.05),
      );
    },
    FUZZ_TIMEOUT,
  );

  // One test per known failure: it.fails turns red once the fix lands, so the entry can go.
  for (const [item, known] of KNOWN_CLI) {
    it.fails(`${item}: ${known.example.join(' ')}`, async () => {
      await checkCase(known.example);
    });
  }
});
