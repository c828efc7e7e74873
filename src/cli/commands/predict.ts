import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import type { Command } from 'commander';
import { GroveError } from '../../core/errors.js';
import { csvField, csvLine } from '../../data/csv-write.js';
import type { Dataset } from '../../data/dataset.js';
import { predictThreads } from '../../ensemble/compiled-forest.js';
import { codesOf, Forest } from '../../ensemble/forest.js';
import '../../ensemble/threads/parallel-sums.js'; // a forest's prediction on worker threads
import { writeAtomicWith } from '../../io/atomic.js';
import { openModel } from '../../io/model-file.js';
import { refuseOutputOverInput } from '../../io/same-file.js';
import type { DecisionPaths, DecisionTree, PredictOptions } from '../../model/decision-tree.js';
import type { FeatureSchema } from '../../model/schema.js';
import { choicesOf, type TreeOptions } from '../../options/options.js';
import { type DatabaseSource, openRows, openSource } from '../../sources/index.js';
import { choiceOption, intOption } from '../args.js';
import { emit } from '../output.js';
import { type AsideRead, readAside } from '../read-aside.js';
import { addSourceFlags, readOptionsFromFlags, type SourceFlags } from '../read-flags.js';
import { readData } from '../read-progress.js';
import { DATA_HELP, threadsOption } from './fit.js';
import { writePredictionsParquet } from './predictions-parquet.js';

export function registerPredict(program: Command): void {
  const cmd = program
    .command('predict')
    .description(
      'predict the class of every row of DATA with a saved model; writes CSV, or Parquet when --out ends ' +
        'in .parquet (column `predicted`, then one probability column per class with --proba, a leaf id with ' +
        '--leaf, a node path with --path; a C-MBSV row in an unclassified region: `unclassified`, empty ' +
        'probabilities)',
    )
    .argument('<data>', `rows to predict (${DATA_HELP}); a target column in it is ignored`)
    .requiredOption('--model <model>', 'model file written by grove fit (a tree or a forest)')
    .option('--proba', 'add one probability column per class')
    .option('--leaf', "add a column `leaf`: the id of the leaf each row ends in (its index in the model file's nodes)")
    .option('--path', "add a column `path`: the ids of the nodes each row visits, joined by ';'")
    .option('--out <file>', 'write to a file instead of stdout: Parquet if it ends in .parquet, else CSV')
    .option(
      '--unclassified <mode>',
      "C-MBSV: rows in an unclassified region: none (write 'unclassified') or knn (k-NN; needs a model " +
        "fitted with --unclassified knn); default: the model's",
      choiceOption('--unclassified', choicesOf('unclassified')),
    )
    .option('--knn-k <k>', "C-MBSV: neighbours for k-NN (default: the model's)", intOption('--knn-k', 1))
    .option(
      '--threads <n>',
      "threads for a forest's prediction: a number or 'auto' (the same probabilities; default auto)",
      threadsOption,
    );
  addSourceFlags(cmd, 'predict').action(runPredict);
}

/** predict's flags. */
type PredictFlags = {
  model: string;
  proba?: boolean;
  leaf?: boolean;
  path?: boolean;
  out?: string;
  unclassified?: TreeOptions['unclassified'];
  knnK?: number;
  threads?: number | 'auto';
} & SourceFlags;

async function runPredict(dataPath: string, flags: PredictFlags): Promise<void> {
  if (flags.out) refuseOutputOverInput([{ flag: '--out', path: flags.out }], [dataPath, flags.model]);
  const model = openModel(flags.model);
  const policy = { unclassified: flags.unclassified, knnK: flags.knnK, threads: flags.threads ?? 'auto' };
  // A forest file names its features in its header: its rows are read on a worker thread while
  // the forest decodes and compiles here.
  const ahead = featureList(model.features);
  const aside = ahead && asideFits(dataPath, flags) ? startAside(dataPath, flags, ahead) : undefined;
  try {
    // A forest is compiled as it loads, for the threads it will predict on.
    const tree = model.load(predictThreads(policy.threads));
    if (tree instanceof Forest && (flags.leaf || flags.path))
      throw new GroveError('--leaf and --path describe one tree; this model is a forest', { code: 'E_OPTION' });
    const trees = () => (tree instanceof Forest ? tree.trees : [tree]);
    if (flags.unclassified === 'knn' && trees().some((t) => t.nodes.some((n) => n.unclassified && !n.knn))) {
      throw new GroveError(
        `${flags.model} stores no k-NN data for its unclassified regions (fit it with --unclassified knn)`,
      );
    }
    const readOptions = { ...columnTypes(tree.features), ...readOptionsFromFlags(flags) };
    const source = openRows(dataPath, flags, openSource);
    const parquetOut = flags.out !== undefined && /\.parquet$/i.test(flags.out) ? flags.out : undefined;
    if ('readBatches' in source && parquetOut === undefined) {
      // A database: a batch of rows at a time, each batch's lines written before the next is read.
      await writeStreamed(flags.out, async (write) => {
        await write(`${csvLine(predictionHeader(tree, flags))}\n`);
        await (source as DatabaseSource).readBatches(readOptions, (data) =>
          write(predictionLines(tree, data, flags, policy)),
        );
      });
      return;
    }
    if (tree instanceof Forest) tree.compiledFor(predictThreads(policy.threads));
    // The rows read aside count only if the model's own features ask for the same columns.
    const same = ahead && JSON.stringify(columnTypes(ahead)) === JSON.stringify(columnTypes(tree.features));
    const data = (same ? await aside?.result : undefined) ?? (await readData(source, readOptions, flags.progress));
    if (parquetOut !== undefined) {
      const { codes, proba } = predicted(tree, data, flags, policy);
      const leaves = flags.leaf ? (tree as DecisionTree).apply(data, policy) : undefined;
      const paths = flags.path ? (tree as DecisionTree).decisionPath(data, policy) : undefined;
      await writePredictionsParquet(parquetOut, tree.classes, codes, proba, {
        ...(leaves ? { leaves } : {}),
        ...(paths ? { path: (i) => pathText(paths, i) } : {}),
      });
      return;
    }
    emit(`${csvLine(predictionHeader(tree, flags))}\n${predictionLines(tree, data, flags, policy)}`, flags.out);
  } finally {
    aside?.cancel();
  }
}

