/**
 * The option table drives the type, defaults, validation, the CLI flags, `compare`'s config keys
 * and the model file: checked here for every entry, generically, so a new entry is covered too.
 * The CLI cases run the built binary (npm test builds first).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { validateConfigs } from '../../src/compare/compare.js';
import { decodeForest } from '../../src/ensemble/forest-file.js';
import { type Config, parseConfigs } from '../../src/eval/configs.js';
import {
  DEFAULTS,
  OPTION_DESCRIPTORS,
  type OptionDescriptor,
  PRESETS,
  resolveOptions,
} from '../../src/options/options.js';
import '../../src/prune/registry.js';
import { assertBuilt, grove } from '../helpers/cli.js';

const table = OPTION_DESCRIPTORS as readonly OptionDescriptor[];
const dir = mkdtempSync(join(tmpdir(), 'grove-options-'));

/** 48 rows: a numeric column, an ordered categorical one, two classes that x mostly separates. */
const DATA = join(dir, 'train.csv');
const LEVELS = ['low', 'mid', 'high'];

/** A valid value other than the default, and how the CLI writes it. */
interface Sample {
  value: unknown;
  /** Flag arguments after the flag itself ([] for a boolean). */
  args: string[];
  /** The flag as given (`--no-x` for a boolean that defaults to on). */
  flag: string;
}

function sample(d: OptionDescriptor): Sample {
  const flag = `--${d.flag}`;
  switch (d.type) {
    case 'integer': {
      const v = d.default === d.min + 1 ? d.min + 2 : d.min + 1;
      return { value: v, args: [String(v)], flag };
    }
    case 'number':
      return { value: 0.5, args: ['0.5'], flag };
    case 'boolean':
      return { value: !d.default, args: [], flag: d.default ? `--no-${d.flag}` : flag };
    case 'choice': {
      const v = d.choices.find((c) => c !== d.default)!;
      return { value: v, args: [v], flag };
    }
    case 'criterion':
      return { value: 'info-gain', args: ['info-gain'], flag };
    case 'pruner':
      return { value: 'pessimistic', args: ['pessimistic'], flag };
    case 'class-weight':
      return { value: 'balanced', args: ['balanced'], flag };
    case 'ordered-categories':
      return { value: { c: LEVELS }, args: [`c=${LEVELS.join(',')}`], flag };
    case 'max-features':
      return { value: 'sqrt', args: ['sqrt'], flag };
  }
}

/** A value the API refuses, and CLI text the CLI refuses (undefined: a flag without a value cannot be wrong). */
function invalid(d: OptionDescriptor): { value: unknown; text?: string } {
  switch (d.type) {
    case 'integer':
      return { value: d.min - 1, text: String(d.min - 1) };
    case 'number': {
      const low = d.above ?? d.atLeast;
      return low === undefined ? { value: Number.NaN, text: 'abc' } : { value: low - 1, text: String(low - 1) };
    }
    case 'boolean':
      return { value: 'yes' };
    case 'choice':
    case 'pruner':
    case 'criterion':
      return { value: 'no-such-thing', text: 'no-such-thing' };
    case 'class-weight':
      return { value: { yes: -1 }, text: 'yes=heavy' };
    case 'ordered-categories':
      return { value: { c: [] }, text: 'c' };
    case 'max-features':
      return { value: 0, text: 'half' };
  }
}

/** The preset a sample is fitted with: C-MBSV (optimal) settings are saved for C-MBSV (optimal) trees only. */
const algorithmFor = (d: OptionDescriptor) =>
  d.group === 'cmbsv' ? 'cmbsv' : d.group === 'optimal' ? 'optimal' : 'cart';

/** What the model file holds for a sample value (criteria and pruners by name). */
function savedOf(d: OptionDescriptor, model: { options: Record<string, unknown> }): unknown {
  if (!d.saved) return undefined;
  const section =
    d.saved.under === undefined ? model.options : (model.options[d.saved.under] as Record<string, unknown>);
  return section[d.name];
}

/** Warnings and errors `compare` has for configurations, before any work. */
function compareConfigsProblems(configs: Config[]): string[] {
  const problems: string[] = [];
  try {
    validateConfigs(configs, (m) => problems.push(m));
  } catch (err) {
    problems.push((err as Error).message);
  }
  return problems;
}

beforeAll(() => {
  const rows = ['x,c,y'];
  for (let i = 0; i < 48; i++) rows.push(`${i % 24},${LEVELS[i % 3]},${i % 24 < 12 === (i % 5 !== 0) ? 'a' : 'b'}`);
  writeFileSync(DATA, `${rows.join('\n')}\n`);
});

