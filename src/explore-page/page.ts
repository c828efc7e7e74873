/**
 * `grove explore`'s page: reads the embedded data set, starts the worker from its inlined code,
 * builds the controls from the option table and shows the trees, a node's ten-measure scores,
 * side-by-side comparison, the rules and the path of a typed row. Plain DOM, no framework.
 */
import type { DataShape } from '../explore/embedded.js';
import type { PageSettings } from '../explore/page-text.js';
import type { FitOptions } from '../options/types.js';
import { Cancelled } from './client.js';
import { buildControls, type ControlSet, optionsForB } from './controls.js';
import { curveControls } from './curve-controls.js';
import { el } from './dom.js';
import { WhyPane } from './explain-pane.js';
import { nodePanel } from './node-panel.js';
import { clearPanes, openFile, showDataTexts, showTargets, watchFiles, watchTarget } from './open-file.js';
import { $, afterPaint, busy, clearError, measured, paintedOrLate, report, showError } from './page-status.js';
import { drawInPane, markDisagreements as markInDrawings } from './pane-trees.js';
import { crossValidateBoth, fillRules, legend, paneStats } from './panes.js';
import { pathForm, showPath } from './path-form.js';
import type { CvResult, GrowProgress, NodeDetail, PathResult, Request, RulesText, Slot } from './protocol.js';
import { type OpenedFile, ReaderClient } from './reader-client.js';
import type { DrawnTree } from './tree-svg.js';
import type { TreeView } from './tree-view.js';
import { PageWorkers } from './workers.js';

// ---- errors --------------------------------------------------------------------------------------

window.addEventListener('error', (e) => showError(`script error: ${e.message}`));
window.addEventListener('unhandledrejection', (e) => report(e.reason));

// ---- the workers ---------------------------------------------------------------------------------

// The data set the page holds (its shape: the columns are the data keeper's): the one `grove explore`
// embedded, or none until the user opens a file.
let data = (JSON.parse($('grove-shape').textContent ?? 'null') as DataShape | null) ?? undefined;
const settings = JSON.parse($('grove-settings').textContent ?? 'null') as PageSettings;
/** A Blob URL of the worker code inlined in `<script id="ID">` (a Blob URL works from file://). */
const scriptUrl = (id: string) => URL.createObjectURL(new Blob([$(id).textContent ?? ''], { type: 'text/javascript' }));
const workerUrl = scriptUrl('grove-worker');
const workers = new PageWorkers(workerUrl, scriptUrl('grove-keeper'), $('grove-data').textContent ?? 'null', showError);
const reader = new ReaderClient(scriptUrl('grove-reader'));
const { grower } = workers;

function call<T>(req: Request, progress?: (p: GrowProgress) => void): Promise<T> {
  return busy(grower.call<T>(req, progress));
}

// ---- state ----------------------------------------------------------------------------------------

const views = new Map<Slot, TreeView>();
const drawn = new Map<Slot, DrawnTree>();
const why = new WhyPane(call);
let controlsA: ControlSet;
let controlsB: ControlSet;
let growToken = 0;
let picked: { slot: Slot; node: number } | null = null;
/** Counts the node panels filled: a panel's table goes in only while it is the last filled. */
let panels = 0;

function sideBySide(): boolean {
  return $<HTMLInputElement>('side').checked;
}

// ---- drawing --------------------------------------------------------------------------------------

/** A grow in progress: its token, when it was asked for, and when each tree was first shown. */
interface Run {
  token: number;
  requested: number;
  firstShown: Map<Slot, number>;
}

/** How long the worker waits at most, after a tree before pruning is drawn, before it is told to prune. */
const SHOWN_AT_LATEST_MS = 250;

/** Tree `slot`, drawn before it is pruned: shown, news of the pruning in its stats line. */
const beforePruning = new Map<Slot, { view: TreeView; progress: GrowProgress; drawMs: number; shownMs: number }>();

