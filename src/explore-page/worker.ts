/**
 * The page's worker: holds the data set and the grown trees, and does every computation (grow,
 * cross-validate, score a node, walk a row), so the page never freezes. Started from a Blob URL
 * of its inlined code, which works from file://.
 */
import { fitInSteps, fitPlanned, planFit } from '../algorithms/fit.js';
import { GroveError } from '../core/errors.js';
import { listCriteria } from '../criteria/registry.js';
import type { Dataset } from '../data/dataset.js';
import { subsetRows } from '../data/subset.js';
import { crossValidateWith, summarize } from '../eval/cross-validate.js';
import { checkExplorable, datasetFromEmbedded, type EmbeddedData } from '../explore/embedded.js';
import { branchCondition } from '../export/conditions.js';
import { rulesToText, treeToRules } from '../export/rules.js';
import type { DecisionTree } from '../model/decision-tree.js';
import { majorityClass } from '../model/node.js';
import { resolveOptions } from '../options/options.js';
import type { FitOptions } from '../options/types.js';
import { listPruners } from '../prune/registry.js';
import { explainTree } from './explain-tree.js';
import { growInTwo, growsInTwo } from './grow-in-two.js';
import { type HelperLink, linkHelper, serveHelper } from './helper-link.js';
import { type MeasureScores, measureScores, scoreOptions, thresholdCurve } from './node-detail.js';
import { type RowsByNode, rowPath, rowsByNode, rowsOf } from './paths.js';
import type {
  CvResult,
  GrowProgress,
  Loaded,
  NodeDetail,
  PathResult,
  Reply,
  Request,
  RulesText,
  Slot,
} from './protocol.js';
import { type TreeView, treeView, viewBuffers } from './tree-view.js';

interface Held {
  tree: DecisionTree;
  options: FitOptions;
  /** The training rows reaching each node, from the tree's `decisionPath` (made on first use). */
  byNode?: RowsByNode;
}

let data: Dataset | undefined;
let rowNumbers: ArrayLike<number> | undefined;
const trees = new Map<Slot, Held>();
const PREVIEW_ROWS = 50;
/**
 * The root's ten-measure table of the last options scored: every regrow shows the root's panel, and
 * a change of measure (or of a pruning option) leaves the table as it was.
 */
let rootScores: { key: string; scores: MeasureScores } | undefined;

function need<T>(x: T | undefined, what: string): T {
  if (x === undefined) throw new GroveError(`${what} first`);
  return x;
}

function held(slot: Slot): Held {
  return need(trees.get(slot), 'grow a tree');
}

/** The training rows reaching `node` of tree `slot`. */
function rowsReaching(slot: Slot, node: number): Int32Array {
  const h = held(slot);
  const nodes = h.tree.nodes;
  if (!(Number.isInteger(node) && node >= 0 && node < nodes.length)) throw new GroveError(`no node ${node}`);
  // Every row reaches the root: its panel, shown after each regrow, needs no walk of the rows.
  if (node === 0) return Int32Array.from({ length: need(data, 'load data').nRows }, (_, i) => i);
  h.byNode ??= rowsByNode(h.tree.decisionPath(need(data, 'load data')), nodes.length);
  return rowsOf(h.byNode, node);
}

/** The ten measures' table at `rows` (of node `node`), from the cache at the root. */
function scoresAt(node: number, rows: Int32Array, options: FitOptions): MeasureScores {
  const d = need(data, 'load data');
  if (node !== 0) return measureScores(d, rows, options);
  // Every measure is scored with its own name, so the tree's measure does not change the table.
  const key = JSON.stringify(scoreOptions({ ...options, criterion: undefined }));
  if (rootScores?.key !== key) rootScores = { key, scores: measureScores(d, rows, options) };
  return rootScores.scores;
}

function cell(d: Dataset, f: number, r: number): string {
  const col = d.features[f];
  if (col.kind === 'numeric') return Number.isNaN(col.values[r]) ? '?' : String(col.values[r]);
  return col.codes[r] < 0 ? '?' : col.categories[col.codes[r]];
}

