import { parseChoice, parseInteger, splitList } from '../options/options.js';

/** Parse an option value as an integer ≥ min, or fail naming the option. */
export function intOption(name: string, min: number) {
  return (raw: string): number => parseInteger(raw, name, min);
}

/** `a,b,c` → ['a', 'b', 'c'] (empty items dropped). */
export function listOption(raw: string): string[] {
  return splitList(raw);
}

/** One of a fixed set of words, or fail listing them. */
export function choiceOption<T extends string>(name: string, choices: readonly T[]) {
  return (raw: string): T => parseChoice(raw, name, choices);
}