/**
 * Draw the tree before pruning that `progress` brings, or update how far its pruning is. The
 * worker prunes that tree once told it is painted (or at once, for a grow no longer shown); the
 * message names the grow, so a late one of an older grow (or of a worker since restarted) wakes
 * no other.
 */
function showProgress(run: Run, slot: Slot, progress: GrowProgress): void {
  const shown = () => {
    if (progress.view) void call({ type: 'shown', slot, grow: progress.grow }).catch(() => undefined);
  };
  if (run.token !== growToken) {
    shown();
    return;
  }
  const held = beforePruning.get(slot);
  if (!progress.view) {
    if (held) {
      held.progress = progress;
      paneStats(slot, held.view, held.drawMs, held.shownMs, progress);
    }
    return;
  }
  const v = progress.view;
  views.set(slot, v);
  const painted = afterPaint();
  let now: { view: TreeView; progress: GrowProgress; drawMs: number; shownMs: number } | undefined;
  try {
    const drawMs = draw(slot, v);
    now = { view: v, progress, drawMs, shownMs: performance.now() - run.requested };
    beforePruning.set(slot, now);
    paneStats(slot, v, drawMs, now.shownMs, progress);
    if (slot === 'a') legend(v.classes);
  } finally {
    // Pruning starts once the frame is painted, even when drawing failed (the error is on the
    // page), and soon in any case: a tab hidden meanwhile paints no frame.
    void busy(paintedOrLate(painted, SHOWN_AT_LATEST_MS)).then(shown);
    void busy(painted).then(() => {
      if (!now || beforePruning.get(slot) !== now) return;
      now.shownMs = performance.now() - run.requested;
      run.firstShown.set(slot, now.shownMs);
      paneStats(slot, v, now.drawMs, now.shownMs, now.progress);
    });
  }
}

/**
 * Show tree `slot` as grown (and pruned): drawn, its times in the stats line once it is painted.
 * Resolves when it is painted.
 */
function showFinal(run: Run, slot: Slot, v: TreeView): Promise<void> {
  beforePruning.delete(slot);
  views.set(slot, v);
  const drawMs = draw(slot, v);
  const stats = $(`stats-${slot}`);
  paneStats(slot, v, drawMs, performance.now() - run.requested);
  return busy(afterPaint()).then(() => {
    if (views.get(slot) !== v) return;
    const shown = performance.now() - run.requested;
    paneStats(slot, v, drawMs, shown);
    stats.dataset.firstMs = (run.firstShown.get(slot) ?? shown).toFixed(2);
  });
}

/** Draw tree `slot` in its pane; returns the time its first task took (ms). */
function draw(slot: Slot, v: TreeView): number {
  const t0 = performance.now();
  const d = measured('draw tree', () => drawInPane($(`tree-${slot}`), v, (id) => pick(slot, id)));
  drawn.set(slot, d);
  // A large tree's nodes are drawn over later tasks: the page is busy until they all are.
  void busy(d.light);
  return performance.now() - t0;
}

/** The node picked in `slot` when it is a node of `v` (kept across regrows, as the node panel is). */
function pickedIn(slot: Slot, v: TreeView): number | undefined {
  return picked && picked.slot === slot && picked.node < v.nodes.size ? picked.node : undefined;
}

/** Fill tree `slot`'s rules section (asked for after the tree is shown: long for a large tree). */
async function showRules(slot: Slot, v: TreeView): Promise<void> {
  const rules = await call<RulesText>({ type: 'rules', slot });
  if (views.get(slot) === v) measured('rules', () => fillRules(slot, rules));
}

function markDisagreements(): void {
  const both = sideBySide();
  markInDrawings(drawn, both ? views.get('a') : undefined, both ? views.get('b') : undefined, $('disagree'));
}

// ---- growing --------------------------------------------------------------------------------------

/**
 * Grow the trees the controls ask for and show them; the root's node panel, the rules and (side
 * by side) the CV accuracies follow without holding up the next grow.
 */
