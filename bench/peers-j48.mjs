#!/usr/bin/env node
// grove's `c45` preset next to Weka's J48 on the nominal-class ARFF files Weka ships: number of
// leaves and tree size (nodes), pruned (J48 -C 0.25 -M 2) and unpruned (-U), on the full data.
// Usage: npm run build && node bench/peers-j48.mjs [--examples DIR] [--weka JAR] [--markdown] [--only a,b]
// Needs java and Weka 3.6 (Debian: apt-get install -y weka). GROVE_DIST picks another build of grove.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    examples: { type: 'string', default: '/usr/share/doc/weka/examples' },
    weka: { type: 'string', default: '/usr/share/java/weka.jar' },
    markdown: { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});
const dist = resolve(process.env.GROVE_DIST ?? new URL('../dist', import.meta.url).pathname);
const { fit, treeToText } = await import(join(dist, 'index.js'));
const { readDataset } = await import(join(dist, 'node.js'));

if (!existsSync(args.weka)) {
  console.error(`no Weka at ${args.weka} (Debian: apt-get install -y weka)`);
  process.exit(2);
}

/** The ARFF files whose last attribute (the class) is nominal. */
function nominalClassFiles(dir) {
  const only = args.only ? new Set(args.only.split(',')) : null;
  return readdirSync(dir)
    .filter((f) => f.endsWith('.arff'))
    .filter((f) => !only || only.has(f.replace(/\.arff$/, '')))
    .sort()
    .filter((f) => nominalClass(readFileSync(join(dir, f), 'utf8')));
}

/**
 * Whether J48 takes the ARFF file: its last @attribute (the class) is nominal, `{...}`, and no
 * attribute is a string (the Reuters files: J48 cannot handle string attributes).
 */
function nominalClass(text) {
  const attrs = text
    .split('\n')
    .filter((line) => /^\s*@attribute\s/i.test(line))
    .map((line) => line.replace(/%.*$/, '')); // a trailing comment (supermarket's class)
  if (attrs.some((a) => /\sstring\s*$/i.test(a.trim()))) return false;
  return attrs.length > 0 && /\{[^}]*\}\s*$/.test(attrs[attrs.length - 1].trim());
}

function j48(file, unpruned) {
  const flags = unpruned ? ['-U', '-M', '2'] : ['-C', '0.25', '-M', '2'];
  const out = execFileSync('java', ['-cp', args.weka, 'weka.classifiers.trees.J48', '-t', file, ...flags, '-no-cv'], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  const leaves = Number(/Number of Leaves\s*:\s*(\d+)/.exec(out)?.[1]);
  const size = Number(/Size of the tree\s*:\s*(\d+)/.exec(out)?.[1]);
  const correct = Number(/Error on training data[\s\S]*?Correctly Classified Instances\s+([\d.]+)/.exec(out)?.[1]);
  const body = out.split(/J48 (?:un)?pruned tree\n-+\n\n?/)[1]?.split('\n\nNumber of Leaves')[0] ?? '';
  return { leaves, size, correct, text: printedLines(body) };
}

/**
 * The printed tree's lines, J48's and grove's (`treeToText`, J48's layout) made comparable: numbers
 * outside the parentheses (thresholds) to 6 significant digits, the leaf weights (in parentheses)
 * kept as numbers and compared within 0.006 (J48 prints 2 decimals).
 */
function printedLines(text) {
  return text
    .split('\n')
    .filter((line) => line.trim() && !/^(Number of leaves|Size of the tree|Height):/.test(line))
    .map((line) => {
      const m = /^(.*?)(?: \(([\d.]+)(?:\/([\d.]+))?\))?$/.exec(line);
      const head = m[1].replace(/-?\d+(\.\d+)?(e-?\d+)?/g, (x) => String(Number(Number(x).toPrecision(6))));
      return { head, weights: [m[2], m[3]].filter((w) => w !== undefined).map(Number) };
    });
}

/** Lines of two printed trees that differ (text, or a weight by more than 0.006). */
function differingLines(a, b) {
  let n = Math.abs(a.length - b.length);
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const same =
      a[i].head === b[i].head &&
      a[i].weights.length === b[i].weights.length &&
      a[i].weights.every((w, j) => Math.abs(w - b[i].weights[j]) <= 0.006);
    if (!same) n++;
  }
  return n;
}