function nodeDetail(slot: Slot, node: number): NodeDetail {
  const d = need(data, 'load data');
  const { tree, options } = held(slot);
  const t0 = performance.now();
  const rows = rowsReaching(slot, node);
  const preview = Array.from(rows.subarray(0, PREVIEW_ROWS), (r) => [
    ...d.features.map((_, f) => cell(d, f, r)),
    String(d.classes[d.labels[r]]),
  ]);
  return {
    node,
    counts: tree.nodes[node].counts,
    rows: Array.from(rows, (r) => (rowNumbers ? rowNumbers[r] : r + 1)),
    preview,
    scores: rows.length > 0 ? scoresAt(node, rows, options) : null,
    fractional: resolveOptions(options).missing === 'fractional',
    ms: performance.now() - t0,
  };
}

/** The path of a row typed into the page's form (`raw[f]` per feature, '' or '?' = missing). */
function typedRowPath(slot: Slot, raw: string[]): PathResult {
  const d = need(data, 'load data');
  const { tree } = held(slot);
  const missing: boolean[] = [];
  const row: Record<string, string | number> = {};
  d.features.forEach((col, f) => {
    const text = (raw[f] ?? '').trim();
    missing.push(text === '' || text === '?');
    if (missing[f]) return;
    const x = Number(text);
    if (col.kind === 'numeric' && !Number.isFinite(x))
      throw new GroveError(`${col.name}: '${text}' is not a number (leave it empty for a missing value)`);
    row[col.name] = col.kind === 'numeric' ? x : text;
  });
  const nodes = tree.nodes;
  const paths = tree.decisionPath([row], { allowMissingKeys: true });
  const path = rowPath(nodes, paths.nodes.subarray(paths.offsets[0], paths.offsets[1]));
  const conditions = path.chain.slice(1).map((id, i) => {
    const parent = nodes[path.chain[i]];
    const text = branchCondition(parent.split!, parent.children!.indexOf(id), tree.features);
    return missing[parent.split!.feature] ? `${text} (value missing: the node's missing-value branch)` : text;
  });
  const last = nodes[path.chain[path.chain.length - 1]];
  const predicted = tree.predict([row], { allowMissingKeys: true })[0];
  return {
    path,
    conditions,
    predicted: predicted === null ? 'unclassified' : String(predicted ?? tree.classes[majorityClass(last.counts)]),
  };
}

function cv(options: FitOptions, folds: number, seed: number): CvResult {
  const t0 = performance.now();
  // The page grows greedy trees only: no forest or optimal search in this worker's bundle.
  const greedy = (d: Dataset, o: FitOptions) => fitPlanned(planFit(d, o));
  const results = crossValidateWith(greedy, need(data, 'load data'), options, folds, seed);
  const s = summarize(results.map((r) => r.testAccuracy));
  return { mean: s.mean, sd: s.sd, folds: results.length, ms: performance.now() - t0 };
}

/**
 * Grow tree `slot`. When it will be pruned, the tree before pruning is sent as soon as it is grown
 * (`progress`), and each tree the pruning grows after it, so the page can show it meanwhile. The
 * pruning starts once the page says that tree is on screen (`shown`): on a machine of two cores,
 * pruning at once took the CPU the page needed to draw and paint it.
 */
async function grow(
  slot: Slot,
  options: FitOptions,
  id: number,
  progress: (p: GrowProgress) => void,
): Promise<TreeView> {
  const t0 = performance.now();
  const d = need(data, 'load data');
  let wait = false;
  // Messages name the option by its flag, as the page's controls are labelled.
  const plan = planFit(d, options, {
    names: 'flags',
    onGrown: ({ grown, total, tree: before }) => {
      wait ||= before !== undefined;
      progress({ grown, total, grow: id, ...(before ? { view: treeView(before, performance.now() - t0) } : {}) });
    },
  });
  // A helper found silent is news of its own, sent at once: the page restarts it even if this grow fails or is dropped.
  const inTwo =
    helper !== undefined && growsInTwo(plan, d)
      ? await growInTwo(plan, helper, () => scope.postMessage({ notice: 'helper-silent' }))
      : undefined;
  const steps = fitInSteps(plan, inTwo?.tree);
  const waited = wait ? await untilShown(slot, id) : 0;
  const tree = steps.prune();
  const t1 = performance.now();
  trees.set(slot, { tree, options });
  const view = treeView(tree, t1 - t0 - waited);
  // "On 2 workers" only when the helper grew some of the tree (not when it failed or the top held it all).
  view.workers = inTwo && inTwo.helped > 0 ? 2 : 1;
  view.viewMs = performance.now() - t1;
  return view;
}

/** Per slot, the grow waiting for the page to show its tree before pruning: its id, and how to wake or drop it. */
const onShown = new Map<Slot, { grow: number; go: () => void; drop: () => void }>();

