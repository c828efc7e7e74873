import { z } from 'zod';
import type { OptionDescriptor, SavedAs } from './descriptor.js';
import { OPTION_DESCRIPTORS, type OptionEntry } from './descriptors.js';
import type { OptionValue } from './types.js';
import { optionProblem } from './validate.js';

type Saved = Extract<OptionEntry, { saved: SavedAs }>;
type InSection = Extract<Saved, { saved: { under: string } }>;
type TopLevel = Exclude<Saved, InSection>;
/** Undefined (unset) and Infinity are written as null. */
type SavedValue<D> =
  | (D extends { type: 'criterion' } ? string : OptionValue<D>)
  | (D extends { default: undefined } ? null : never)
  | (D extends { infinity: true } ? null : never);
type Required_ = { [D in TopLevel as D['saved'] extends { optional: true } ? never : D['name']]: SavedValue<D> };
type Optional_ = { [D in TopLevel as D['saved'] extends { optional: true } ? D['name'] : never]?: SavedValue<D> };
type Sections = {
  [S in InSection['saved']['under']]?: {
    [D in Extract<InSection, { saved: { under: S } }> as D['name']]: SavedValue<D>;
  };
};
type Flatten<T> = { [K in keyof T]: T[K] };

/** The `options` of a model file, as generated from the option table. */
export type SavedOptionsShape = Flatten<{ algorithm: string } & Required_ & Optional_ & Sections>;

/**
 * The model file's `options`: the preset's name, then every saved option in table order; options
 * saved under an algorithm's section form an object present for that algorithm's trees only.
 * Names of criteria and pruning methods are not looked up: a model grown with a measure or pruner
 * registered at run time loads in a process that does not know it.
 */
export const savedOptionsSchema = buildSchema() as unknown as z.ZodType<SavedOptionsShape>;

function buildSchema(): z.ZodType {
  const top: Record<string, z.ZodType> = { algorithm: z.string() };
  const sections = new Map<string, Record<string, z.ZodType>>();
  for (const d of OPTION_DESCRIPTORS as readonly OptionDescriptor[]) {
    if (!d.saved) continue;
    const { under } = d.saved;
    if (under === undefined) top[d.name] = d.saved.optional ? fieldSchema(d).optional() : fieldSchema(d);
    else {
      if (!sections.has(under)) sections.set(under, {});
      sections.get(under)![d.name] = fieldSchema(d);
    }
  }
  for (const [name, fields] of sections) top[name] = z.object(fields).optional();
  return z.object(top);
}

function fieldSchema(d: OptionDescriptor): z.ZodType {
  const nullable = d.default === undefined || (d.type === 'integer' && d.infinity === true);
  const value = valueSchema(d);
  return nullable ? value.nullable() : value;
}

function valueSchema(d: OptionDescriptor): z.ZodType {
  switch (d.type) {
    case 'integer':
      return z.number().int().superRefine(inRange(d));
    case 'number':
      return z.number().superRefine(inRange(d));
    case 'boolean':
      return z.boolean();
    case 'choice':
      return z.enum(d.choices as [string, ...string[]]);
    case 'criterion':
    case 'pruner':
      return z.string().min(1);
    case 'class-weight':
      return z.union([z.literal('balanced'), z.literal('balancedSubsample'), z.record(z.string(), z.number())]);
    case 'ordered-categories':
      return z.record(z.string(), z.array(z.string()));
    case 'max-features':
      return z.union([z.literal('sqrt'), z.literal('log2'), z.number().superRefine(inRange(d))]);
  }
}

function inRange(d: OptionDescriptor) {
  return (value: number, ctx: z.RefinementCtx) => {
    const problem = optionProblem(d, value);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `${d.name} ${problem}` });
  };
}
