/** `grove fit` pruning flags, through the BUILT binary (npm test builds first). */

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, fixture, grove } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'grove-prune-cli-'));
const TAX = fixture('taxable-income.csv');
const PLAY = fixture('play-tennis.csv');

beforeAll(assertBuilt);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Saved {
  options: Record<string, unknown>;
  nodes: Array<{ children?: number[]; counts: number[] }>;
  pruning?: {
    method: string;
    alpha?: number;
    leavesBefore: number;
    leavesAfter: number;
    cv?: { folds: number; rule: string };
    path?: unknown[];
  };
}
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Saved;

describe('grove fit: pruning flags', () => {
  it('--prune cost-complexity --ccp-folds 3 --ccp-rule min --seed 4: α chosen by CV, saved with its table', () => {
    const out = join(dir, 'ccp.json');
    const r = grove([
      'fit',
      TAX,
      '--target',
      'Cheat',
      '--algorithm',
      'cart',
      '--prune',
      'cost-complexity',
      '--ccp-folds',
      '3',
      '--ccp-rule',
      'min',
      '--seed',
      '4',
      '--out',
      out,
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/pruned \(cost-complexity, α = /);
    const m = read(out);
    expect(m.options).toMatchObject({ prune: 'cost-complexity', ccpFolds: 3, ccpRule: 'min', seed: 4 });
    expect(m.pruning).toMatchObject({ method: 'cost-complexity', cv: { folds: 3, rule: 'min' } });
    expect(m.pruning!.path!.length).toBeGreaterThan(0);
    expect(m.pruning!.leavesAfter).toBe(m.nodes.filter((n) => !n.children).length);
    // `show` and `predict` accept the pruned model.
    expect(grove(['show', out]).status).toBe(0);
    expect(grove(['predict', '--model', out, TAX]).status).toBe(0);
  });

  it('--ccp-alpha 1 prunes to the root; --prune none saves no pruning record', () => {
    const out = join(dir, 'alpha.json');
    expect(
      grove(['fit', TAX, '--target', 'Cheat', '--prune', 'cost-complexity', '--ccp-alpha', '1', '--out', out]).status,
    ).toBe(0);
    expect(read(out).nodes).toHaveLength(1);
    expect(read(out).pruning).toMatchObject({ alpha: 1, leavesAfter: 1 });
    expect(grove(['fit', TAX, '--target', 'Cheat', '--prune', 'none', '--out', out]).status).toBe(0);
    expect(read(out).pruning).toBeUndefined();
  });

  it('--prune error-based --confidence 0.1 --subtree-raising --missing fractional --class-weight', () => {
    const out = join(dir, 'eb.json');
    const r = grove([
      'fit',
      PLAY,
      '--target',
      'Play',
      '--algorithm',
      'c45',
      '--prune',
      'error-based',
      '--confidence',
      '0.1',
      '--subtree-raising',
      '--missing',
      'fractional',
      '--class-weight',
      'Yes=1,No=2',
      '--out',
      out,
    ]);
    expect(r.status, r.stderr).toBe(0);
    const m = read(out);
    expect(m.options).toMatchObject({
      prune: 'error-based',
      confidence: 0.1,
      subtreeRaising: true,
      missing: 'fractional',
      classWeight: { Yes: 1, No: 2 },
    });
    expect(m.pruning).toMatchObject({ method: 'error-based', confidence: 0.1, subtreeRaising: true });
    // Class weights reach the counts: 9 Yes · 1 + 5 No · 2.
    expect(m.nodes[0].counts.reduce((a, b) => a + b)).toBe(19);
  });

  it('--prune reduced-error --prune-fraction 0.3 and --class-weight balanced', () => {
    const out = join(dir, 'rep.json');
    expect(
      grove([
        'fit',
        TAX,
        '--target',
        'Cheat',
        '--prune',
        'reduced-error',
        '--prune-fraction',
        '0.3',
        '--class-weight',
        'balanced',
        '--out',
        out,
      ]).status,
    ).toBe(0);
    expect(read(out).pruning).toMatchObject({ method: 'reduced-error', validationRows: 3 });
    expect(read(out).options).toMatchObject({ pruneFraction: 0.3, classWeight: 'balanced' });
  });

  const bad: Array<[string, string[], RegExp]> = [
    ['unknown method', ['--prune', 'hedge'], /--prune must be one of/],
    ['confidence out of range', ['--prune', 'error-based', '--confidence', '1.5'], /--confidence must be in \(0, 1\)/],
    ['non-numeric α', ['--ccp-alpha', 'big'], /--ccp-alpha expects a number/],
    ['negative α', ['--ccp-alpha', '-0.1'], /--ccp-alpha must be a finite number ≥ 0/],
    ['one fold', ['--ccp-folds', '1'], /--ccp-folds expects an integer ≥ 2/],
    ['unknown rule', ['--ccp-rule', '2se'], /--ccp-rule must be one of 1se, min/],
    ['prune fraction 1', ['--prune-fraction', '1'], /--prune-fraction must be in \(0, 1\)/],
    ['unknown missing policy', ['--missing', 'drop'], /--missing must be one of/],
    ['bad class weight', ['--class-weight', 'Yes=heavy'], /--class-weight expects/],
    ['class weight for no class', ['--class-weight', 'Maybe=2'], /--class-weight names 'Maybe'/],
  ];
  for (const [name, flags, message] of bad) {
    it(`refuses ${name}: exit 2, one line, no model`, () => {
      const out = join(dir, `bad-${name.replace(/\W+/g, '-')}.json`);
      const r = grove(['fit', PLAY, '--target', 'Play', ...flags, '--out', out]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(existsSync(out)).toBe(false);
    });
  }
});
