import type { OptionDescriptor, OptionGroup } from '../options/descriptor.js';
import { OPTION_DESCRIPTORS } from '../options/descriptors.js';
import { PRESETS } from '../options/presets.js';
import type { FitOptions } from '../options/types.js';
import { el } from './dom.js';

/** The option groups the page offers (C-MBSV's SVM settings and data weights stay on the CLI). */
const GROUPS: { group: OptionGroup; title: string; open: boolean }[] = [
  { group: 'split', title: 'Split', open: true },
  { group: 'stop', title: 'Stop rules', open: true },
  { group: 'prune', title: 'Pruning', open: true },
];

/** Names the controls offer for `criterion` and `pruner` options (the worker's registries). */
export interface Names {
  criteria: string[];
  pruners: string[];
}

/** One tree's controls: read them with `options()`. */
export interface ControlSet {
  element: HTMLElement;
  options(): FitOptions;
}

function defaultText(d: OptionDescriptor): string {
  if (d.default === undefined) return 'unset';
  if (d.default === Infinity) return 'unlimited';
  if (typeof d.default === 'boolean') return d.default ? 'on' : 'off';
  if (typeof d.default === 'number') return String(Number(d.default.toPrecision(4)));
  return String(d.default);
}

function select(id: string, label: string, values: readonly string[], blank: string): HTMLSelectElement {
  const s = el('select', { id, name: id, 'aria-label': label });
  s.append(el('option', { value: '' }, blank));
  for (const v of values) s.append(el('option', { value: v }, v));
  return s;
}

/** A control for descriptor `d`, or null for the types the page does not offer. */
function control(d: OptionDescriptor, id: string, names: Names): HTMLSelectElement | HTMLInputElement | null {
  const blank = `default (${defaultText(d)})`;
  switch (d.type) {
    case 'criterion':
      return select(id, d.flag, names.criteria, d.name === 'criterion' ? 'preset’s (default gini)' : blank);
    case 'pruner':
      return select(id, d.flag, names.pruners, 'preset’s');
    case 'choice':
      return select(id, d.flag, d.choices, blank);
    case 'boolean':
      return select(id, d.flag, ['on', 'off'], blank);
    case 'integer':
    case 'number': {
      const input = el('input', { id, name: id, type: 'number', placeholder: defaultText(d), 'aria-label': d.flag });
      input.step = d.type === 'integer' ? '1' : 'any';
      if (d.type === 'integer') input.min = String(d.min);
      if (d.type === 'integer' && d.max !== undefined) input.max = String(d.max);
      return input;
    }
    case 'max-features': {
      const input = el('input', {
        id,
        name: id,
        type: 'text',
        placeholder: 'all (sqrt, log2, n or a fraction)',
        'aria-label': d.flag,
      });
      input.setAttribute('inputmode', 'text');
      return input;
    }
    default:
      return null;
  }
}

/** The value a control holds as an option value; undefined when left at the default. */
function controlValue(d: OptionDescriptor, raw: string): unknown {
  if (raw === '') return undefined;
  if (d.type === 'boolean') return raw === 'on';
  if (d.type === 'integer' || d.type === 'number') return Number(raw);
  // sqrt/log2 by name, else a count or a fraction; fit's validation names a bad value in the page.
  if (d.type === 'max-features') return raw.trim() === 'sqrt' || raw.trim() === 'log2' ? raw.trim() : Number(raw);
  return raw;
}

/**
 * Controls for one tree, generated from the option table: a preset and one control per option of
 * the split, stop and pruning groups (`only` restricts them to some option names). Ids are
 * `preset-<slot>` and `opt-<slot>-<option name>`. A control left blank passes nothing, so the
 * preset's value (or the default) holds, as with a CLI flag not given.
 */
export function buildControls(slot: string, names: Names, only?: ReadonlySet<string>): ControlSet {
  const element = el('div', { class: 'controls-set' });
  // Optimal trees are searched, not grown level by level as the page shows them.
  const grown = Object.keys(PRESETS).filter((name) => !PRESETS[name].options.optimal);
  const preset = select(`preset-${slot}`, 'preset', grown, 'none (grove’s defaults)');
  const presetLabel = el('label', { for: preset.id, class: 'field' }, 'preset');
  preset.title = Object.entries(PRESETS)
    .map(([n, p]) => `${n}: ${p.description}`)
    .join('\n');
  element.append(presetLabel, preset);
  const read: [OptionDescriptor, HTMLSelectElement | HTMLInputElement][] = [];
  for (const { group, title, open } of GROUPS) {
    const box = el('details', { class: 'group' });
    // On a phone the groups start closed, so the tree is not a long scroll away.
    box.open = open && window.matchMedia('(min-width: 901px)').matches;
    box.append(el('summary', {}, title));
    for (const d of OPTION_DESCRIPTORS as readonly OptionDescriptor[]) {
      if (d.group !== group || (only && !only.has(d.name))) continue;
      const id = `opt-${slot}-${d.name}`;
      const c = control(d, id, names);
      if (!c) continue;
      c.title = d.help;
      const label = el(
        'label',
        { for: id, class: 'field', title: d.help },
        d.flag === 'bins' ? 'bins (histogram mode)' : d.flag,
      );
      box.append(label, c);
      read.push([d, c]);
    }
    if (box.childElementCount > 1) element.append(box);
  }
  return {
    element,
    options(): FitOptions {
      const out: Record<string, unknown> = {};
      if (preset.value !== '') out.algorithm = preset.value;
      for (const [d, c] of read) {
        const v = controlValue(d, c.value.trim());
        if (v !== undefined) out[d.name] = v;
      }
      return out as FitOptions;
    },
  };
}

/** Tree B's options: tree A's (`a`), with B's preset (and that preset's measure) and B's measure where given (`b`). */
export function optionsForB(a: FitOptions, b: FitOptions): FitOptions {
  const out: FitOptions = { ...a };
  if (b.algorithm !== undefined) {
    out.algorithm = b.algorithm;
    delete out.criterion;
  }
  if (b.criterion !== undefined) out.criterion = b.criterion;
  return out;
}
