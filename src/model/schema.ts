import { z } from 'zod';
import { badArgument } from '../core/args.js';
import { GroveError } from '../core/errors.js';
import { type ClassLabel, type Column, TIME_UNITS, type TimeUnit } from '../data/dataset.js';
import { choicesOf, savedOptionsSchema } from '../options/options.js';
import type { TreeNode } from './node.js';
import type { OptimalityInfo } from './optimality.js';
import type { PruningInfo } from './pruning-info.js';
import { branchCount } from './route.js';

/** The file format name and version written into every model file. */
export const MODEL_FORMAT = 'grove-tree';
export const MODEL_VERSION = 1;

/** A feature as the model knows it. Categorical features keep their dictionary: code = index. */
export interface FeatureSchema {
  name: string;
  kind: 'numeric' | 'categorical';
  categories?: string[];
  /**
   * A numeric feature made from an ordered categorical one (`orderedCategories`): its levels;
   * value = rank (1-based).
   */
  levels?: string[];
  /** A numeric feature read from dates or times: what its numbers (and thresholds) count. */
  unit?: TimeUnit;
}

/** The model's schema of a data set's column; `levels` for a numeric column made from ordered categories. */
export function featureSchemaOf(col: Column, levels?: string[]): FeatureSchema {
  const schema: FeatureSchema =
    col.kind === 'numeric'
      ? { name: col.name, kind: 'numeric', ...(col.unit !== undefined ? { unit: col.unit } : {}) }
      : { name: col.name, kind: 'categorical', categories: col.categories.slice() };
  return levels ? { ...schema, levels } : schema;
}

/** Options as saved, generated from the option table (`savedOptionsSchema`; Infinity and unset written as null). */
export type SavedOptions = z.infer<typeof savedOptionsSchema>;

/** Settings of a C-MBSV tree (algorithm `cmbsv`), saved under `options.cmbsv`. */
export type SavedCmbsvOptions = NonNullable<SavedOptions['cmbsv']>;

/** A model file: versioned JSON. */
export interface ModelFile {
  format: typeof MODEL_FORMAT;
  version: typeof MODEL_VERSION;
  target: string;
  features: FeatureSchema[];
  classes: ClassLabel[];
  options: SavedOptions;
  nodes: TreeNode[];
  /** What post-pruning did (src/prune/); absent for an unpruned tree. */
  pruning?: PruningInfo;
  /** What the optimal-tree search proved (src/optimal/); absent for a greedy tree. */
  optimality?: OptimalityInfo;
}

