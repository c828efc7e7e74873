/**
 * The page's worker: holds the data set and the grown trees, and does every computation (grow,
 * cross-validate, score a node, walk a row), so the page never freezes. Started from a Blob URL
 * of its inlined code, which works from file://.
 */
import { fit } from '../algorithms/fit.js';
import { GroveError } from '../core/errors.js';
import { listCriteria } from '../criteria/registry.js';
import type { Dataset } from '../data/dataset.js';
import { crossValidate, summarize } from '../eval/cross-validate.js';
import { checkExplorable, datasetFromEmbedded, type EmbeddedData } from '../explore/embedded.js';
import { branchCondition } from '../export/conditions.js';
import type { DecisionTree } from '../model/decision-tree.js';
import { majorityClass } from '../model/node.js';
import { resolveOptions } from '../options/options.js';
import type { FitOptions } from '../options/types.js';
import { listPruners } from '../prune/registry.js';
import { measureScores, thresholdCurve } from './node-detail.js';
import type { CvResult, Loaded, NodeDetail, PathResult, Reply, Request, Slot } from './protocol.js';
import { treeView } from './tree-view.js';
import { pathOfRow, rowsReaching } from './walk.js';

interface Held {
  tree: DecisionTree;
  options: FitOptions;
}

let data: Dataset | undefined;
let rowNumbers: number[] | undefined;
const trees = new Map<Slot, Held>();
const PREVIEW_ROWS = 50;

function need<T>(x: T | undefined, what: string): T {
  if (x === undefined) throw new GroveError(`${what} first`);
  return x;
}

function held(slot: Slot): Held {
  return need(trees.get(slot), 'grow a tree');
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
  const nodes = tree.nodes;
  if (!(node >= 0 && node < nodes.length)) throw new GroveError(`no node ${node}`);
  const rows = rowsReaching(nodes, d, node);
  const preview = Array.from(rows.subarray(0, PREVIEW_ROWS), (r) => [
    ...d.features.map((_, f) => cell(d, f, r)),
    String(d.classes[d.labels[r]]),
  ]);
  return {
    node,
    counts: nodes[node].counts,
    rows: Array.from(rows, (r) => (rowNumbers ? rowNumbers[r] : r + 1)),
    preview,
    scores: rows.length > 0 ? measureScores(d, rows, options) : null,
    fractional: resolveOptions(options).missing === 'fractional',
    ms: performance.now() - t0,
  };
}

function rowPath(slot: Slot, raw: string[]): PathResult {
  const d = need(data, 'load data');
  const { tree } = held(slot);
  const values: number[] = [];
  const row: Record<string, string | number> = {};
  d.features.forEach((col, f) => {
    const text = (raw[f] ?? '').trim();
    if (col.kind === 'numeric') {
      const x = text === '' || text === '?' ? NaN : Number(text);
      if (text !== '' && text !== '?' && !Number.isFinite(x))
        throw new GroveError(`${col.name}: '${text}' is not a number (leave it empty for a missing value)`);
      values.push(x);
      if (!Number.isNaN(x)) row[col.name] = x;
    } else {
      values.push(text === '' || text === '?' ? -1 : col.categories.indexOf(text));
      if (text !== '' && text !== '?') row[col.name] = text;
    }
  });
  const nodes = tree.nodes;
  const path = pathOfRow(nodes, values);
  const conditions = path.nodes.slice(1).map((id, i) => {
    const parent = nodes[path.nodes[i]];
    return branchCondition(parent.split!, parent.children!.indexOf(id), tree.features);
  });
  const last = nodes[path.nodes[path.nodes.length - 1]];
  const predicted = tree.predict([row], { allowMissingKeys: true })[0];
  return {
    path,
    conditions,
    predicted: predicted === null ? 'unclassified' : String(predicted ?? tree.classes[majorityClass(last.counts)]),
  };
}

function cv(options: FitOptions, folds: number, seed: number): CvResult {
  const t0 = performance.now();
  const results = crossValidate(need(data, 'load data'), options, folds, seed);
  const s = summarize(results.map((r) => r.testAccuracy));
  return { mean: s.mean, sd: s.sd, folds: results.length, ms: performance.now() - t0 };
}

function handle(req: Request): unknown {
  switch (req.type) {
    case 'load': {
      const d = datasetFromEmbedded(req.data as EmbeddedData);
      checkExplorable(d);
      data = d;
      rowNumbers = req.data.rowNumbers;
      trees.clear();
      const loaded: Loaded = {
        rows: d.nRows,
        criteria: listCriteria().map((c) => c.name),
        pruners: listPruners().map((p) => p.name),
      };
      return loaded;
    }
    case 'grow': {
      const t0 = performance.now();
      // Messages name the option by its flag, as the page's controls are labelled.
      const tree = fit(need(data, 'load data'), req.options, { names: 'flags' });
      const ms = performance.now() - t0;
      trees.set(req.slot, { tree, options: req.options });
      return treeView(tree, ms);
    }
    case 'cv':
      return cv(req.options, req.folds, req.seed);
    case 'node':
      return nodeDetail(req.slot, req.node);
    case 'curve': {
      const d = need(data, 'load data');
      const { tree, options } = held(req.slot);
      const rows = rowsReaching(tree.nodes, d, req.node);
      return thresholdCurve(d, rows, req.feature, resolveOptions(options).criterionImpl);
    }
    case 'path':
      return rowPath(req.slot, req.values);
  }
}

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<Request & { id: number }>) => void) | null;
  postMessage(message: Reply): void;
};

scope.onmessage = (e) => {
  const { id } = e.data;
  try {
    scope.postMessage({ id, ok: true, result: handle(e.data) });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    scope.postMessage({ id, ok: false, error: err instanceof GroveError ? message : `internal error: ${message}` });
  }
};