async function grow(): Promise<void> {
  const token = ++growToken;
  if (!data) return;
  workers.dropCv();
  const side = sideBySide();
  $('pane-b').hidden = !side;
  $('rules-b-box').hidden = !side;
  $('trees').classList.toggle('two', side);
  const slots: Slot[] = side ? ['a', 'b'] : ['a'];
  const opts = new Map<Slot, FitOptions>([
    ['a', controlsA.options()],
    ['b', optionsForB(controlsA.options(), controlsB.options())],
  ]);
  if (!side) views.delete('b');
  for (const s of ['a', 'b'] as Slot[]) $(`cv-${s}`).textContent = '';
  const run: Run = { token, requested: performance.now(), firstShown: new Map() };
  pruning = false;
  const painted: Promise<void>[] = [];
  try {
    // Each tree is shown as it comes: before pruning (when pruned), then as fit returns it.
    const grown = await Promise.all(
      slots.map((s) =>
        call<TreeView>({ type: 'grow', slot: s, options: opts.get(s)! }, (p) => {
          if (p.view) pruning = true;
          showProgress(run, s, p);
        }).then((v) => {
          if (token === growToken) painted.push(showFinal(run, s, v));
          return v;
        }),
      ),
    );
    if (token !== growToken) return;
    clearError();
    legend(grown[0].classes);
    markDisagreements();
    const node = pickedIn('a', grown[0]) ?? 0;
    const { requested } = run;
    // The node panel and the rules are asked for once the trees are painted: on two cores, the
    // grower's work on them took the CPU the page needed to paint.
    const shown = Promise.all(painted);
    const afterShown = async (then: () => Promise<void>): Promise<void> => {
      await shown;
      if (token === growToken) await then();
    };
    void busy(
      afterShown(async () => {
        await pick('a', node);
        $('stats-a').dataset.panelMs = (performance.now() - requested).toFixed(2);
      }),
    );
    for (const [i, v] of grown.entries()) void busy(afterShown(() => showRules(slots[i], v))).catch(report);
    void busy(afterShown(async () => await why.refresh())).catch(report);
    const cv = (o: FitOptions) => workers.cv().call<CvResult>({ type: 'cv', options: o, folds: 5, seed: 1 });
    const current = () => token === growToken;
    if (side) void busy(crossValidateBoth(cv, slots, opts, current)).catch((e) => current() && report(e));
  } catch (err) {
    if (token !== growToken) return;
    report(err);
    if (err instanceof Cancelled) return;
    // A tree shown before pruning whose pruning failed: say so, not "pruning…".
    for (const s of beforePruning.keys()) {
      const stats = $(`stats-${s}`);
      stats.textContent = `${stats.textContent} stopped (see the message above)`;
      delete stats.dataset.pruning;
    }
    beforePruning.clear();
  } finally {
    if (token === growToken) pruning = false;
  }
}

let growing = false;
let again = false;
/** Whether the grow in flight has shown its tree before pruning and is pruning it. */
let pruning = false;
/**
 * Regrow at once; changes made while a tree is growing make one more grow when it is shown (one
 * grow for a burst of edits, never a queue of stale ones). A grow that is pruning (seconds, for
 * cross-validation) is dropped instead: its worker is restarted and the new grow starts at once.
 */
function regrowSoon(): void {
  if (growing) {
    again = true;
    if (pruning) {
      pruning = false;
      grower.restart();
    }
    return;
  }
  growing = true;
  void busy(
    (async () => {
      try {
        do {
          again = false;
          await grow();
        } while (again);
      } finally {
        growing = false;
      }
    })(),
  );
}

// ---- a node ---------------------------------------------------------------------------------------

