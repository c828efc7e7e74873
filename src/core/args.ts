/**
 * Argument checks for the public entry points: each throws a GroveError (code `E_INPUT`) naming
 * the function and the argument, so that a caller's mistake never surfaces as a TypeError or
 * RangeError from deep inside. O(1) each, except `checkNumbers`, one pass over the values.
 */
import { GroveError } from './errors.js';

/** A short description of a value's type for messages: `null`, `an array`, `a number`, … */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const t = typeof value;
  return t === 'undefined' ? 'undefined' : `${/^[aeiou]/.test(t) ? 'an' : 'a'} ${t}`;
}

/** A value for a message: numbers as written, other values by their type. */
function shown(value: unknown): string {
  return typeof value === 'number' ? String(value) : describeType(value);
}

/** Throw the GroveError for argument `name` of `caller`, which `must` be something else. */
export function badArgument(caller: string, name: string, must: string, value: unknown): never {
  throw new GroveError(`${caller}: ${name} must be ${must}, got ${shown(value)}`, { code: 'E_INPUT' });
}

/** A number (NaN and ±Infinity allowed: the math functions give NaN or their limits). */
export function checkNumber(caller: string, name: string, value: unknown): asserts value is number {
  if (typeof value !== 'number') badArgument(caller, name, 'a number', value);
}

/** A finite number in [min, max] (either bound optional). */
export function checkFinite(
  caller: string,
  name: string,
  value: unknown,
  min = -Infinity,
  max = Infinity,
): asserts value is number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    const range =
      min > -Infinity && max < Infinity
        ? ` in [${min}, ${max}]`
        : min > -Infinity
          ? ` ≥ ${min}`
          : max < Infinity
            ? ` ≤ ${max}`
            : '';
    badArgument(caller, name, `a finite number${range}`, value);
  }
}

/** A number > 0 (Infinity allowed when `infinite`). */
export function checkPositive(caller: string, name: string, value: unknown, infinite = false): asserts value is number {
  if (typeof value !== 'number' || !(value > 0) || (!infinite && value === Infinity))
    badArgument(caller, name, infinite ? 'a number > 0' : 'a finite number > 0', value);
}

/** An integer in [min, max]. */
export function checkInteger(
  caller: string,
  name: string,
  value: unknown,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): asserts value is number {
  if (!Number.isInteger(value) || (value as number) < min || (value as number) > max)
    badArgument(caller, name, `an integer in ${min}…${max}`, value);
}

/** An array or typed array (of anything: the caller reads the elements it needs). */
export function checkArrayLike(caller: string, name: string, value: unknown): asserts value is ArrayLike<unknown> {
  if (!Array.isArray(value) && !(ArrayBuffer.isView(value) && !(value instanceof DataView)))
    badArgument(caller, name, 'an array', value);
}

/** An array or typed array of numbers (NaN allowed). */
export function checkNumbers(caller: string, name: string, value: unknown): asserts value is ArrayLike<number> {
  checkArrayLike(caller, name, value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++)
      if (typeof value[i] !== 'number') badArgument(caller, `${name}[${i}]`, 'a number', value[i]);
  } else if (value instanceof BigInt64Array || value instanceof BigUint64Array) {
    badArgument(caller, name, 'an array of numbers', value);
  }
}

/** An Int32Array. */
export function checkInt32Array(caller: string, name: string, value: unknown): asserts value is Int32Array {
  if (!(value instanceof Int32Array)) badArgument(caller, name, 'an Int32Array', value);
}

/** A non-null object that is not an array. */
export function checkObject(caller: string, name: string, value: unknown): asserts value is object {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    badArgument(caller, name, 'an object', value);
}

/** A boolean, or undefined when optional. */
export function checkBoolean(caller: string, name: string, value: unknown, optional = true): void {
  if (typeof value !== 'boolean' && !(optional && value === undefined))
    badArgument(caller, name, 'true or false', value);
}