/**
 * How predict reads the model's features: every column as a feature, with the model's types
 * where the file has the column (an ordered categorical feature, with levels, is read as
 * categorical and mapped to its rank by the model).
 */
function columnTypes(features: readonly FeatureSchema[]) {
  return {
    noTarget: true,
    ignoreUnknownColumns: true,
    categorical: features.filter((f) => f.kind === 'categorical' || f.levels).map((f) => f.name),
    numeric: features.filter((f) => f.kind === 'numeric' && !f.levels).map((f) => f.name),
  };
}

/** A header's features when they look like features (the decoded model checks them), else undefined. */
function featureList(x: unknown): FeatureSchema[] | undefined {
  if (!Array.isArray(x)) return undefined;
  const ok = x.every(
    (f) => typeof f === 'object' && f !== null && typeof f.name === 'string' && typeof f.kind === 'string',
  );
  return ok ? (x as FeatureSchema[]) : undefined;
}

/** A data file read where no progress bar would be drawn (a bar needs this thread's event loop). */
function asideFits(dataPath: string, flags: PredictFlags): boolean {
  if (flags.table !== undefined || flags.query !== undefined) return false;
  if (flags.progress !== false && process.stderr.isTTY) return false;
  try {
    return statSync(dataPath).isFile();
  } catch {
    return false;
  }
}

function startAside(dataPath: string, flags: PredictFlags, features: FeatureSchema[]): AsideRead | undefined {
  const { onWarning: _, ...fromFlags } = readOptionsFromFlags(flags);
  const sourceFlags: SourceFlags = { ...flags };
  return readAside({ dataPath, flags: sourceFlags, options: { ...columnTypes(features), ...fromFlags } });
}

/** What the CSV of predictions holds besides `predicted`. */
interface PredictColumns {
  proba?: boolean;
  leaf?: boolean;
  path?: boolean;
}

function predictionHeader(tree: DecisionTree | Forest, flags: PredictColumns): Array<string | number | boolean> {
  return [
    'predicted',
    ...(flags.proba ? tree.classes : []),
    ...(flags.leaf ? ['leaf'] : []),
    ...(flags.path ? ['path'] : []),
  ];
}

/** Each row's class code, and with --proba its probabilities: a forest's from one walk. */
function predicted(
  tree: DecisionTree | Forest,
  data: Dataset,
  flags: PredictColumns,
  policy: PredictOptions,
): { codes: Int32Array; proba?: Float64Array } {
  if (tree instanceof Forest) {
    const proba = tree.predictProbaFlat(data, policy);
    const codes = codesOf(proba, tree.classes.length);
    return flags.proba ? { codes, proba } : { codes };
  }
  const codes = tree.predictCodes(data, policy);
  return flags.proba ? { codes, proba: tree.predictProbaFlat(data, policy) } : { codes };
}

/** The CSV lines (each ending in a newline) of `data`'s predictions. */
function predictionLines(
  tree: DecisionTree | Forest,
  data: Dataset,
  flags: PredictColumns,
  policy: PredictOptions,
): string {
  const { codes, proba } = predicted(tree, data, flags, policy);
  const k = tree.classes.length;
  // A forest was refused --leaf and --path above.
  const leaves = flags.leaf ? (tree as DecisionTree).apply(data, policy) : undefined;
  const paths = flags.path ? (tree as DecisionTree).decisionPath(data, policy) : undefined;
  // Each class's field is quoted once; the other fields are numbers (or empty), never quoted.
  const labels = tree.classes.map(csvField);
  const lines: string[] = [];
  for (let i = 0; i < data.nRows; i++) {
    // C-MBSV unclassified region: the literal `unclassified` and empty probability cells.
    let line = codes[i] < 0 ? 'unclassified' : labels[codes[i]];
    if (proba) for (let c = 0; c < k; c++) line += codes[i] < 0 ? ',' : `,${Number(proba[i * k + c].toPrecision(6))}`;
    if (leaves) line += `,${leaves[i]}`;
    if (paths) line += `,${pathText(paths, i)}`;
    lines.push(`${line}\n`);
  }
  return lines.join('');
}

/**
 * Write text as it is made: to `out` atomically (a temporary file renamed into place at the end),
 * else to stdout, waiting whenever stdout's buffer is full so memory stays bounded.
 */
export async function writeStreamed(
  out: string | undefined,
  produce: (write: (text: string) => Promise<void>) => Promise<void>,
): Promise<void> {
  if (!out) {
    await produce(
      (text) =>
        new Promise((resolve, reject) => {
          if (process.stdout.write(text)) resolve();
          else {
            process.stdout.once('drain', resolve);
            process.stdout.once('error', reject);
          }
        }),
    );
    return;
  }
  await writeAtomicWith(out, async (tmp) => {
    const fd = openSync(tmp, 'wx');
    try {
      await produce(async (text) => void writeSync(fd, text));
    } finally {
      closeSync(fd);
    }
  });
}

/** Row `i`'s decision path as node ids joined by `;`. */
function pathText(paths: DecisionPaths, i: number): string {
  return paths.nodes.subarray(paths.offsets[i], paths.offsets[i + 1]).join(';');
}