/**
 * Resolves, with the time waited (ms), when the page says tree `slot` of grow `id` before pruning
 * is shown. A grow of the slot still waiting is dropped: the page has moved on, and left waiting
 * it would never reply.
 */
function untilShown(slot: Slot, id: number): Promise<number> {
  onShown.get(slot)?.drop();
  const t0 = performance.now();
  return new Promise((done, fail) =>
    onShown.set(slot, {
      grow: id,
      go: () => done(performance.now() - t0),
      drop: () => fail(new GroveError('dropped: a newer grow of this tree started')),
    }),
  );
}

/**
 * Wake grow `id` of `slot` if it is the one waiting (a `shown` of an older grow, or of a restarted worker, is
 * stale).
 */
function markShown(slot: Slot, id: number): void {
  const waiting = onShown.get(slot);
  if (waiting?.grow !== id) return;
  onShown.delete(slot);
  waiting.go();
}

/** The data set the page's data keeper sends over `port` (none: the page has none yet). */
function receive(port: MessagePort): Promise<EmbeddedData | undefined> {
  return new Promise((resolve) => {
    port.onmessage = (e: MessageEvent<EmbeddedData | undefined>) => {
      port.close();
      resolve(e.data);
    };
  });
}

/** Hold `embedded` (checked first: a refused data set leaves the one held); the names the controls offer. */
function load(embedded: EmbeddedData | undefined): Loaded {
  if (embedded) {
    const all = datasetFromEmbedded(embedded);
    checkExplorable(all);
    // Every regrow fits the same rows: held as a subset of all of them, each fit takes the numeric
    // columns' sorted orders from the parent (sorted once, kept while it lives: src/split/column-order.ts)
    // instead of sorting them again.
    data = subsetRows(
      all,
      Int32Array.from({ length: all.nRows }, (_, i) => i),
    );
    rowNumbers = embedded.rowNumbers;
    trees.clear();
    rootScores = undefined;
  }
  return {
    rows: data?.nRows ?? 0,
    criteria: listCriteria().map((c) => c.name),
    pruners: listPruners().map((p) => p.name),
  };
}

/** The grower's link to the helper worker, which grows some of a tree's subtrees (grow-in-two.ts). */
let helper: HelperLink | undefined;
/** The helper's link: the grower's jobs arrive through it. */
let served: { close(): void } | undefined;

function handle(req: Request, id: number, progress: (p: GrowProgress) => void): unknown {
  switch (req.type) {
    case 'link':
      if (req.role === 'grower') {
        helper?.close();
        helper = linkHelper(req.port);
      } else {
        served?.close();
        served = serveHelper(req.port, () => need(data, 'load data'));
      }
      return null;
    case 'load':
      return receive(req.port).then(load);
    case 'grow':
      return grow(req.slot, req.options, id, progress);
    case 'shown':
      markShown(req.slot, req.grow);
      return null;
    case 'rules': {
      const { tree } = held(req.slot);
      const rules = treeToRules(tree);
      const shown: RulesText = { text: rulesToText(tree, rules), count: rules.length };
      return shown;
    }
    case 'cv':
      return cv(req.options, req.folds, req.seed);
    case 'node':
      return nodeDetail(req.slot, req.node);
    case 'curve': {
      const rows = rowsReaching(req.slot, req.node);
      return thresholdCurve(
        need(data, 'load data'),
        rows,
        req.feature,
        resolveOptions(held(req.slot).options).criterionImpl,
      );
    }
    case 'path':
      return typedRowPath(req.slot, req.values);
    case 'explain': {
      const name = `row ${rowNumbers?.[req.row] ?? req.row + 1}`;
      return explainTree(held(req.slot).tree, need(data, 'load data'), req.row, req.feature, name);
    }
  }
}

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<Request & { id: number }>) => void) | null;
  postMessage(message: Reply, transfer?: Transferable[]): void;
};

scope.onmessage = async (e) => {
  const { id } = e.data;
  try {
    // A tree's view moves to the page with its arrays (no copy: the worker keeps none of it).
    const result = await handle(e.data, id, (progress) =>
      scope.postMessage({ id, progress }, progress.view ? viewBuffers(progress.view) : []),
    );
    scope.postMessage({ id, ok: true, result }, e.data.type === 'grow' ? viewBuffers(result as TreeView) : []);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    scope.postMessage({ id, ok: false, error: err instanceof GroveError ? message : `internal error: ${message}` });
  }
};
