import { GroveError } from '../core/errors.js';

/** Parse an option value as an integer ≥ min, or fail naming the option. */
export function intOption(name: string, min: number) {
  return (raw: string): number => {
    const v = Number(raw);
    if (!/^[+-]?\d+$/.test(raw.trim()) || !Number.isSafeInteger(v) || v < min) {
      throw new GroveError(`option ${name} expects an integer ≥ ${min}, got '${raw}'`);
    }
    return v;
  };
}

/** Parse an option value as a finite number, or fail naming the option. */
export function numberOption(name: string) {
  return (raw: string): number => {
    const v = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(v)) throw new GroveError(`option ${name} expects a number, got '${raw}'`);
    return v;
  };
}

/** `a,b,c` → ['a', 'b', 'c'] (empty items dropped). */
export function listOption(raw: string): string[] {
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** One of a fixed set of words, or fail listing them. */
export function choiceOption<T extends string>(name: string, choices: readonly T[]) {
  return (raw: string): T => {
    if (!(choices as readonly string[]).includes(raw))
      throw new GroveError(`option ${name} must be one of ${choices.join(', ')}, got '${raw}'`);
    return raw as T;
  };
}
