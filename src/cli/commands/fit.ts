import type { Command } from 'commander';
import { readDataset } from '../../data/read.js';
import { fit } from '../../tree/fit.js';
import type { FitOptions } from '../../tree/options.js';
import { saveModel } from '../../io/model-file.js';
import { choiceOption, intOption, listOption, numberOption } from '../args.js';
import { warn } from '../output.js';

/** Options shared by every command that reads a training file and grows or scores splits. */
export function addTreeOptions(cmd: Command): Command {
  return cmd
    .option('--target <column>', 'class column (default: the last column)')
    .option('--categorical <columns>', 'treat these columns as categorical (comma-separated)', listOption)
    .option('--numeric <columns>', 'these columns must be numeric (comma-separated)', listOption)
    .option('--algorithm <name>', 'preset: id3, c45, cart, zaki (default cart)')
    .option('--criterion <name>', 'split measure (see `grove criteria`)')
    .option('--categorical-split <style>', 'multiway or binary', choiceOption('--categorical-split', ['multiway', 'binary'] as const))
    .option('--max-depth <n>', 'largest depth of a leaf', intOption('--max-depth', 0))
    .option('--min-split <n>', 'a node needs at least n rows to be split (Zaki: η + 1)', intOption('--min-split', 2))
    .option('--min-leaf <n>', 'each child gets at least n rows', intOption('--min-leaf', 1))
    .option('--purity <p>', "stop at nodes whose majority share is ≥ p (Zaki's π)", numberOption('--purity'))
    .option('--min-gain <g>', 'smallest improvement worth a split', numberOption('--min-gain'))
    .option('--max-subset <l>', "largest |V| tried for binary categorical splits (Zaki's l)", intOption('--max-subset', 1));
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
  };
}

export function registerFit(program: Command): void {
  addTreeOptions(program.command('fit').description('grow a tree on DATA (CSV or ARFF) and save it as JSON').argument('<data>', 'training data'))
    .requiredOption('--out <model>', 'where to write the model (JSON)')
    .action((dataPath: string, flags: TreeFlags & { out: string }) => {
      const options = fitOptionsFrom(flags);
      const data = readDataset(dataPath, { target: flags.target, categorical: flags.categorical, numeric: flags.numeric });
      const tree = fit(data, options);
      if (data.classes.length < 2) {
        warn(`only one class (${String(data.classes[0])}) in '${data.targetName}': the tree is a single leaf`);
      }
      saveModel(tree, flags.out);
      const s = tree.stats();
      process.stderr.write(
        `grove: ${tree.options.algorithm} tree (${tree.options.criterion}) on ${data.nRows} rows: ` +
          `${s.nodes} nodes, ${s.leaves} leaves, height ${s.height} → ${flags.out}\n`,
      );
    });
}
