#!/usr/bin/env node
// grove against scikit-learn 1.2 itself (Debian python3-sklearn, run with /usr/bin/python3) on
// best-first growth: for each data set and max_leaf_nodes, the leaf count and training accuracy
// of DecisionTreeClassifier(max_leaf_nodes=m) and of grove's fit({ maxLeafNodes: m }), gini and
// entropy, no pruning. Numeric corpus sets only (scikit-learn takes no categorical columns).
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
const LEAVES = [2, 4, 8, 16, 32];
const CRITERIA = [
  ['gini', 'gini'],
  ['entropy', 'entropy'],
];
console.log('| data set | criterion | max leaves | leaves grove / sklearn | training accuracy grove / sklearn |');
console.log('|---|---|---|---|---|');
let same = 0;
let total = 0;
for (const name of SETS) {
  const csv = resolve(dataDir, `${name}.csv`);
  if (!existsSync(csv)) {
    console.log(`| ${name} | skipped: ${csv} is absent | | | |`);
    continue;
  }
  const cases = CRITERIA.flatMap(([, c]) => LEAVES.map((m) => ({ max_leaf_nodes: m, criterion: c })));
  const py = spawnSync(PYTHON, [resolve(here, 'parity_sklearn.py')], { input: JSON.stringify({ csv, cases }) });
  if (py.status !== 0) throw new Error(`scikit-learn failed on ${name}: ${py.stderr}`);
  const theirs = JSON.parse(py.stdout.toString());
  const data = readDataset(csv, { target: 'class' });
  cases.forEach((c, i) => {
    const tree = fit(data, { prune: 'none', criterion: c.criterion, maxLeafNodes: c.max_leaf_nodes });
    const mine = { leaves: tree.stats().leaves, accuracy: tree.score(data) };
    const s = theirs[i];
    const match = mine.leaves === s.leaves && Math.abs(mine.accuracy - s.accuracy) < 1e-12;
    total++;
    if (match) same++;
    console.log(
      `| ${name} | ${c.criterion} | ${c.max_leaf_nodes} | ${mine.leaves} / ${s.leaves} | ${mine.accuracy.toFixed(4)} / ${s.accuracy.toFixed(4)}${match ? '' : ' ≠'} |`,
    );
  });
}
console.log(`\n${same} of ${total} cases: same leaf count and same training accuracy`);