async function pick(slot: Slot, node: number): Promise<void> {
  const v = views.get(slot);
  if (!v) return;
  picked = { slot, node };
  for (const [s, d] of drawn) d.mark('selected', s === slot ? [node] : []);
  const panel = $('node-body');
  if (beforePruning.get(slot)?.view === v) {
    // The worker is pruning: a node's scores wait for the pruned tree, in which it may not be.
    panel.replaceChildren(
      el('p', { class: 'muted' }, `Node ${node} of the tree before pruning: its details come with the pruned tree.`),
    );
    delete panel.dataset.node;
    return;
  }
  try {
    const detail = await call<NodeDetail>({ type: 'node', slot, node });
    if (picked.slot !== slot || picked.node !== node || views.get(slot) !== v) return;
    const mine = ++panels;
    const { top, scores } = nodePanel(v, slot === 'a' ? 'Tree A' : 'Tree B', detail, v.criterion);
    measured('node panel', () => panel.replaceChildren(...top));
    panel.dataset.node = `${slot}:${node}`;
    // The ten measures' table after a frame: no one frame lays out and paints the whole panel.
    // (Marked busy at once, so the page is never idle with the panel half made.)
    if (scores.length > 0) await busy(afterPaint());
    // A panel filled since, or emptied (another data set), takes no table of this one.
    if (mine !== panels || !top[0]?.isConnected) return;
    measured('node scores', () => panel.append(...scores));
    curveControls(slot, v, node, detail, call);
  } catch (err) {
    report(err);
  }
}

// ---- a typed row ----------------------------------------------------------------------------------

async function trace(): Promise<void> {
  if (!data) return;
  const values = data.features.map((_, i) => ($(`path-f${i}`) as HTMLInputElement | HTMLSelectElement).value);
  const out = $('path-out');
  try {
    const r = await call<PathResult>({ type: 'path', slot: 'a', values });
    const d = drawn.get('a');
    d?.mark('on-path', r.path.nodes);
    showPath(out, r);
    clearError();
  } catch (err) {
    report(err);
  }
}

// ---- a file opened in the page -------------------------------------------------------------------

/** Hold the file read from now on: every worker on it, every pane cleared, grown again. */
function useData({ data: d, columns }: OpenedFile): void {
  data = d;
  // A grow still in flight is of the data set before: its trees are not shown.
  growToken++;
  measured('workers given the data', () => workers.useData(columns));
  showDataTexts(d);
  views.clear();
  drawn.clear();
  beforePruning.clear();
  picked = null;
  clearPanes();
  why.reset(d);
  measured('path form', () => showPathForm(d));
  clearError();
  regrowSoon();
}

/** The form a row is typed into, for `d`'s features. */
function showPathForm(d: DataShape): void {
  $('path-box').replaceChildren(
    pathForm(d.features, () => void trace()),
    el('div', { id: 'path-out' }),
  );
}

// ---- start ----------------------------------------------------------------------------------------

async function start(): Promise<void> {
  const loaded = await busy(grower.ready());
  const names = { criteria: loaded.criteria, pruners: loaded.pruners };
  controlsA = buildControls('a', names);
  controlsB = buildControls('b', names, new Set(['criterion']));
  $('controls-a').append(controlsA.element);
  $('controls-b').append(controlsB.element);
  if (data) {
    showPathForm(data);
    why.reset(data);
    showTargets(undefined, data.target);
  }
  const open = (file: File, target?: string) =>
    busy(openFile(file, target, (f, t) => reader.read({ file: f, ...settings, target: t }), useData, data));
  watchFiles((file) => void open(file));
  watchTarget((file, target) => void open(file, target));
  const side = $<HTMLInputElement>('side');
  side.addEventListener('change', () => {
    $('controls-b').hidden = !side.checked;
    // The first time, B starts with another measure than A's, so there is something to compare.
    const measureB = $<HTMLSelectElement>('opt-b-criterion');
    if (side.checked && measureB.value === '' && controlsB.options().algorithm === undefined)
      measureB.value = views.get('a')?.criterion === 'info-gain' ? 'gini' : 'info-gain';
    regrowSoon();
  });
  $('controls').addEventListener('change', (e) => {
    if (e.target !== side) regrowSoon();
  });
  $('controls').addEventListener('submit', (e) => {
    e.preventDefault();
    regrowSoon();
  });
  if (data) regrowSoon();
}

busy(start()).catch((err: Error) => showError(err.message));
