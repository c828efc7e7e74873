import type { OptionDescriptor } from './descriptor.js';
import { OPTION_DESCRIPTORS } from './descriptors.js';
import type { SavedOptionsShape } from './schema.js';
import type { ResolvedOptions } from './types.js';

/**
 * The options as a model file records them (see `savedOptionsSchema`): the preset's name, then
 * each saved option in table order, with unset and infinite values written as null; an option
 * saved under an algorithm's section only for that algorithm's trees; a `whenSet` option only when
 * it differs from its default.
 */
export function savedOptions(o: ResolvedOptions): SavedOptionsShape {
  const out: Record<string, unknown> = { algorithm: o.algorithm };
  const sections = new Map<string, Record<string, unknown>>();
  const values = o as unknown as Record<string, unknown>;
  for (const d of OPTION_DESCRIPTORS as readonly OptionDescriptor[]) {
    if (!d.saved) continue;
    if (d.saved.whenSet && (values[d.name] === d.default || values[d.name] === undefined)) continue;
    const value = savedValue(values[d.name]);
    const { under } = d.saved;
    if (under === undefined) out[d.name] = value;
    else if (under === o.algorithm) {
      if (!sections.has(under)) sections.set(under, {});
      sections.get(under)![d.name] = value;
    }
  }
  for (const [name, fields] of sections) out[name] = fields;
  return out as SavedOptionsShape;
}

function savedValue(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  return value;
}
