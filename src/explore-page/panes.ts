/** What the explore page's panes say: a tree's stats line, the class legend and a tree's rules. */

import type { FitOptions } from '../options/types.js';
import { color } from '../report/html.js';
import { el } from './dom.js';
import { $ } from './page-status.js';
import type { CvResult, GrowProgress, RulesText, Slot } from './protocol.js';
import type { TreeView } from './tree-view.js';

/**
 * The tree's numbers, and the regrow's times (also as data attributes, which the speed bench
 * reads). `pruning`: the tree is the one before pruning, and pruning is this far.
 */
export function paneStats(slot: Slot, v: TreeView, drawMs: number, regrowMs: number, pruning?: GrowProgress): void {
  const stats = $(`stats-${slot}`);
  const { nodes, leaves, height } = v.stats;
  const shape = `${v.algorithm}, ${v.criterion}: ${nodes} nodes, ${leaves} leaves, height ${height}`;
  if (pruning) {
    const step =
      pruning.total > 1 ? ` (cross-validation: ${pruning.grown - 1} of ${pruning.total - 1} folds grown)` : '';
    stats.textContent =
      `${shape} before pruning; grown in ${v.growMs.toFixed(0)} ms, shown in ${regrowMs.toFixed(0)} ms; ` +
      `pruning${step}…`;
    stats.dataset.pruning = 'yes';
    return;
  }
  const on = v.workers > 1 ? ` on ${v.workers} workers` : '';
  stats.textContent =
    `${shape}${v.pruning ? `, pruned (${v.pruning})` : ''}; ` +
    `grown in ${v.growMs.toFixed(0)} ms${on}, shown in ${regrowMs.toFixed(0)} ms`;
  delete stats.dataset.pruning;
  stats.dataset.workers = String(v.workers);
  stats.dataset.growMs = v.growMs.toFixed(2);
  stats.dataset.viewMs = v.viewMs.toFixed(2);
  stats.dataset.drawMs = drawMs.toFixed(2);
  stats.dataset.regrowMs = regrowMs.toFixed(2);
}

/** The legend: a colour swatch and name per class. */
export function legend(classes: string[]): void {
  const box = $('legend');
  box.replaceChildren();
  classes.forEach((c, k) => {
    const item = el('span');
    const sw = el('span', { class: 'swatch' });
    sw.style.background = color(k);
    item.append(sw, document.createTextNode(c));
    box.append(item);
  });
}

/**
 * Characters of rules text set at once. Laying out a large tree's whole text (hundreds of
 * thousands of characters) holds the page's main thread for a long moment, so its first rules are
 * shown, and the rest when asked for (a button).
 */
const RULES_AT_ONCE = 40_000;

/** Tree `slot`'s rules, all of them when short, else the first ones and a button that shows all. */
export function fillRules(slot: Slot, { text: rules, count }: RulesText): void {
  const pre = $(`rules-${slot}`);
  const all = $(`rules-${slot}-all`) as HTMLButtonElement;
  const cut = rules.length > RULES_AT_ONCE ? rules.lastIndexOf('\n', RULES_AT_ONCE) + 1 : 0;
  if (cut <= 0) {
    pre.textContent = rules;
    all.hidden = true;
    all.onclick = null;
    return;
  }
  pre.textContent = rules.slice(0, cut);
  all.textContent = `Show all ${count.toLocaleString('en')} rules (${rules.length.toLocaleString('en')} characters)`;
  all.setAttribute('aria-expanded', 'false');
  all.hidden = false;
  all.onclick = () => {
    pre.textContent = rules;
    all.setAttribute('aria-expanded', 'true');
    all.hidden = true;
    all.onclick = null;
    pre.focus();
  };
}

/**
 * Side by side: each tree's CV accuracy (`cv` runs in the CV worker, restarted by the next grow),
 * shown while `current()` says the grow that asked is still the page's.
 */
export async function crossValidateBoth(
  cv: (options: FitOptions) => Promise<CvResult>,
  slots: Slot[],
  opts: Map<Slot, FitOptions>,
  current: () => boolean,
): Promise<void> {
  for (const s of slots) $(`cv-${s}`).textContent = 'cross-validating…';
  const cvs = await Promise.all(slots.map((s) => cv(opts.get(s)!)));
  if (!current()) return;
  cvs.forEach((r, i) => {
    const out = $(`cv-${slots[i]}`);
    const accuracy = `${(100 * r.mean).toFixed(1)} ± ${(100 * r.sd).toFixed(1)} %`;
    out.textContent = `${r.folds}-fold CV accuracy ${accuracy} (${r.ms.toFixed(0)} ms)`;
    out.dataset.accuracy = String(r.mean);
  });
}
