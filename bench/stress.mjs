/**
 * Stress cases (issue 18), each in its own process with a time limit: time, peak memory and what
 * broke. Run `npm run build && node bench/stress.mjs [case ...]`; GROVE_STRESS_LIMIT_S caps each
 * case (default 300 s). Cases: chain (a sorted feature with alternating labels grows a chain; fit,
 * predict, exports, save/load through the API and the CLI), deep-model (a 100,000-deep chain model
 * file through the CLI), ids (200,000 distinct categories), classes (5,000 classes × 5,000 rows),
 * wide (100,000 columns × 3 rows), tiny (1 row, 1 feature, identical rows, one label).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist/cli/main.js');
const lib = await import(join(root, 'dist/node.js'));
const LIMIT_S = Number(process.env.GROVE_STRESS_LIMIT_S ?? 300);

/** Run the CLI; throw with its stderr unless it exits 0. */
function grove(args) {
  const r = spawnSync(process.execPath, ['--stack-size=984', cli, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`grove ${args[0]} exit ${r.status}: ${r.stderr.trim().split('\n')[0]}`);
  return r.stdout;
}

function csv(dir, name, header, rows) {
  const file = join(dir, name);
  writeFileSync(file, `${header.join(',')}\n${rows.map((r) => r.join(',')).join('\n')}\n`);
  return file;
}

/** Time each step; a failure is reported and the next step runs (a step after a failed one may fail with it). */
async function steps(list) {
  const out = [];
  for (const [name, fn] of list) {
    const t0 = performance.now();
    try {
      const note = await fn();
      out.push(`${name} ${((performance.now() - t0) / 1000).toFixed(2)} s${note ? ` (${note})` : ''}`);
    } catch (e) {
      out.push(
        `${name} FAILED after ${((performance.now() - t0) / 1000).toFixed(2)} s: ${e?.constructor?.name}: ${String(e?.message).split('\n')[0].slice(0, 160)}`,
      );
    }
  }
  return out;
}

const CASES = {
  async chain(dir, n = Number(process.env.GROVE_STRESS_CHAIN_ROWS ?? 12_000)) {
    const rows = Array.from({ length: n }, (_, i) => [i, i % 2 ? 'b' : 'a']);
    const file = csv(dir, 'chain.csv', ['x', 'y'], rows);
    const data = await lib.readDataset(file);
    let tree;
    return steps([
      [
        'api fit (prune none)',
        () => {
          tree = lib.fit(data, { prune: 'none', threads: 1 });
          return `height ${tree.stats().height}, ${tree.stats().leaves} leaves`;
        },
      ],
      ['api predict', () => void tree.predict(data)],
      ['api text', () => `${lib.treeToText(tree).length} chars`],
      ['api rules', () => `${lib.treeToRules(tree).length} rules`],
      ['api dot', () => void lib.treeToDot(tree)],
      [
        'api save/load',
        () => {
          lib.saveModel(tree, join(dir, 'api.json'));
          lib.loadModel(join(dir, 'api.json'));
        },
      ],
      ['api fit (default preset, pruned)', () => `height ${lib.fit(data, { threads: 1 }).stats().height}`],
      ['cli fit (prune none)', () => void grove(['fit', file, '--prune', 'none', '--out', join(dir, 'm.json')])],
      ['cli predict', () => void grove(['predict', file, '--model', join(dir, 'm.json')])],
      ...['text', 'rules', 'dot', 'json', 'stats'].map((f) => [
        `cli show --format ${f}`,
        () => void grove(['show', join(dir, 'm.json'), '--format', f, '--out', join(dir, `m.${f}`)]),
      ]),
      ['cli fit (default)', () => void grove(['fit', file, '--out', join(dir, 'd.json')])],
    ]);
  },
  'deep-model'(dir, depth = 100_000) {
    const small = lib
      .fit(
        lib.datasetFromRows([
          { x: 1, y: 'no' },
          { x: 2, y: 'yes' },
        ]),
        { algorithm: 'cart', prune: 'none' },
      )
      .toJSON();
    const nodes = [];
    for (let d = 0; d < depth; d++) {
      nodes.push({
        counts: [depth - d, 1],
        n: depth - d + 1,
        depth: d,
        split: { kind: 'numeric', feature: 0, thresholds: [d] },
        children: [2 * d + 1, 2 * d + 2],
      });
      nodes.push({ counts: [1, 0], n: 1, depth: d + 1 });
    }
    nodes.push({ counts: [0, 1], n: 1, depth });
    const model = join(dir, 'deep.json');
    // A target column too: `grove predict` refuses a file of one column (see docs/limits.md).
    const data = csv(
      dir,
      'rows.csv',
      ['x', 'y'],
      [
        [0, 'no'],
        [depth / 2, 'no'],
        [depth + 1, 'yes'],
      ],
    );
    return steps([
      ['write model', () => writeFileSync(model, JSON.stringify({ ...small, nodes }))],
      ['cli predict', () => grove(['predict', data, '--model', model]).trim().split('\n').slice(1).join(' ')],
      ...['dot', 'json', 'stats', 'rules'].map((f) => [
        `cli show --format ${f}`,
        () => void grove(['show', model, '--format', f, '--out', join(dir, `shown.${f}`)]),
      ]),
    ]);
  },
  async ids(dir, n = 200_000) {
    const rows = Array.from({ length: n }, (_, i) => [`id${i}`, (i * 7919) % 3 ? 'a' : 'b']);
    const file = csv(dir, 'ids.csv', ['id', 'y'], rows);
    const data = await lib.readDataset(file);
    let multi;
    let binary;
    return steps([
      [
        'fit multiway',
        () => {
          multi = lib.fit(data, { algorithm: 'c45', prune: 'none', threads: 1 });
          return `${multi.stats().leaves} leaves`;
        },
      ],
      ['predict multiway', () => void multi.predict(data)],
      [
        'fit binary (cart, prune none)',
        () => {
          binary = lib.fit(data, { algorithm: 'cart', prune: 'none', threads: 1 });
          return `${binary.stats().leaves} leaves`;
        },
      ],
      ['predict binary', () => void binary.predict(data)],
    ]);
  },
  classes(_dir, k = 5_000) {
    const rows = Array.from({ length: k }, (_, i) => [i, (i * 31) % 97, `c${i}`]);
    const data = lib.datasetFromRows(rows, { columns: ['x1', 'x2', 'y'] });
    return steps([
      ['fit unpruned', () => `height ${lib.fit(data, { prune: 'none', threads: 1 }).stats().height}`],
      ['fit default preset', () => `height ${lib.fit(data, { threads: 1 }).stats().height}`],
    ]);
  },
  async wide(dir, columns = 100_000) {
    const header = [...Array.from({ length: columns }, (_, j) => `f${j}`), 'y'];
    const rows = [0, 1, 2].map((i) => [
      ...Array.from({ length: columns }, (_, j) => (i * 13 + j) % 5),
      i === 1 ? 'b' : 'a',
    ]);
    const file = csv(dir, 'wide.csv', header, rows);
    let tree;
    return steps([
      [
        'api read+fit',
        async () => {
          tree = lib.fit(await lib.readDataset(file), { threads: 1 });
          return `${tree.stats().leaves} leaves`;
        },
      ],
      ['api predict', async () => void tree.predict(await lib.readDataset(file))],
      ['cli fit', () => void grove(['fit', file, '--out', join(dir, 'w.json')])],
      ['cli predict', () => void grove(['predict', file, '--model', join(dir, 'w.json')])],
      ['cli score', () => void grove(['score', file])],
    ]);
  },
  tiny(dir) {
    const sets = {
      'one row': [[1, 'a']],
      'one feature': [
        [1, 'a'],
        [2, 'b'],
        [3, 'a'],
      ],
      'identical rows': Array.from({ length: 50 }, () => [1, 'x', 'a']),
      'identical rows, two labels': Array.from({ length: 50 }, (_, i) => [1, 'x', i % 2 ? 'a' : 'b']),
      'one label': Array.from({ length: 50 }, (_, i) => [i, 'a']),
    };
    return Object.entries(sets).flatMap(([name, rows]) =>
      steps([
        [
          name,
          () => {
            const file = csv(dir, 'tiny.csv', [...rows[0].slice(0, -1).map((_, j) => `f${j}`), 'y'], rows);
            grove(['fit', file, '--out', join(dir, 't.json')]);
            grove(['predict', file, '--model', join(dir, 't.json')]);
            grove(['show', join(dir, 't.json'), '--format', 'rules']);
            return `${lib.loadModel(join(dir, 't.json')).stats().leaves} leaves`;
          },
        ],
      ]),
    );
  },
};

const [flag, only] = process.argv.slice(2);
if (flag === '--case') {
  const dir = mkdtempSync(join(tmpdir(), 'grove-stress-'));
  try {
    const lines = await CASES[only](dir);
    const mb = Math.round(process.resourceUsage().maxRSS / 1024);
    console.log(`${lines.map((l) => `  ${l}`).join('\n')}\n  peak memory ${mb} MB`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
} else {
  for (const name of process.argv.length > 2 ? process.argv.slice(2) : Object.keys(CASES)) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--case', name], {
      encoding: 'utf8',
      timeout: LIMIT_S * 1000,
      maxBuffer: 1 << 26,
    });
    const s = ((performance.now() - t0) / 1000).toFixed(1);
    console.log(
      `${name}: ${r.error?.code === 'ETIMEDOUT' ? `TIMED OUT after ${LIMIT_S} s` : r.status === 0 ? `${s} s` : `exit ${r.status} after ${s} s`}`,
    );
    process.stdout.write(r.stdout);
    if (r.status !== 0)
      console.log(
        r.stderr
          .trim()
          .split('\n')
          .slice(0, 3)
          .map((l) => `  ${l.slice(0, 200)}`)
          .join('\n'),
      );
  }
}
