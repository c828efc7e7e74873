#!/usr/bin/env node
// grove against scikit-learn 1.2 itself (Debian python3-sklearn, run with /usr/bin/python3) on
// its growth limits: for each data set and case, the leaf count and training accuracy of
// DecisionTreeClassifier(**params, random_state=0) and of grove's fit with the same limits
// (max_leaf_nodes, max_depth, min_weight_fraction_leaf, min_impurity_decrease, min_samples_leaf;
// gini and entropy), no pruning. Numeric corpus sets only (scikit-learn takes no categorical columns).
//   npm run build && node bench/parity-sklearn.mjs [--data ../shared/datasets]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fit, readDataset } from '../dist/node.js';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const dataDir = resolve(
  args.includes('--data') ? args[args.indexOf('--data') + 1] : resolve(here, '../../shared/datasets'),
);
const PYTHON = '/usr/bin/python3';
if (!existsSync(PYTHON) || spawnSync(PYTHON, ['-c', 'import sklearn, pandas']).status !== 0) {
  console.log(
    'skipped: /usr/bin/python3 with scikit-learn and pandas is not installed (Debian python3-sklearn, python3-pandas)',
  );
  process.exit(0);
}
const SETS = ['iris', 'wine', 'pima-indians-diabetes', 'ionosphere', 'sonar', 'vehicle', 'segment', 'spambase'];
/** scikit-learn's parameters and grove's options for the same tree. */
const CASES = [
  ...['gini', 'entropy'].flatMap((criterion) =>
    [2, 4, 8, 16, 32].map((m) => [
      { criterion, max_leaf_nodes: m },
      { criterion, maxLeafNodes: m },
    ]),
  ),
  [
    { max_leaf_nodes: 6, max_depth: 2 },
    { maxLeafNodes: 6, maxDepth: 2 },
  ],
  [{ min_weight_fraction_leaf: 0.05 }, { minWeightFractionLeaf: 0.05 }],
  [
    { min_weight_fraction_leaf: 0.2, criterion: 'entropy' },
    { minWeightFractionLeaf: 0.2, criterion: 'entropy' },
  ],
  [{ min_impurity_decrease: 0.005 }, { minImpurityDecrease: 0.005 }],
  [
    { min_impurity_decrease: 0.01, criterion: 'entropy' },
    { minImpurityDecrease: 0.01, criterion: 'entropy' },
  ],
  [
    { min_samples_leaf: 10, max_leaf_nodes: 12 },
    { minSamplesLeaf: 10, maxLeafNodes: 12 },
  ],
];
console.log('| data set | scikit-learn | leaves grove / sklearn | training accuracy grove / sklearn |');
console.log('|---|---|---|---|');
let same = 0;
let total = 0;
for (const name of SETS) {
  const csv = resolve(dataDir, `${name}.csv`);
  if (!existsSync(csv)) {
    console.log(`| ${name} | skipped: ${csv} is absent | | |`);
    continue;
  }
  const cases = CASES.map(([sk]) => sk);
  const py = spawnSync(PYTHON, [resolve(here, 'parity_sklearn.py')], { input: JSON.stringify({ csv, cases }) });
  if (py.status !== 0) throw new Error(`scikit-learn failed on ${name}: ${py.stderr}`);
  const theirs = JSON.parse(py.stdout.toString());
  const data = await readDataset(csv, { target: 'class' });
  CASES.forEach(([sk, options], i) => {
    const tree = fit(data, { prune: 'none', ...options });
    const mine = { leaves: tree.stats().leaves, accuracy: tree.score(data) };
    const s = theirs[i];
    const match = mine.leaves === s.leaves && Math.abs(mine.accuracy - s.accuracy) < 1e-12;
    total++;
    if (match) same++;
    const params = Object.entries(sk)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ');
    console.log(
      `| ${name} | ${params} | ${mine.leaves} / ${s.leaves} | ${mine.accuracy.toFixed(4)} / ${s.accuracy.toFixed(4)}${match ? '' : ' ≠'} |`,
    );
  });
}
console.log(`\n${same} of ${total} cases: same leaf count and same training accuracy`);
