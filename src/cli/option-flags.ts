import type { Command } from 'commander';
import {
  OPTION_DESCRIPTORS,
  type OptionDescriptor,
  type OptionGroup,
  parseOptionText,
  type TreeOptions,
  valuePlaceholder,
} from '../options/options.js';
import { listPruners } from '../prune/registry.js';

/** Commander's key for a flag's value: `--min-split` → `minSplit` (and `--no-centring` → `centring`). */
function attributeOf(d: OptionDescriptor): string {
  return d.flag.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function helpOf(d: OptionDescriptor): string {
  if (d.type === 'pruner')
    return `${d.help}: ${listPruners()
      .map((p) => p.name)
      .join(', ')} (default ${d.default})`;
  if (d.type === 'boolean') return `${d.help} (default ${d.default ? 'on' : 'off'})`;
  const value = typeof d.default === 'number' ? Number(d.default.toPrecision(4)) : d.default;
  const shown = value === undefined || value === Infinity ? '' : ` (default ${String(value)})`;
  return `${d.help}${shown}`;
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
