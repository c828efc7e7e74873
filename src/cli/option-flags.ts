import type { Command } from 'commander';
import {
  OPTION_DESCRIPTORS,
  type OptionDescriptor,
  type OptionGroup,
  PRESETS,
  parseOptionText,
  type TreeOptions,
  valuePlaceholder,
} from '../options/options.js';
import { listPruners } from '../prune/registry.js';

/** Commander's key for a flag's value: `--min-split` → `minSplit` (and `--no-centring` → `centring`). */
function attributeOf(d: OptionDescriptor): string {
  return d.flag.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** The preset `fit` uses without --algorithm, whose values are the effective defaults. */
const DEFAULT_PRESET = 'cart';

/** A default as help shows it (`on`/`off`, 4 significant digits), or undefined for none. */
function shownDefault(d: OptionDescriptor, value: unknown): string | undefined {
  if (d.type === 'boolean') return value ? 'on' : 'off';
  const v = typeof value === 'number' ? Number(value.toPrecision(4)) : value;
  return v === undefined || v === Infinity ? undefined : String(v);
}

function helpOf(d: OptionDescriptor): string {
  const help =
    d.type === 'pruner'
      ? `${d.help}: ${listPruners()
          .map((p) => p.name)
          .join(', ')}`
      : d.help;
  const plain = shownDefault(d, d.default);
  const preset = PRESETS[DEFAULT_PRESET].options as Record<string, unknown>;
  // The default preset sets some options (CART prunes): help gives that value, then the plain default.
  if (Object.hasOwn(preset, d.name) && preset[d.name] !== d.default) {
    const byPreset = shownDefault(d, preset[d.name]);
    const under = `with the default --algorithm ${DEFAULT_PRESET}`;
    return `${help} (default ${byPreset} ${under}; ${plain ?? 'none'} unless a preset sets it)`;
  }
  return plain === undefined ? help : `${help} (default ${plain})`;
}

/** Add a flag for every tree option of `groups`, in that group order, each parsed as its type says. */
export function addOptionFlags(cmd: Command, groups: readonly OptionGroup[]): Command {
  for (const group of groups) {
    for (const d of OPTION_DESCRIPTORS as readonly OptionDescriptor[]) {
      if (d.group !== group) continue;
      const flag = `--${d.flag}`;
      if (d.type === 'boolean') {
        cmd.option(flag, helpOf(d)).option(`--no-${d.flag}`, `the opposite of ${flag}`);
        continue;
      }
      cmd.option(`${flag} ${valuePlaceholder(d)}`, helpOf(d), (raw: string, previous: unknown) =>
        parseOptionText(d, raw, flag, previous),
      );
    }
  }
  return cmd;
}

/** The tree options given on the command line (flags not given are left out). */
export function optionsFromFlags(flags: Record<string, unknown>): Partial<TreeOptions> {
  const out: Record<string, unknown> = {};
  for (const d of OPTION_DESCRIPTORS as readonly OptionDescriptor[]) {
    const value = flags[attributeOf(d)];
    if (value !== undefined) out[d.name] = value;
  }
  return out as Partial<TreeOptions>;
}
