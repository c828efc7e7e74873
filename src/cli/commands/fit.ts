import type { Command } from 'commander';
import { readDataset } from '../../data/read.js';
import '../../learn/threads/parallel-grow.js'; // worker threads for --threads
import { fit } from '../../algorithms/fit.js';
import { GroveError } from '../../core/errors.js';
import { saveModel } from '../../io/model-file.js';
import type { ClassWeight, FitOptions, MissingPolicy, PruneMethod } from '../../options/options.js';
import { choiceOption, intOption, listOption, numberOption } from '../args.js';
import { warn } from '../output.js';

function threadsOption(raw: string): number | 'auto' {
  if (raw.trim() === 'auto') return 'auto';
  if (!/^\s*\d+\s*$/.test(raw) || Number(raw) < 1)
    throw new GroveError(`option --threads expects an integer ≥ 1 or 'auto', got '${raw}'`);
  return Number(raw);
}

/** Options shared by every command that reads a training file and grows or scores splits. */
export function addTreeOptions(cmd: Command): Command {
  return cmd
    .option('--target <column>', 'class column (default: the last column)')
    .option('--categorical <columns>', 'treat these columns as categorical (comma-separated)', listOption)
    .option('--numeric <columns>', 'these columns must be numeric (comma-separated)', listOption)
    .option('--algorithm <name>', 'preset: id3, c45, cart, zaki, cmbsv (default cart)')
    .option('--criterion <name>', 'split measure (see `grove criteria`)')
    .option(
      '--categorical-split <style>',
      'multiway or binary',
      choiceOption('--categorical-split', ['multiway', 'binary'] as const),
    )
    .option('--max-depth <n>', 'largest depth of a leaf', intOption('--max-depth', 0))
    .option('--min-split <n>', 'a node needs at least n rows to be split (Zaki: η + 1)', intOption('--min-split', 2))
    .option('--min-leaf <n>', 'each child gets at least n rows', intOption('--min-leaf', 1))
    .option('--purity <p>', "stop at nodes whose majority share is ≥ p (Zaki's π)", numberOption('--purity'))
    .option('--min-gain <g>', 'smallest improvement worth a split', numberOption('--min-gain'))
    .option(
      '--max-subset <l>',
      "largest |V| tried for binary categorical splits (Zaki's l)",
      intOption('--max-subset', 1),
    )
    .option(
      '--bins <n>',
      'histogram mode: quantise numeric features into at most n bins (255 is usual)',
      intOption('--bins', 2),
    );
}

export interface TreeFlags {
  target?: string;
  categorical?: string[];
  numeric?: string[];
  algorithm?: string;
  criterion?: string;
  categoricalSplit?: 'multiway' | 'binary';
  maxDepth?: number;
  minSplit?: number;
  minLeaf?: number;
  purity?: number;
  minGain?: number;
  maxSubset?: number;
  bins?: number;
}

export function fitOptionsFrom(flags: TreeFlags): FitOptions {
  return {
    algorithm: flags.algorithm,
    criterion: flags.criterion,
    categoricalSplit: flags.categoricalSplit,
    maxDepth: flags.maxDepth,
    minSamplesSplit: flags.minSplit,
    minSamplesLeaf: flags.minLeaf,
    purity: flags.purity,
    minGain: flags.minGain,
    maxSubsetSize: flags.maxSubset,
    bins: flags.bins,
  };
}

// ---- pruning, missing values and class weights (issue 3; fit only) -------------------------------

/** `balanced`, or `label=w,label=w`. */
function classWeightOption(raw: string): ClassWeight {
  if (raw.trim() === 'balanced') return 'balanced';
  const out: Record<string, number> = {};
  for (const item of listOption(raw)) {
    const eq = item.lastIndexOf('=');
    const w = Number(item.slice(eq + 1));
    if (eq <= 0 || item.slice(eq + 1).trim() === '' || !Number.isFinite(w) || w < 0) {
      throw new GroveError(
        `option --class-weight expects 'balanced' or label=weight,label=weight (weights ≥ 0), got '${raw}'`,
      );
    }
    out[item.slice(0, eq).trim()] = w;
  }
  if (Object.keys(out).length === 0)
    throw new GroveError(`option --class-weight expects 'balanced' or label=weight,..., got '${raw}'`);
  return out;
}