const count = z.number().finite().nonnegative();
const splitSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('numeric'),
    feature: z.number().int().nonnegative(),
    thresholds: z.array(z.number().finite()).min(1),
  }),
  z.object({
    kind: z.literal('multiway'),
    feature: z.number().int().nonnegative(),
    values: z.array(z.number().int().nonnegative()).min(1),
  }),
  z.object({
    kind: z.literal('subset'),
    feature: z.number().int().nonnegative(),
    left: z.array(z.number().int().nonnegative()).min(1),
    right: z.array(z.number().int().nonnegative()).min(1),
  }),
]);
const nodeSchema = z.object({
  counts: z.array(count),
  n: z.number().int().nonnegative(),
  depth: z.number().int().nonnegative(),
  split: splitSchema.optional(),
  children: z.array(z.number().int().positive()).optional(),
  score: z.number().optional(),
  improvement: z.number().optional(),
  missingBranch: z.number().int().nonnegative().optional(),
  unclassified: z.literal(true).optional(),
  knn: z
    .object({
      rows: z.array(z.array(z.number().finite().nullable())).min(1),
      labels: z.array(z.number().int().nonnegative()),
      center: z.array(z.number().finite()),
      scale: z.array(z.number().finite().positive()),
    })
    .optional(),
});
const modelSchema = z.object({
  format: z.literal(MODEL_FORMAT),
  version: z.literal(MODEL_VERSION),
  target: z.string(),
  features: z.array(
    z.object({
      name: z.string(),
      kind: z.enum(['numeric', 'categorical']),
      categories: z.array(z.string()).optional(),
      levels: z.array(z.string()).min(1).optional(),
      unit: z.enum(TIME_UNITS as [TimeUnit, ...TimeUnit[]]).optional(),
    }),
  ),
  classes: z.array(z.union([z.string(), z.number(), z.boolean()])).min(1),
  options: savedOptionsSchema,
  nodes: z.array(nodeSchema).min(1),
  pruning: z
    .object({
      // Any pruning method's name: the tree is already pruned, so its pruner need not be registered.
      method: z.string().min(1),
      leavesBefore: z.number().int().nonnegative(),
      leavesAfter: z.number().int().nonnegative(),
      confidence: z.number().optional(),
      subtreeRaising: z.boolean().optional(),
      validationRows: z.number().int().nonnegative().optional(),
      alpha: z.number().nonnegative().optional(),
      path: z
        .array(
          z.object({ alpha: z.number().nonnegative(), leaves: z.number().int().positive(), trainingError: z.number() }),
        )
        .optional(),
      cv: z
        .object({
          folds: z.number().int(),
          rule: z.enum(choicesOf('ccpRule')),
          seed: z.number().int(),
          table: z.array(
            z.object({
              alpha: z.number(),
              evalAlpha: z.number(),
              leaves: z.number().int(),
              error: z.number(),
              se: z.number(),
              foldErrors: z.array(z.number()),
            }),
          ),
          minIndex: z.number().int().nonnegative(),
          chosenIndex: z.number().int().nonnegative(),
        })
        .optional(),
    })
    .optional(),
  optimality: z
    .object({
      proven: z.boolean(),
      stopped: z.enum(['time', 'memory']).optional(),
      objective: z.enum(['misclassification', 'sparse']),
      value: z.number(),
      lowerBound: z.number(),
      trainingError: z.number(),
      greedyError: z.number(),
      tests: z.number().int().nonnegative(),
      subproblems: z.number().int().nonnegative(),
      depth2: z.number().int().nonnegative(),
      cacheHits: z.number().int().nonnegative(),
      cacheEntries: z.number().int().nonnegative(),
      cacheBytes: z.number().nonnegative().optional(),
      memoryLimit: z.number().positive().optional(),
      residentBytes: z.number().nonnegative().optional(),
      oneVsRest: z.object({ above: z.number().int().positive(), features: z.array(z.string()) }).optional(),
      seconds: z.number().nonnegative(),
    })
    .optional(),
});

/**
 * Check that `value` is a grove model: the schema first, then the tree's structure (children
 * contiguous and after their parent, branch counts, feature kinds, codes in range).
 * Throws GroveError with a one-line reason; `file` names the source in the message.
 */
export function validateModel(value: unknown, file?: string): ModelFile {
  if (file !== undefined && typeof file !== 'string')
    badArgument('validateModel', 'file', 'a file name (a string)', file);
  const model = parseModel(value, file);
  const fail = (msg: string): never => {
    throw new GroveError(`corrupt grove model: ${msg}`, { file, code: 'E_MODEL' });
  };
  checkNames(model, fail);
  const seen = new Uint8Array(model.nodes.length);
  for (let i = 0; i < model.nodes.length; i++) checkNode(model, i, seen, fail);
  for (let i = 1; i < seen.length; i++) if (!seen[i]) fail(`nodes.${i}: not reachable from the root`);
  return model;
}

type Fail = (msg: string) => never;

/** The format tag, the version and the schema. */
function parseModel(value: unknown, file: string | undefined): ModelFile {
  if (typeof value !== 'object' || value === null || (value as { format?: unknown }).format !== MODEL_FORMAT) {
    throw new GroveError(`not a grove model file (expected "format": "${MODEL_FORMAT}")`, { file, code: 'E_MODEL' });
  }
  const version = (value as { version?: unknown }).version;
  if (version !== MODEL_VERSION) {
    throw new GroveError(
      `unsupported grove model version ${JSON.stringify(version)} (this grove reads version ${MODEL_VERSION})`,
      { file, code: 'E_MODEL' },
    );
  }
  const parsed = modelSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new GroveError(`corrupt grove model: ${issue.path.join('.') || '(root)'}: ${issue.message}`, {
      file,
      code: 'E_MODEL',
    });
  }
  return parsed.data as ModelFile;
}

