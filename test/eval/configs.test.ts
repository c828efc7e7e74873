import { describe, expect, it } from 'vitest';
import { validateConfigs } from '../../src/compare/compare.js';
import { checkLabels, optionsJson, parseConfigs, presetConfigs, reviveOptions } from '../../src/eval/configs.js';

describe('--configs', () => {
  it('text form: labels, options, CLI aliases, numbers and booleans converted, unknown keys kept', () => {
    const configs = parseConfigs(
      'dcsm:algorithm=cart,criterion=dcsm,min-leaf=2 ; c45-pruned: algorithm=c45, prune=error-based, maxDepth=Infinity, flag=true;plain',
    );
    expect(configs).toEqual([
      {
        label: 'dcsm',
        options: { algorithm: 'cart', criterion: 'dcsm', minSamplesLeaf: 2 },
        keys: new Map([['minSamplesLeaf', 'min-leaf']]),
      },
      { label: 'c45-pruned', options: { algorithm: 'c45', prune: 'error-based', maxDepth: Infinity, flag: true } },
      { label: 'plain', options: {} },
    ]);
  });

  it('a key named like an Object.prototype member is kept as written', () => {
    expect(parseConfigs('a:constructor=1')).toEqual([{ label: 'a', options: { constructor: 1 } }]);
  });

  it('JSON forms: an array with labels, or an object of label → options', () => {
    expect(parseConfigs('[{"label": "a", "algorithm": "c45", "minSamplesLeaf": 3}]')).toEqual([
      { label: 'a', options: { algorithm: 'c45', minSamplesLeaf: 3 } },
    ]);
    expect(parseConfigs('{"g": {"criterion": "gini"}, "d": {"criterion": "dcsm"}}').map((c) => c.label)).toEqual([
      'g',
      'd',
    ]);
  });

  it('refuses malformed specs with a message naming the problem', () => {
    expect(() => parseConfigs('a:criterion')).toThrow(/'criterion' in 'a' is not key=value/);
    expect(() => parseConfigs(':criterion=gini')).toThrow(/has no label/);
    expect(() => parseConfigs('[{"algorithm": "cart"}]')).toThrow(/needs a "label"/);
    expect(() => parseConfigs('{"a": 3}')).toThrow(/options of 'a' must be an object/);
    expect(() => parseConfigs('[1,')).toThrow(/invalid JSON/);
    expect(() => parseConfigs(' ; ')).toThrow(/names no configuration/);
  });

  it('presets and measures on a base preset; duplicate labels refused', () => {
    expect(presetConfigs(['c45'], ['dcsm'], 'cart')).toEqual([
      { label: 'c45', options: { algorithm: 'c45' } },
      { label: 'cart+dcsm', options: { algorithm: 'cart', criterion: 'dcsm' } },
    ]);
    expect(() => checkLabels([...presetConfigs(['cart'], [], 'cart'), ...parseConfigs('cart:criterion=gini')])).toThrow(
      /two configurations are labelled 'cart'/,
    );
  });

  it('options identity is stable (sorted keys) and keeps Infinity', () => {
    expect(optionsJson({ b: 1, a: Infinity })).toBe(optionsJson({ a: Infinity, b: 1 }));
    expect(reviveOptions(JSON.parse(optionsJson({ maxDepth: Infinity })))).toEqual({ maxDepth: Infinity });
  });

  it("fit's validation runs on every configuration before any work, naming it; unknown keys only warn", () => {
    expect(() => validateConfigs(parseConfigs('ok:algorithm=cart;bad:algorithm=nope'), () => {})).toThrow(
      /^configuration 'bad': unknown algorithm 'nope'/,
    );
    expect(() => validateConfigs(parseConfigs('x:criterion=no-such-measure'), () => {})).toThrow(/configuration 'x':/);
    const warnings: string[] = [];
    validateConfigs(parseConfigs('y:algorithm=c45,someFutureOption=3'), (m) => warnings.push(m));
    expect(warnings).toEqual([
      expect.stringMatching(
        /configuration 'y': option 'someFutureOption' is not a tree option.*passed to fit as given/,
      ),
    ]);
  });

  it('refusals name an option as the configuration wrote it; numbers are decimal (issue 18 item 11)', () => {
    const refusal = (spec: string) => {
      try {
        validateConfigs(parseConfigs(spec), () => {});
      } catch (err) {
        return (err as Error).message;
      }
      return 'accepted';
    };
    expect(refusal('a:min-leaf=0')).toBe("configuration 'a': min-leaf must be an integer ≥ 1, got 0");
    expect(refusal('a:minSamplesLeaf=0')).toBe("configuration 'a': minSamplesLeaf must be an integer ≥ 1, got 0");
    expect(refusal('a:ccp-alpha=-1')).toMatch(/^configuration 'a': ccp-alpha must be/);
    expect(refusal('[{"label": "a", "min-leaf": 0}]')).toMatch(/^configuration 'a': min-leaf must be/);
    expect(refusal('{"a": {"max-depth": -1}}')).toMatch(/^configuration 'a': max-depth must be/);
    expect(refusal('a:criterion=twoing,categorical-split=multiway')).toMatch(/use categorical-split 'binary'/);
    for (const junk of ['0x10', '0b1', '0o7', '1_0']) {
      expect(parseConfigs(`a:min-leaf=${junk}`)[0].options.minSamplesLeaf).toBe(junk);
      expect(refusal(`a:min-leaf=${junk}`)).toBe(`configuration 'a': min-leaf must be an integer ≥ 1, got ${junk}`);
    }
    expect(parseConfigs('a:ccp-alpha=1e-3,min-leaf=+4')[0].options).toEqual({ ccpAlpha: 0.001, minSamplesLeaf: 4 });
  });
});
