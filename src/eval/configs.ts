import { GroveError } from '../core/errors.js';
import { isNumericToken } from '../data/tokens.js';
import { type FitOptions, OPTION_DESCRIPTORS } from '../options/options.js';

/**
 * One competitor in a comparison: a label and the options passed to `fit` unchanged. Keys fit
 * does not know are passed through too, so fit (not this module) decides what is valid.
 */
export interface Config {
  label: string;
  options: FitOptions & Record<string, unknown>;
  /** Options given under another name than their field (a flag name, `min-leaf`): that name, for messages. */
  keys?: ReadonlyMap<string, string>;
}

/** Each tree option's CLI flag name (`min-split`), accepted in `--configs` besides the option's own name. */
const FLAG_KEYS = new Map<string, string>(OPTION_DESCRIPTORS.map((d) => [d.flag, d.name]));

function optionKey(raw: string): string {
  const key = raw.trim();
  return FLAG_KEYS.get(key) ?? key.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/**
 * `5` → 5, `true` → true, `Infinity` → Infinity, anything else stays a string. Numbers are decimal
 * as the data readers read them (`isNumericToken`): `0x10` stays text, which validation refuses.
 */
function optionValue(raw: string): unknown {
  const v = raw.trim();
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (v === 'Infinity' || v === 'inf') return Infinity;
  if (isNumericToken(v)) return Number(v);
  return v;
}

/** The options object and, for keys written other than as their field, the name written. */
function collectOptions(pairs: Iterable<[key: string, value: unknown]>, mapKey: (key: string) => string) {
  const options: Record<string, unknown> = {};
  const keys = new Map<string, string>();
  for (const [written, value] of pairs) {
    const field = mapKey(written);
    Object.defineProperty(options, field, { value, enumerable: true, writable: true, configurable: true });
    if (field !== written.trim()) keys.set(field, written.trim());
    else keys.delete(field);
  }
  return keys.size > 0 ? { options, keys } : { options };
}

/**
 * Parse `--configs`. Two forms:
 * - text: `label:key=value,key=value;label2:key=value` (e.g.
 *   `dcsm:algorithm=cart,criterion=dcsm;dcsm-pruned:algorithm=cart,criterion=dcsm,prune=error-based`);
 *   keys are FitOptions names or the CLI's (`min-leaf`), numbers and true/false are converted;
 * - JSON: an array of objects `{ "label": ..., ...options }`, or an object `{ label: options }`;
 *   keys are FitOptions names or the CLI's flag names.
 */
export function parseConfigs(spec: string): Config[] {
  const text = spec.trim();
  const configs = text.startsWith('[') || text.startsWith('{') ? parseJsonConfigs(text) : parseTextConfigs(text);
  if (configs.length === 0) throw new GroveError('--configs names no configuration');
  return configs;
}

function parseTextConfigs(text: string): Config[] {
  return text
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map((item) => {
      const colon = item.indexOf(':');
      const label = (colon < 0 ? item : item.slice(0, colon)).trim();
      if (!label) throw new GroveError(`--configs: '${item}' has no label (write label:key=value,...)`);
      const body = colon < 0 ? '' : item.slice(colon + 1);
      const pairs = body
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .map((pair): [string, unknown] => {
          const eq = pair.indexOf('=');
          if (eq <= 0) throw new GroveError(`--configs: '${pair}' in '${label}' is not key=value`);
          return [pair.slice(0, eq), optionValue(pair.slice(eq + 1))];
        });
      return { label, ...collectOptions(pairs, optionKey) };
    });
}

function parseJsonConfigs(text: string): Config[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new GroveError(`--configs: invalid JSON (${(err as Error).message})`);
  }
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((v, i) => {
        if (typeof v !== 'object' || v === null) throw new GroveError(`--configs: item ${i} is not an object`);
        const { label, ...rest } = v as Record<string, unknown>;
        if (typeof label !== 'string' || !label) throw new GroveError(`--configs: item ${i} needs a "label"`);
        return [label, rest];
      })
    : Object.entries(value as Record<string, unknown>);
  return entries.map(([label, options]) => {
    if (typeof options !== 'object' || options === null || Array.isArray(options))
      throw new GroveError(`--configs: options of '${label}' must be an object`);
    return { label, ...collectOptions(Object.entries(options), (key) => FLAG_KEYS.get(key) ?? key) };
  });
}

/** Presets as they are (`cart`), and measures grown with a base preset (`cart+dcsm`). */
export function presetConfigs(algorithms: readonly string[], criteria: readonly string[], base: string): Config[] {
  return [
    ...algorithms.map((a) => ({ label: a, options: { algorithm: a } })),
    ...criteria.map((c) => ({ label: `${base}+${c}`, options: { algorithm: base, criterion: c } })),
  ];
}

/** Refuse two configurations with one label (their results would mix). */
export function checkLabels(configs: readonly Config[]): void {
  const seen = new Set<string>();
  for (const c of configs) {
    if (seen.has(c.label)) throw new GroveError(`two configurations are labelled '${c.label}'`);
    seen.add(c.label);
  }
}

/** JSON with ±Infinity kept (as strings) and keys sorted: a stable identity for a configuration's options. */
export function optionsJson(options: object): string {
  const sortKeys = (v: unknown): unknown => {
    if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
    if (Array.isArray(v)) return v.map(sortKeys);
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
      );
    return v;
  };
  return JSON.stringify(sortKeys(options));
}

/** Options back from `optionsJson` form (the strings "Infinity"/"-Infinity" become numbers again). */
export function reviveOptions(options: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(options).map(([k, v]) => [k, v === 'Infinity' ? Infinity : v === '-Infinity' ? -Infinity : v]),
  );
}