describe('the option table', () => {
  it('names every field, flag and config key once', () => {
    const names = table.map((d) => d.name);
    const flags = table.map((d) => d.flag);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(flags).size).toBe(flags.length);
  });

  for (const d of table) {
    describe(d.name, () => {
      it('has the table default in DEFAULTS and after resolving (unless the preset sets it)', () => {
        expect(DEFAULTS[d.name as keyof typeof DEFAULTS]).toEqual(d.default);
        for (const [algorithm, preset] of Object.entries(PRESETS)) {
          const resolved = resolveOptions({ algorithm }) as unknown as Record<string, unknown>;
          const fromPreset = (preset.options as Record<string, unknown>)[d.name];
          expect(resolved[d.name]).toEqual(fromPreset ?? d.default);
        }
      });

      it('refuses an invalid value from the API, naming the field', () => {
        expect(() => resolveOptions({ [d.name]: invalid(d).value })).toThrow(new RegExp(`^${d.name} `));
      });

      it('is accepted as a compare config key (its name, and its flag in the text form)', () => {
        const s = sample(d);
        const json = parseConfigs(JSON.stringify([{ label: 'x', algorithm: algorithmFor(d), [d.name]: s.value }]));
        expect(json[0].options[d.name]).toEqual(s.value);
        expect(compareConfigsProblems(json)).toEqual([]);
        if (d.type !== 'ordered-categories' && d.type !== 'class-weight') {
          const text = d.type === 'boolean' ? String(s.value) : s.args[0];
          const parsed = parseConfigs(`x:${d.flag}=${text}`);
          expect(parsed[0].options[d.name]).toEqual(s.value);
        }
      });

      it('is a flag of grove fit that passes its value through to the model', () => {
        assertBuilt();
        const s = sample(d);
        const out = join(dir, `${d.name}.json`);
        const r = grove(['fit', DATA, '--algorithm', algorithmFor(d), s.flag, ...s.args, '--out', out]);
        expect(r.stderr).not.toMatch(/error|must|expects/);
        expect(r.status).toBe(0);
        if (d.group === 'forest') {
          // A forest option makes grove fit grow a forest, written in the forest file format.
          const forest = decodeForest(readFileSync(out));
          const key = d.name === 'forest' ? 'kind' : d.name;
          expect((forest.settings as unknown as Record<string, unknown>)[key]).toEqual(s.value);
          return;
        }
        const model = JSON.parse(readFileSync(out, 'utf8'));
        if (d.saved) expect(savedOf(d, model)).toEqual(s.value);
        if (d.type === 'ordered-categories') expect(model.features[1].levels).toEqual(LEVELS);
      });

      it('refuses an invalid value from the CLI, naming the flag', () => {
        const bad = invalid(d).text;
        const r =
          bad === undefined
            ? grove(['fit', DATA, `--${d.flag}=yes`, '--out', join(dir, 'bad.json')])
            : grove(['fit', DATA, '--algorithm', algorithmFor(d), `--${d.flag}`, bad, '--out', join(dir, 'bad.json')]);
        expect(r.status).not.toBe(0);
        expect(r.stderr).toContain(`--${d.flag}`);
      });
    });
  }
});

describe('chi-square pre-pruning (chiSquareAlpha)', () => {
  it('--chi-square-alpha stops splits that are not significant', () => {
    const leaves = (args: string[]) => {
      const out = join(dir, `chi-${args.length}.json`);
      expect(grove(['fit', DATA, '--prune', 'none', ...args, '--out', out]).status).toBe(0);
      const model = JSON.parse(readFileSync(out, 'utf8'));
      return { leaves: model.nodes.filter((n: { split?: unknown }) => !n.split).length, options: model.options };
    };
    const plain = leaves([]);
    const tested = leaves(['--chi-square-alpha', '0.01']);
    expect(tested.options.chiSquareAlpha).toBe(0.01);
    expect(tested.leaves).toBeLessThan(plain.leaves);
  });

  it('is a compare config key, by name and by flag', () => {
    const [byFlag, byName] = parseConfigs('a:algorithm=cart,chi-square-alpha=0.05;b:chiSquareAlpha=0.05');
    expect(byFlag.options.chiSquareAlpha).toBe(0.05);
    expect(byName.options.chiSquareAlpha).toBe(0.05);
    const out = join(dir, 'chi-compare.json');
    const r = grove([
      'compare',
      '--data',
      DATA,
      '--configs',
      'plain:algorithm=cart,prune=none;chi:algorithm=cart,prune=none,chi-square-alpha=0.01',
      '--folds',
      '2',
      '--json',
      out,
      '--no-progress',
    ]);
    expect(r.stderr).not.toMatch(/warning|error/);
    expect(r.status).toBe(0);
    const results = JSON.parse(readFileSync(out, 'utf8'));
    const chi = results.configs.find((c: { label: string }) => c.label === 'chi');
    expect(chi.options.chiSquareAlpha).toBe(0.01);
  });
});
