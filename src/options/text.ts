import { GroveError } from '../core/errors.js';
import { isNumericToken } from '../data/tokens.js';
import type { OptionDescriptor } from './descriptor.js';
import { knownPruneMethods } from './pruner-names.js';

/**
 * Options written as text (CLI flags, generated controls): each descriptor's type says how its
 * text becomes a value. Messages name the option as given (`--max-depth`); ranges beyond the
 * type are checked later, by validation.
 */

/** `a,b,c` → ['a', 'b', 'c'] (empty items dropped). */
export function splitList(raw: string): string[] {
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** An integer ≥ min. */
export function parseInteger(raw: string, label: string, min: number): number {
  const v = Number(raw);
  if (!/^[+-]?\d+$/.test(raw.trim()) || !Number.isSafeInteger(v) || v < min) {
    throw new GroveError(`option ${label} expects an integer ≥ ${min}, got '${raw}'`, { code: 'E_OPTION' });
  }
  return v;
}

/** A finite decimal number, as the data readers accept one (`isNumericToken`: no `0x10`, `1_000`, `Infinity`). */
export function parseNumber(raw: string, label: string): number {
  const v = Number(raw);
  if (!isNumericToken(raw.trim()))
    throw new GroveError(`option ${label} expects a number, got '${raw}'`, { code: 'E_OPTION' });
  return v;
}

/** One of a fixed set of words. */
export function parseChoice<T extends string>(raw: string, label: string, choices: readonly T[]): T {
  if (!(choices as readonly string[]).includes(raw))
    throw new GroveError(`option ${label} must be one of ${choices.join(', ')}, got '${raw}'`, { code: 'E_OPTION' });
  return raw as T;
}

/** `true` or `false`. */
export function parseBoolean(raw: string, label: string): boolean {
  const v = raw.trim();
  if (v === 'true' || v === 'false') return v === 'true';
  throw new GroveError(`option ${label} expects true or false, got '${raw}'`, { code: 'E_OPTION' });
}

/**
 * `balanced`, or `label=w,label=w`. Each label becomes an own property (`defineProperty`), so a
 * class named `__proto__` is a weight like any other rather than a prototype assignment.
 */
export function parseClassWeight(
  raw: string,
  label: string,
): 'balanced' | 'balancedSubsample' | Record<string, number> {
  if (raw.trim() === 'balanced') return 'balanced';
  if (raw.trim() === 'balancedSubsample') return 'balancedSubsample';
  const out: Record<string, number> = {};
  for (const item of splitList(raw)) {
    const eq = item.lastIndexOf('=');
    const w = Number(item.slice(eq + 1));
    if (eq <= 0 || !isNumericToken(item.slice(eq + 1).trim()) || w < 0) {
      throw new GroveError(
        `option ${label} expects 'balanced' or label=weight,label=weight (weights ≥ 0), got '${raw}'`,
        { code: 'E_OPTION' },
      );
    }
    setOwn(out, item.slice(0, eq).trim(), w);
  }
  if (Object.keys(out).length === 0)
    throw new GroveError(`option ${label} expects 'balanced' or label=weight,..., got '${raw}'`, { code: 'E_OPTION' });
  return out;
}

/** `col=a,b,c`: the levels of an ordered categorical column, lowest first, added to `previous`. */
export function parseOrderedLevels(
  raw: string,
  label: string,
  previous: Record<string, string[]> = {},
): Record<string, string[]> {
  const eq = raw.indexOf('=');
  const levels = splitList(raw.slice(eq + 1));
  if (eq <= 0 || levels.length === 0)
    throw new GroveError(`option ${label} expects column=level1,level2,..., got '${raw}'`, { code: 'E_OPTION' });
  const out = { ...previous };
  setOwn(out, raw.slice(0, eq).trim(), levels);
  return out;
}

/** `out[key] = value` as an own, enumerable data property, whatever `key` is (`__proto__` included). */
function setOwn<T>(out: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * The value of option `d` written as `raw`; `previous` is the value so far, for options that
 * accumulate over repeated flags (`--ordered`).
 */
export function parseOptionText(d: OptionDescriptor, raw: string, label: string, previous?: unknown): unknown {
  switch (d.type) {
    case 'integer':
      return parseInteger(raw, label, d.min);
    case 'number':
      return parseNumber(raw, label);
    case 'boolean':
      return parseBoolean(raw, label);
    case 'choice':
      return parseChoice(raw, label, d.choices);
    case 'criterion':
      return raw;
    case 'pruner': {
      const known = knownPruneMethods();
      return known === undefined ? raw : parseChoice(raw, label, known);
    }
    case 'class-weight':
      return parseClassWeight(raw, label);
    case 'ordered-categories':
      return parseOrderedLevels(raw, label, previous as Record<string, string[]> | undefined);
    case 'max-features':
      return raw.trim() === 'sqrt' || raw.trim() === 'log2' ? raw.trim() : parseNumber(raw, label);
  }
}

/** How `--help` shows the value a flag takes. */
export function valuePlaceholder(d: OptionDescriptor): string {
  switch (d.type) {
    case 'integer':
      return '<n>';
    case 'number':
      return '<x>';
    case 'boolean':
      return '';
    case 'choice':
      return `<${d.choices.join('|')}>`;
    case 'criterion':
      return '<name>';
    case 'pruner':
      return '<method>';
    case 'class-weight':
      return '<weights>';
    case 'ordered-categories':
      return '<col=levels>';
    case 'max-features':
      return '<sqrt|log2|n|fraction>';
  }
}
