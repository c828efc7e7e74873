import type { DataShape } from '../explore/embedded.js';
import type { FitOptions } from '../options/types.js';
import type { MeasureScores, ThresholdCurve } from './node-detail.js';
import type { RowPath } from './paths.js';
import type { TreeView } from './tree-view.js';

/** The two trees the page holds: the main one, and the second of side-by-side mode. */
export type Slot = 'a' | 'b';

/** What the page asks the worker (one reply per request, matched by `id`). */
export type Request =
  /**
   * Hold the data set the keeper sends over `port` (none: the page has no data set yet); the reply
   * names what the controls offer.
   */
  | { type: 'load'; port: MessagePort }
  | { type: 'grow'; slot: Slot; options: FitOptions }
  /**
   * The page shows tree `slot` before pruning (the progress of grow `grow`, its request id): the
   * worker may prune it now. A `shown` naming another grow (an older one, or one of a worker since
   * restarted) is ignored.
   */
  | { type: 'shown'; slot: Slot; grow: number }
  | { type: 'rules'; slot: Slot }
  | { type: 'cv'; options: FitOptions; folds: number; seed: number }
  | { type: 'node'; slot: Slot; node: number }
  | { type: 'curve'; slot: Slot; node: number; feature: number }
  | { type: 'path'; slot: Slot; values: string[] }
  /** Tree `slot`'s SHAP summary, the waterfall of row `row` (from 0) and the partial dependence on `feature`. */
  | { type: 'explain'; slot: Slot; row: number; feature?: string }
  /**
   * One end of the channel between the grower and the helper worker, which grow a tree together
   * (grow-in-two.ts): the grower asks through it, the helper answers.
   */
  | { type: 'link'; role: 'grower' | 'helper'; port: MessagePort };

/** A node's details: its rows (row numbers from 1, as in the file) and the ten measures' scores there. */
export interface NodeDetail {
  node: number;
  counts: number[];
  rows: number[];
  /** The first rows' values, for the table shown (all of them are in `rows`). */
  preview: string[][];
  scores: MeasureScores | null;
  /** Set when the rows reaching the node were counted at every branch (C4.5's fractional missing values). */
  fractional: boolean;
  ms: number;
}

/** The reply to `load`: the rows held, and the names the option controls offer. */
export interface Loaded {
  rows: number;
  criteria: string[];
  pruners: string[];
}

/**
 * What the page asks its data keeper (keeper.ts): hold the data set of page JSON `json`, or the one
 * a read sends over `port`; or send a copy of the data set held over `port` (to a worker starting).
 */
export type KeeperRequest =
  | { type: 'hold'; json: string }
  | { type: 'hold'; json?: undefined; port: MessagePort }
  | { type: 'serve'; port: MessagePort };

/**
 * What the page asks the reader worker: read a file the user opened, sampled to `maxRows` rows,
 * the columns sent over `columns` (to the data keeper, once the page has taken the file).
 */
export interface ReadRequest {
  columns: MessagePort;
  file: File;
  maxRows: number;
  seed: number;
  /** The class column (default: the CLI's, `class` or the last column). */
  target?: string;
}

/** The reader's answer: the data set's shape (its columns went over the request's port), and the reader's warnings. */
export interface Opened {
  data: DataShape;
  warnings: string[];
}

/** The reader worker's reply. */
export type ReadReply = { ok: true; opened: Opened } | { ok: false; error: string };

/** The reply to `rules`: a tree's IF-THEN rules as text, and how many there are. */
export interface RulesText {
  text: string;
  count: number;
}

export interface CvResult {
  mean: number;
  sd: number;
  folds: number;
  ms: number;
}

export interface PathResult {
  path: RowPath;
  conditions: string[];
  predicted: string;
}

/**
 * A grow's news before its reply, when the tree is pruned: the tree before pruning (`view`, sent
 * once), then each tree the pruning grows (cost-complexity's folds), `grown` of `total`.
 */
export interface GrowProgress {
  grown: number;
  total: number;
  /** The tree before pruning: the worker prunes it once the page says it shows it (request `shown`). */
  view?: TreeView;
  /** The grow's request id, which `shown` names. */
  grow: number;
}

/**
 * A request's reply, or (grow) news of it before the reply, or news of no request: the grower's
 * helper fell silent (grow-in-two.ts), perhaps after the grow that found it so ended.
 */
export type Reply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: string }
  | { id: number; progress: GrowProgress }
  | { notice: 'helper-silent' };

export type { ThresholdCurve, TreeView };
