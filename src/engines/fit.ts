import { cmbsvSavedOptions } from '../algorithms/cmbsv/saved.js';
import { GroveError } from '../core/errors.js';
import { classWeights } from '../data/weights.js';
import { DecisionTree, TRUSTED_MODEL } from '../model/decision-tree.js';
import { nodesOf } from '../model/store.js';
import {
  type FitOptions,
  optionDescriptor,
  type ResolveContext,
  resolveOptions,
  savedOptions,
} from '../options/options.js';
import { collapseTree, pruneTree } from '../prune/index.js';
import { engineBins } from './bins.js';
import { type Engine, Params } from './engine.js';
import { refuseFlatFractional } from './fan-out.js';
import { j48PointsInEngine } from './j48-points.js';
import { growInEngine, type LevelReport } from './level-loop.js';
import { firstMissingColumn } from './missing.js';
import type { EngineRows } from './rows.js';
import { classCode, type EngineColumns, type EngineSource, readSchema } from './schema.js';
import { treeRows } from './tree-rows.js';

/** What `fitInEngine` needs besides the engine: the source, its columns, and progress. */
export interface EngineFitInput {
  source: EngineSource;
  columns?: EngineColumns;
  /** Called after each level (the CLI prints one line per level). */
  onLevel?: (report: LevelReport) => void;
  /** Stops the fit between queries (a running query is stopped with `Engine.interrupt`). */
  signal?: AbortSignal;
  /**
   * Histogram cells (8 bytes each) grove fetches in one batch at most, which bounds its memory;
   * a level with more is counted in several batches. Default `ENGINE_BATCH_CELLS` (level-loop.ts).
   */
  batchCells?: number;
}

/** Bins of in-database training when `bins` is not given. */
export const ENGINE_DEFAULT_BINS = 255;

/**
 * Grow a tree inside a database engine: the per-level counts are computed by the engine, the
 * rest (measures, split choice, stop rules, pruning, the model) is grove's. Histogram mode always
 * (`bins` defaults to 255); the tree equals `fit(data, { ...options, bins })` on the same rows
 * when the weights are whole numbers (docs/in-database.md says why).
 *
 * @throws GroveError for options that need the rows in memory (C-MBSV, cross-validated or
 *   reduced-error pruning, ordered categories), fractional missing values on rows with missing
 *   values where the engine makes no temporary tables, and bad data
 */
export async function fitInEngine(
  engine: Engine,
  input: EngineFitInput,
  options: FitOptions = {},
  context: ResolveContext = {},
): Promise<DecisionTree> {
  const flag = (name: string) =>
    context.names === 'flags' ? `--${optionDescriptor(name as 'bins')?.flag ?? name}` : name;
  const opts = resolveOptions({ ...options, bins: options.bins ?? ENGINE_DEFAULT_BINS }, context);
  refuseInEngine(opts, flag, engine.dialect.name);
  const schema = await readSchema(engine, input.source, input.columns ?? {});
  const spread = (await engine.rowsElsewhere?.(schema.source.from(new Params(engine.dialect)))) ?? false;
  const rows: EngineRows = { engine, schema, classWeights: null, spread };
  if (opts.classWeight !== undefined) {
    const count = new Float64Array(schema.classes.length);
    if (opts.classWeight === 'balanced' || opts.classWeight === 'balancedSubsample') {
      const p = new Params(engine.dialect);
      const code = classCode(schema, engine, p);
      // Grouped outside the source's SELECT, under an alias no column of the source has.
      const y = schema.alias('y');
      const counted = await engine.query(
        `SELECT ${y}, ${engine.dialect.toDouble('COUNT(*)')} ` +
          `FROM (SELECT ${code} AS ${y} FROM ${schema.source.from(p)} AS src) AS c GROUP BY ${y}`,
        p.values,
      );
      for (const [y, n] of counted) count[y as number] += n as number;
    }
    rows.classWeights = classWeights(opts.classWeight, schema.classes, count, schema.nRows, flag('classWeight'));
  }
  if (opts.missing === 'fractional' && (await firstMissingColumn(rows)) >= 0) {
    // A row in several nodes at once: each level a table of (node, weight) entries.
    if (spread || !engine.dialect.repeatIndex) throw refuseFlatFractional(engine.dialect.name, flag('missing'));
    rows.fractional = true;
  }
  const { binned, grids } = await engineBins(rows, opts.bins!, input.signal);
  const grown = await growInEngine(rows, binned, grids, opts, input.batchCells, input.onLevel, input.signal);
  // J48 puts thresholds at training values and collapses, as part of growing, every subtree that
  // does not cut training errors (as fit does in memory).
  const tree = opts.j48Rules ? collapseTree(await j48PointsInEngine(nodesOf(grown), rows)) : grown;
  // Subtree raising recounts the training rows of raised subtrees: the engine groups them (tree-rows.ts).
  const recount = opts.prune === 'error-based' && opts.subtreeRaising ? await treeRows(nodesOf(tree), rows) : {};
  const pruned =
    opts.prune === 'none' ? { nodes: tree, info: undefined } : pruneTree(nodesOf(tree), { options: opts, ...recount });
  return new DecisionTree(
    {
      target: schema.targetName,
      features: schema.features.map((col) =>
        col.kind === 'numeric'
          ? { name: col.name, kind: 'numeric', ...(col.unit !== undefined ? { unit: col.unit } : {}) }
          : { name: col.name, kind: 'categorical', categories: col.categories.slice() },
      ),
      classes: schema.classes.slice(),
      options: { ...savedOptions(opts), ...cmbsvSavedOptions(opts) },
      nodes: pruned.nodes,
      ...(pruned.info ? { pruning: pruned.info } : {}),
    },
    TRUSTED_MODEL,
  );
}

/** Options that need every row in grove's memory: refused with the reason. */
function refuseInEngine(opts: ReturnType<typeof resolveOptions>, flag: (name: string) => string, engine: string): void {
  const refuse = (what: string) =>
    new GroveError(`${what} cannot be computed inside ${engine}: ${'use --engine memory'}`, { code: 'E_OPTION' });
  if (opts.algorithm === 'cmbsv') throw refuse('C-MBSV grows row-level SVMs, which');
  if (opts.orderedCategories !== undefined) throw refuse(`${flag('orderedCategories')}`);
  if (opts.prune === 'reduced-error') throw refuse('reduced-error pruning (a held-out sample routed row by row)');
  if (opts.prune === 'cost-complexity' && opts.ccpAlpha === undefined)
    throw refuse(
      `cost-complexity pruning with α chosen by cross-validation (give ${flag('ccpAlpha')} or ${flag('prune')} none)`,
    );
  // Not yet pushed down: the level-wise engine grower has no best-first order, no per-node feature
  // draws, no fit-wide weight share and none of J48's after-growth rules.
  if (opts.maxLeafNodes !== undefined) throw refuse(`${flag('maxLeafNodes')} (best-first growth)`);
  if (opts.maxFeatures !== undefined) throw refuse(`${flag('maxFeatures')} (features drawn per node)`);
  if (opts.minWeightFractionLeaf > 0) throw refuse(`${flag('minWeightFractionLeaf')}`);
  if (opts.minImpurityDecrease > 0) throw refuse(`${flag('minImpurityDecrease')}`);
  if (opts.splitter === 'random') throw refuse(`${flag('splitter')} random (thresholds drawn per node)`);
}