/** Options of `grove fit` beyond the shared tree options: post-pruning, missing values, class weights. */
export function addPruneOptions(cmd: Command): Command {
  return cmd
    .option(
      '--prune <method>',
      'post-pruning: none, pessimistic, error-based, reduced-error, cost-complexity',
      choiceOption('--prune', ['none', 'pessimistic', 'error-based', 'reduced-error', 'cost-complexity'] as const),
    )
    .option(
      '--confidence <cf>',
      "error-based: C4.5's confidence factor CF in (0, 1) (default 0.25)",
      numberOption('--confidence'),
    )
    .option('--subtree-raising', 'error-based: also try raising the largest branch (C4.5)')
    .option(
      '--prune-fraction <f>',
      'reduced-error: fraction of rows held out to prune with (default 1/3)',
      numberOption('--prune-fraction'),
    )
    .option(
      '--ccp-alpha <a>',
      'cost-complexity: fixed α (default: chosen by cross-validation)',
      numberOption('--ccp-alpha'),
    )
    .option('--ccp-folds <k>', 'cost-complexity: folds used to choose α (default 10)', intOption('--ccp-folds', 2))
    .option(
      '--ccp-rule <rule>',
      'cost-complexity: 1se (simplest tree within one SE of the best) or min',
      choiceOption('--ccp-rule', ['1se', 'min'] as const),
    )
    .option('--seed <s>', 'seed for the hold-out split and the CV folds of pruning (default 1)', intOption('--seed', 0))
    .option(
      '--missing <policy>',
      'missing values: majority, learned, fractional',
      choiceOption('--missing', ['majority', 'learned', 'fractional'] as const),
    )
    .option('--class-weight <w>', 'balanced, or label=weight,label=weight', classWeightOption);
}

export interface PruneFlags {
  prune?: PruneMethod;
  confidence?: number;
  subtreeRaising?: boolean;
  pruneFraction?: number;
  ccpAlpha?: number;
  ccpFolds?: number;
  ccpRule?: '1se' | 'min';
  seed?: number;
  missing?: MissingPolicy;
  classWeight?: ClassWeight;
}

export function pruneOptionsFrom(flags: PruneFlags): FitOptions {
  return {
    prune: flags.prune,
    confidence: flags.confidence,
    subtreeRaising: flags.subtreeRaising,
    pruneFraction: flags.pruneFraction,
    ccpAlpha: flags.ccpAlpha,
    ccpFolds: flags.ccpFolds,
    ccpRule: flags.ccpRule,
    seed: flags.seed,
    missing: flags.missing,
    classWeight: flags.classWeight,
  };
}

export function registerFit(program: Command): void {
  addCmbsvOptions(
    addPruneOptions(
      addTreeOptions(
        program
          .command('fit')
          .description('grow a tree on DATA (CSV or ARFF) and save it as JSON')
          .argument('<data>', 'training data'),
      ),
    ),
  )
    .requiredOption('--out <model>', 'where to write the model (JSON)')
    .option(
      '--threads <n>',
      "worker threads for a large fit: a number or 'auto' (the same tree; default auto)",
      threadsOption,
    )
    .option('--float32', 'hold numeric columns as float32 (half the memory; values rounded as scikit-learn does)')
    .action(
      (
        dataPath: string,
        flags: TreeFlags & PruneFlags & CmbsvFlags & { out: string; float32?: boolean; threads?: number | 'auto' },
      ) => {
        const options = {
          ...fitOptionsFrom(flags),
          ...pruneOptionsFrom(flags),
          ...cmbsvOptionsFrom(flags),
          threads: flags.threads ?? 'auto',
        };
        const data = readDataset(dataPath, {
          target: flags.target,
          categorical: flags.categorical,
          numeric: flags.numeric,
          float32: flags.float32,
        });
        const tree = fit(data, options);
        if (data.classes.length < 2) {
          warn(`only one class (${String(data.classes[0])}) in '${data.targetName}': the tree is a single leaf`);
        }
        saveModel(tree, flags.out);
        const s = tree.stats();
        const p = tree.pruning;
        const pruned = p
          ? `; pruned (${p.method}${p.alpha !== undefined ? `, α = ${p.alpha.toPrecision(4)}` : ''}) from ${p.leavesBefore} leaves`
          : '';
        process.stderr.write(
          `grove: ${tree.options.algorithm} tree (${tree.options.criterion}) on ${data.nRows} rows: ` +
            `${s.nodes} nodes, ${s.leaves} leaves, height ${s.height}${pruned} → ${flags.out}\n`,
        );
      },
    );
}

