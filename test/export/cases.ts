/**
 * The verification harness's cases: every corpus data set × the presets id3, c45, cart, zaki,
 * cmbsv (without k-NN) and a histogram and a float32 variant. Each model is fitted on a seeded
 * sample of rows and scored on another (the engines then run a few hundred rows each), so the
 * whole grid stays fast while every (data set, configuration) is exported and checked.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { encodeTable } from '../../src/data/encode.js';
import { subsetRows } from '../../src/data/subset.js';
import { portableTree } from '../../src/export/portable.js';
import { type Dataset, DecisionTree, type FitOptions, fit, GroveError } from '../../src/node.js';
import { parseCsvRows } from '../helpers/csv-rows.js';
import { dataDir, haveCorpus } from '../helpers/paths.js';
import { sampleRows, shuffled } from './rows.js';

export const CONFIGS: { name: string; options: FitOptions; float32?: boolean }[] = [
  { name: 'id3', options: { algorithm: 'id3' } },
  { name: 'c45', options: { algorithm: 'c45' } },
  { name: 'cart', options: { algorithm: 'cart' } },
  { name: 'zaki', options: { algorithm: 'zaki' } },
  { name: 'cmbsv', options: { algorithm: 'cmbsv' } },
  { name: 'histogram', options: { algorithm: 'cart', prune: 'none', bins: 32 } },
  { name: 'float32', options: { algorithm: 'cart', prune: 'none' }, float32: true },
];

const TRAIN_ROWS = 150;
const SCORE_ROWS = 80;

export interface Case {
  name: string;
  tree: DecisionTree;
  /**
   * The same model with the export's missing-value approximation made explicit (`missingBranch`
   * set where the fractional policy had none): what the exports must reproduce exactly.
   */
  exported: DecisionTree;
  /** Rows to score (held as float64, or float32 for the float32 variant). */
  rows: Dataset;
}

function asFloat32(data: Dataset): Dataset {
  return {
    ...data,
    features: data.features.map((c) => (c.kind === 'numeric' ? { ...c, values: Float32Array.from(c.values) } : c)),
  };
}

/** The model with the fractional policy replaced by the export's approximation (portable.ts). */
export function asExported(tree: DecisionTree): DecisionTree {
  const p = portableTree(tree, 'test');
  if (!p.approximated) return tree;
  const json = tree.toJSON();
  json.nodes = json.nodes.map((n, i) => (n.children ? { ...n, missingBranch: p.missingBranch[i] } : n));
  json.options = { ...json.options, missing: 'majority' };
  return DecisionTree.fromJSON(JSON.parse(JSON.stringify(json)));
}

/**
 * A seeded sample of `count` lines of a CSV file, encoded as grove's reader encodes a file (only
 * the sampled lines are parsed: the big corpus files would take seconds each). The scored rows
 * are drawn from the same sample, so some were seen in training and some were not.
 */
function sampledDataset(path: string, count: number, seed: number): Dataset {
  const lines = readFileSync(path, 'utf8')
    .split(/\r?\n/)
    .filter((l) => l.length > 0);
  const picked = sampleRows(lines.length - 1, count, 1000 + seed);
  const text = [lines[0], ...Array.from(picked, (i) => lines[i + 1])].join('\n');
  const { header, rows } = parseCsvRows(text);
  // Shuffle deterministically so the first TRAIN_ROWS are not the file's first lines.
  const order = shuffled(rows.length, 3000 + seed);
  return encodeTable(
    header,
    Array.from(order, (i) => rows[i]),
    { source: path },
  );
}

/** Every case (empty when the corpus is absent). A fit the data refuses (GroveError) is left out. */
export function buildCases(): Case[] {
  if (!haveCorpus) return [];
  const cases: Case[] = [];
  const files = readdirSync(dataDir)
    .filter((f) => f.endsWith('.csv'))
    .sort();
  for (const file of files) {
    // Seeds from the name: a data set's rows do not depend on which others are present.
    let d = 0;
    for (const ch of file) d = (d * 31 + ch.charCodeAt(0)) % 100_000;
    const full = sampledDataset(`${dataDir}/${file}`, TRAIN_ROWS + SCORE_ROWS, d);
    const train = subsetRows(
      full,
      Int32Array.from({ length: Math.min(TRAIN_ROWS, full.nRows) }, (_, i) => i),
    );
    const rows = subsetRows(full, sampleRows(full.nRows, SCORE_ROWS, 2000 + d));
    for (const config of CONFIGS) {
      const data = config.float32 ? asFloat32(train) : train;
      let tree: DecisionTree;
      try {
        tree = fit(data, config.options);
      } catch (err) {
        if (err instanceof GroveError) continue;
        throw err;
      }
      cases.push({
        name: `${file.replace(/\.csv$/, '')} ${config.name}`,
        tree,
        exported: asExported(tree),
        rows: config.float32 ? asFloat32(rows) : rows,
      });
    }
  }
  return cases;
}