async function grove(file, unpruned) {
  const data = await readDataset(file);
  const model = fit(data, unpruned ? { algorithm: 'c45', prune: 'none' } : { algorithm: 'c45' });
  const s = model.stats();
  // Rows of a missing class are left out, as J48 leaves them out (the codes of missing labels are < 0).
  const predicted = model.predictCodes(data);
  let correct = 0;
  for (let i = 0; i < data.nRows; i++) if (predicted[i] === data.labels[i]) correct++;
  return { leaves: s.leaves, size: s.nodes, correct, rows: data.nRows, text: printedLines(treeToText(model)) };
}

const rows = [];
for (const f of nominalClassFiles(args.examples)) {
  const file = join(args.examples, f);
  const row = { name: f.replace(/\.arff$/, '') };
  for (const [key, unpruned] of [
    ['pruned', false],
    ['unpruned', true],
  ]) {
    const w = j48(file, unpruned);
    let g;
    try {
      g = await grove(file, unpruned);
    } catch (e) {
      g = { leaves: NaN, size: NaN, error: e.message };
    }
    row.rows = g.rows;
    row[key] = {
      w,
      g,
      same: w.leaves === g.leaves && w.size === g.size,
      sameFit: w.correct === g.correct,
      lines: differingLines(w.text, g.text),
    };
  }
  rows.push(row);
  if (!args.markdown) {
    const cell = (r) =>
      `J48 ${r.w.leaves}/${r.w.size} grove ${r.g.leaves}/${r.g.size} ${r.same ? 'same' : 'DIFF'}` +
      ` (training rows right: ${r.w.correct}/${r.g.correct}${r.sameFit ? '' : ' DIFF'}; printed lines differing: ${r.lines})`;
    console.log(`${row.name.padEnd(20)} pruned: ${cell(row.pruned)}   unpruned: ${cell(row.unpruned)}`);
  }
}

const same = rows.filter((r) => r.pruned.same).length;
const sameU = rows.filter((r) => r.unpruned.same).length;
const fits = rows.filter((r) => r.pruned.sameFit && r.unpruned.sameFit).length;
if (args.markdown) {
  console.log(
    '| data set | rows | J48 leaves / size | grove c45 leaves / size | J48 -U leaves / size | grove unpruned leaves / size |' +
      ' training rows classified right, J48 / grove: pruned; unpruned | printed tree lines differing: pruned; unpruned |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  const mark = (r) => (r.same ? '' : ' ≠');
  for (const r of rows) {
    const p = r.pruned;
    const u = r.unpruned;
    console.log(
      `| ${r.name} | ${r.rows} | ${p.w.leaves} / ${p.w.size} | ${p.g.leaves} / ${p.g.size}${mark(p)} |` +
        ` ${u.w.leaves} / ${u.w.size} | ${u.g.leaves} / ${u.g.size}${mark(u)} |` +
        ` ${p.w.correct} / ${p.g.correct}; ${u.w.correct} / ${u.g.correct} | ${p.lines}; ${u.lines} |`,
    );
  }
}
console.log(`\nidentical leaves and size: pruned ${same} of ${rows.length}, unpruned ${sameU} of ${rows.length}`);
console.log(`same number of training rows classified right, pruned and unpruned: ${fits} of ${rows.length}`);
const printedSame = rows.filter((r) => r.pruned.lines === 0 && r.unpruned.lines === 0).length;
console.log(`printed trees the same line for line, pruned and unpruned: ${printedSame} of ${rows.length}`);