// ---- C-MBSV (algorithm cmbsv; docs/cmbsv.md) and ordered categories ----------------------------

/** `col=a,b,c` (repeatable): the levels of an ordered categorical column, lowest first. */
function orderedOption(raw: string, previous: Record<string, string[]> = {}): Record<string, string[]> {
  const eq = raw.indexOf('=');
  const levels = listOption(raw.slice(eq + 1));
  if (eq <= 0 || levels.length === 0)
    throw new GroveError(`option --ordered expects column=level1,level2,..., got '${raw}'`);
  return { ...previous, [raw.slice(0, eq).trim()]: levels };
}

/** Options of `grove fit` for C-MBSV trees (ignored by the other algorithms, except --ordered). */
export function addCmbsvOptions(cmd: Command): Command {
  return cmd
    .option(
      '--unclassified <mode>',
      'cmbsv: rows in an unclassified region are reported as unclassified (none) or labelled by k-NN (knn; the model stores the rows k-NN needs)',
      choiceOption('--unclassified', ['none', 'knn'] as const),
    )
    .option('--knn-k <k>', 'cmbsv: neighbours for --unclassified knn (default 1)', intOption('--knn-k', 1))
    .option('--svm-c <c>', 'cmbsv: the SVM constant C (default 1)', numberOption('--svm-c'))
    .option(
      '--svm-scaling <s>',
      'cmbsv: values the 1-D SVMs see: standardize (default), none, unit-norm',
      choiceOption('--svm-scaling', ['standardize', 'none', 'unit-norm'] as const),
    )
    .option(
      '--svm-bias <rule>',
      'cmbsv: bias when several are optimal: midpoint (default, libsvm) or max-alpha (MATLAB svmtrain)',
      choiceOption('--svm-bias', ['midpoint', 'max-alpha'] as const),
    )
    .option('--no-svm-balance', "cmbsv: no imbalance weights C·n_b/(n_a+n_b) on the SVM's classes")
    .option(
      '--label-coding <c>',
      'cmbsv: class numbers in the correlation: ordinal (1..n, default) or one-vs-rest',
      choiceOption('--label-coding', ['ordinal', 'one-vs-rest'] as const),
    )
    .option(
      '--no-centring',
      'cmbsv: correlation as the cosine of the raw vectors (eq. 10 as written) instead of Pearson r',
    )
    .option(
      '--ordered <col=levels>',
      'treat a categorical column as ordered, levels lowest first (repeatable); it is split on the rank',
      orderedOption,
    );
}

export interface CmbsvFlags {
  unclassified?: 'none' | 'knn';
  knnK?: number;
  svmC?: number;
  svmScaling?: 'standardize' | 'none' | 'unit-norm';
  svmBias?: 'midpoint' | 'max-alpha';
  svmBalance?: boolean;
  labelCoding?: 'ordinal' | 'one-vs-rest';
  centring?: boolean;
  ordered?: Record<string, string[]>;
}

export function cmbsvOptionsFrom(flags: CmbsvFlags): FitOptions {
  return {
    unclassified: flags.unclassified,
    knnK: flags.knnK,
    svmC: flags.svmC,
    svmScaling: flags.svmScaling,
    svmBias: flags.svmBias,
    svmBalance: flags.svmBalance === false ? false : undefined,
    labelCoding: flags.labelCoding,
    correlationCentring: flags.centring === false ? false : undefined,
    orderedCategories: flags.ordered,
  };
}