/** Class labels and each feature's categories distinct as text; categories where the kind needs them. */
function checkNames(model: ModelFile, fail: Fail): void {
  // Labels print and compare as text (predictions, class weights): two with one text are one class.
  const labels = new Set<string>();
  model.classes.forEach((label, c) => {
    const text = String(label);
    if (labels.has(text)) fail(`classes.${c}: duplicate class label ${JSON.stringify(text)}`);
    labels.add(text);
  });
  model.features.forEach((f, i) => {
    if (f.kind === 'categorical' && !f.categories) fail(`features.${i}: categorical feature without categories`);
    if (f.levels && f.kind !== 'numeric') fail(`features.${i}: ordered levels on a categorical feature`);
    if (f.unit && f.kind !== 'numeric') fail(`features.${i}: a time unit on a categorical feature`);
    const categories = new Set<string>();
    f.categories?.forEach((v, j) => {
      if (categories.has(v)) fail(`features.${i}.categories.${j}: duplicate category ${JSON.stringify(v)}`);
      categories.add(v);
    });
  });
}

/** Node i: its counts, k-NN data, split and children (`seen` counts each node's parents). */
function checkNode(model: ModelFile, i: number, seen: Uint8Array, fail: Fail): void {
  const node = model.nodes[i];
  const k = model.classes.length;
  if (node.counts.length !== k) fail(`nodes.${i}.counts: expected ${k} class counts, found ${node.counts.length}`);
  if (!node.split !== !node.children) fail(`nodes.${i}: a split needs children and children need a split`);
  if (node.unclassified && node.split) fail(`nodes.${i}: an unclassified region must be a leaf`);
  if (node.knn) checkKnn(model, i, fail);
  if (!node.split || !node.children) return;
  const split = node.split;
  const feature = model.features[split.feature];
  if (!feature) fail(`nodes.${i}.split.feature: no feature ${split.feature}`);
  const branches = branchCount(split);
  if (node.children.length !== branches)
    fail(`nodes.${i}.children: expected ${branches} children, found ${node.children.length}`);
  if (node.missingBranch !== undefined && node.missingBranch >= branches)
    fail(`nodes.${i}.missingBranch: no branch ${node.missingBranch}`);
  if ((split.kind === 'numeric') !== (feature.kind === 'numeric'))
    fail(`nodes.${i}.split: '${split.kind}' split on ${feature.kind} feature '${feature.name}'`);
  if (split.kind === 'numeric') {
    for (let j = 1; j < split.thresholds.length; j++)
      if (!(split.thresholds[j] > split.thresholds[j - 1])) fail(`nodes.${i}.split.thresholds: not increasing`);
  } else {
    const codes = split.kind === 'multiway' ? split.values : split.left.concat(split.right);
    if (new Set(codes).size !== codes.length) fail(`nodes.${i}.split: a category code appears twice`);
    const nCat = feature.categories!.length;
    for (const c of codes)
      if (c >= nCat) fail(`nodes.${i}.split: category code ${c} out of range for '${feature.name}'`);
  }
  const children = node.children;
  children.forEach((child, b) => {
    if (child <= i || child >= model.nodes.length) fail(`nodes.${i}.children: child ${child} out of range`);
    if (child !== children[0] + b) fail(`nodes.${i}.children: children must have consecutive ids`);
    if (seen[child]++) fail(`nodes.${i}.children: node ${child} has two parents`);
  });
}

/** An unclassified region's k-NN rows: one value per feature, one label per row, labels in range. */
function checkKnn(model: ModelFile, i: number, fail: Fail): void {
  const node = model.nodes[i];
  const knn = node.knn!;
  const d = model.features.length;
  if (!node.unclassified) fail(`nodes.${i}.knn: k-NN data on a node that is not an unclassified region`);
  if (knn.labels.length !== knn.rows.length)
    fail(`nodes.${i}.knn: ${knn.rows.length} rows but ${knn.labels.length} labels`);
  if (knn.center.length !== d || knn.scale.length !== d) fail(`nodes.${i}.knn: expected ${d} centers and scales`);
  knn.rows.forEach((row, r) => {
    if (row.length !== d) fail(`nodes.${i}.knn.rows.${r}: expected ${d} values, found ${row.length}`);
  });
  for (const c of knn.labels) if (c >= model.classes.length) fail(`nodes.${i}.knn.labels: class ${c} out of range`);
}
