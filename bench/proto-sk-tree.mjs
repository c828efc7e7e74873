#!/usr/bin/env node
/**
 * A standalone prototype of scikit-learn's BestSplitter layout for a bootstrap-weighted random
 * forest tree on numeric features, to see how near a JavaScript grower with that layout gets to
 * scikit-learn's CPU time: one `samples` array per tree, a node is a range [start, end) of it; per
 * node and drawn feature the node's values are gathered into a scratch array, sorted together with
 * the samples, scanned for the best Gini split, and the samples are partitioned in place by the
 * best threshold. Depth-first with an explicit stack. It builds no grove model: it counts nodes.
 *
 *   npx tsc -p tsconfig.json
 *   node bench/proto-sk-tree.mjs [--data ../shared/datasets] [--sets spambase,letter-recognition]
 *        [--trees 100] [--rounds 3] [--sort intro3i,intro3,intro,intro3i+count] [--sklearn]
 *
 * Prints CPU per tree (this thread; the read excluded) and the forest's node count; with
 * --sklearn also scikit-learn's CPU per tree for the same set (n_jobs=1, same run).
 */
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// grove's seeded generator, so the prototype's bootstrap draws are the library's.
const { mulberry32 } = await import(pathToFileURL(join(ROOT, 'dist', 'core', 'random.js')).href);

// ---------------------------------------------------------------- sorts (values and samples together)

/** Insertion sort of xs[lo, hi) with ids alongside. */
function insertion(xs, ids, lo, hi) {
  for (let i = lo + 1; i < hi; i++) {
    const x = xs[i];
    const id = ids[i];
    let j = i - 1;
    while (j >= lo && xs[j] > x) {
      xs[j + 1] = xs[j];
      ids[j + 1] = ids[j];
      j--;
    }
    xs[j + 1] = x;
    ids[j + 1] = id;
  }
}

function median3(xs, lo, hi) {
  const a = xs[lo];
  const b = xs[(lo + hi) >>> 1];
  const c = xs[hi - 1];
  if (a < b) {
    if (b < c) return b;
    return a < c ? c : a;
  }
  if (a < c) return a;
  return b < c ? c : b;
}

const lohi = new Int32Array(256);
/** Introsort with 3-way partitioning (as scikit-learn's), insertion sort under `small`; explicit stack. */
function introsort3(xs, ids, lo0, hi0, small) {
  let sp = 0;
  lohi[sp++] = lo0;
  lohi[sp++] = hi0;
  while (sp > 0) {
    let hi = lohi[--sp];
    let lo = lohi[--sp];
    while (hi - lo > small) {
      const pivot = median3(xs, lo, hi);
      let i = lo;
      let l = lo;
      let r = hi;
      while (i < r) {
        const x = xs[i];
        if (x < pivot) {
          const id = ids[i];
          xs[i] = xs[l];
          ids[i] = ids[l];
          xs[l] = x;
          ids[l] = id;
          i++;
          l++;
        } else if (x > pivot) {
          r--;
          const id = ids[i];
          xs[i] = xs[r];
          ids[i] = ids[r];
          xs[r] = x;
          ids[r] = id;
        } else i++;
      }
      // [lo, l) < pivot, [l, r) == pivot, [r, hi) > pivot: recurse on the smaller part.
      if (l - lo < hi - r) {
        lohi[sp++] = r;
        lohi[sp++] = hi;
        hi = l;
      } else {
        lohi[sp++] = lo;
        lohi[sp++] = l;
        lo = r;
      }
    }
    if (hi - lo > 1) insertion(xs, ids, lo, hi);
  }
}

/** Quicksort with Hoare partition (2-way), median of 3, insertion sort under `small`. */
function introsort2(xs, ids, lo0, hi0, small) {
  let sp = 0;
  lohi[sp++] = lo0;
  lohi[sp++] = hi0;
  while (sp > 0) {
    let hi = lohi[--sp];
    let lo = lohi[--sp];
    while (hi - lo > small) {
      const pivot = median3(xs, lo, hi);
      let i = lo - 1;
      let j = hi;
      for (;;) {
        do i++;
        while (xs[i] < pivot);
        do j--;
        while (xs[j] > pivot);
        if (i >= j) break;
        const x = xs[i];
        xs[i] = xs[j];
        xs[j] = x;
        const id = ids[i];
        ids[i] = ids[j];
        ids[j] = id;
      }
      // [lo, j] ≤ pivot, [j + 1, hi) ≥ pivot
      const mid = j + 1;
      if (mid - lo < hi - mid) {
        lohi[sp++] = mid;
        lohi[sp++] = hi;
        hi = mid;
      } else {
        lohi[sp++] = lo;
        lohi[sp++] = mid;
        lo = mid;
      }
    }
    if (hi - lo > 1) insertion(xs, ids, lo, hi);
  }
}

// ---------------------------------------------------------------- the grower

class Proto {
  constructor(cols, y, k, mtry, sortKind) {
    this.cols = cols;
    this.y = y;
    this.k = k;
    this.d = cols.length;
    this.mtry = mtry;
    this.sortKind = sortKind.replace('+count', '');
    this.counting = sortKind.endsWith('+count');
    const n = y.length;
    this.samples = new Int32Array(n);
    this.xf = new Float64Array(n);
    this.order = new Int32Array(this.d);
    this.cl = new Float64Array(k);
    this.cr = new Float64Array(k);
    // per-node storage (grows)
    this.cap = 1024;
    this.feature = new Int32Array(this.cap);
    this.threshold = new Float64Array(this.cap);
    this.left = new Int32Array(this.cap);
    this.value = new Float64Array(this.cap * k);
    // stack: start, end, depth, node id; totals alongside
    this.stackI = new Int32Array(4 * 256);
    this.stackT = new Float64Array(k * 256);
  }

  grow(w, seed) {
    const { cols, y, k, d, mtry, samples, xf, order, cl, cr } = this;
    const random = mulberry32(seed);
    let m = 0;
    for (let r = 0; r < w.length; r++) if (w[r] > 0) samples[m++] = r;
    let size = 1;
    let sp = 0;
    const rootT = this.stackT;
    rootT.fill(0, 0, k);
    for (let i = 0; i < m; i++) rootT[y[samples[i]]] += w[samples[i]];
    this.stackI[0] = 0;
    this.stackI[1] = m;
    this.stackI[2] = 0;
    this.stackI[3] = 0;
    sp = 1;
    const totals = new Float64Array(k);
    const bestL = new Float64Array(k);
    while (sp > 0) {
      sp--;
      const start = this.stackI[4 * sp];
      const end = this.stackI[4 * sp + 1];
      const depth = this.stackI[4 * sp + 2];
      const id = this.stackI[4 * sp + 3];
      let total = 0;
      let maxc = 0;
      for (let c = 0; c < k; c++) {
        const t = this.stackT[sp * k + c];
        totals[c] = t;
        this.value[id * k + c] = t;
        total += t;
        if (t > maxc) maxc = t;
      }
      this.feature[id] = -1;
      this.left[id] = -1;
      if (end - start < 2 || maxc >= total) continue;
      let sqTotal = 0;
      for (let c = 0; c < k; c++) sqTotal += totals[c] * totals[c];
      // draw features
      for (let i = 0; i < d; i++) order[i] = i;
      let best = -Infinity;
      let bestF = -1;
      let bestT = 0;
      let found = 0;
      let lastF = -1;
      for (let i = 0; i < d; i++) {
        const j = i + Math.floor(random() * (d - i));
        const f = order[j];
        order[j] = order[i];
        order[i] = f;
        const col = cols[f];
        let lo = Infinity;
        let hi = -Infinity;
        let ints = true;
        for (let p = start; p < end; p++) {
          const x = col[samples[p]];
          xf[p] = x;
          if (x < lo) lo = x;
          if (x > hi) hi = x;
          if (ints && (x | 0) !== x) ints = false;
        }
        if (this.counting && ints && end - start > 32 && hi - lo < 2 * (end - start) && hi - lo < 65536)
          this.countSort(xf, samples, start, end, lo, hi);
        else this.sort(xf, samples, start, end);
        lastF = f;
        if (xf[end - 1] > xf[start]) {
          found++;
          // scan
          for (let c = 0; c < k; c++) {
            cl[c] = 0;
            cr[c] = totals[c];
          }
          let sqL = 0;
          let sqR = sqTotal;
          let nL = 0;
          let nR = total;
          for (let p = start; p < end - 1; p++) {
            const s = samples[p];
            const c = y[s];
            const wt = w[s];
            const l = cl[c];
            const r = cr[c];
            sqL += wt * (2 * l + wt);
            sqR += wt * (wt - 2 * r);
            cl[c] = l + wt;
            cr[c] = r - wt;
            nL += wt;
            nR -= wt;
            const x0 = xf[p];
            const x1 = xf[p + 1];
            if (x1 === x0) continue;
            const proxy = sqL / nL + sqR / nR;
            if (proxy > best) {
              best = proxy;
              bestF = f;
              bestT = x0 / 2 + x1 / 2;
              if (!(bestT < x1) || bestT < x0) bestT = x0;
            }
          }
        }
        if (i + 1 >= mtry && found > 0) break;
      }
      if (bestF < 0) continue;
      // partition samples by the best threshold
      const col = cols[bestF];
      let p = start;
      let e = end;
      for (let c = 0; c < k; c++) bestL[c] = 0;
      while (p < e) {
        const s = samples[p];
        if (col[s] <= bestT) {
          bestL[y[s]] += w[s];
          p++;
        } else {
          e--;
          samples[p] = samples[e];
          samples[e] = s;
        }
      }
      if (size + 2 > this.cap) this.growCap();
      const lid = size;
      size += 2;
      this.feature[id] = bestF;
      this.threshold[id] = bestT;
      this.left[id] = lid;
      if (sp + 2 >= this.stackI.length / 4) this.growStack();
      // push right then left (left first out)
      const st = this.stackT;
      this.stackI[4 * sp] = p;
      this.stackI[4 * sp + 1] = end;
      this.stackI[4 * sp + 2] = depth + 1;
      this.stackI[4 * sp + 3] = lid + 1;
      for (let c = 0; c < k; c++) st[sp * k + c] = totals[c] - bestL[c];
      sp++;
      this.stackI[4 * sp] = start;
      this.stackI[4 * sp + 1] = p;
      this.stackI[4 * sp + 2] = depth + 1;
      this.stackI[4 * sp + 3] = lid;
      for (let c = 0; c < k; c++) st[sp * k + c] = bestL[c];
      sp++;
      void lastF;
    }
    return size;
  }

  sort(xf, samples, start, end) {
    switch (this.sortKind) {
      case 'intro3':
        introsort3(xf, samples, start, end, 1);
        break;
      case 'intro3i':
        introsort3(xf, samples, start, end, 16);
        break;
      case 'intro':
        introsort2(xf, samples, start, end, 16);
        break;
      default:
        throw new Error(this.sortKind);
    }
  }

  countSort(xf, samples, start, end, lo, hi) {
    const range = hi - lo + 1;
    if (this.cnt === undefined || this.cnt.length < range + 1) this.cnt = new Int32Array(Math.max(range + 1, 1024));
    if (this.tmp === undefined) this.tmp = new Int32Array(this.samples.length);
    const cnt = this.cnt;
    const tmp = this.tmp;
    cnt.fill(0, 0, range + 1);
    for (let p = start; p < end; p++) cnt[xf[p] - lo + 1]++;
    for (let v = 1; v <= range; v++) cnt[v] += cnt[v - 1];
    for (let p = start; p < end; p++) tmp[cnt[xf[p] - lo]++] = samples[p];
    let p = start;
    for (let v = 0; v < range; v++) {
      const to = start + cnt[v];
      const x = lo + v;
      for (; p < to; p++) xf[p] = x;
    }
    for (let q = 0; q < end - start; q++) samples[start + q] = tmp[q];
  }

  growCap() {
    const cap = this.cap * 2;
    const g = (a, n) => {
      const b = new a.constructor(n);
      b.set(a);
      return b;
    };
    this.feature = g(this.feature, cap);
    this.threshold = g(this.threshold, cap);
    this.left = g(this.left, cap);
    this.value = g(this.value, cap * this.k);
    this.cap = cap;
  }

  growStack() {
    const g = (a, n) => {
      const b = new a.constructor(n);
      b.set(a);
      return b;
    };
    this.stackI = g(this.stackI, this.stackI.length * 2);
    this.stackT = g(this.stackT, this.stackT.length * 2);
  }
}

async function main() {
  const { values: opt } = parseArgs({
    options: {
      data: { type: 'string', default: resolve(ROOT, '../shared/datasets') },
      sets: { type: 'string', default: 'spambase,letter-recognition' },
      trees: { type: 'string', default: '100' },
      rounds: { type: 'string', default: '3' },
      sort: { type: 'string', default: 'intro3i' },
      sklearn: { type: 'boolean', default: false },
    },
  });
  const grove = await import(pathToFileURL(join(ROOT, 'dist', 'node.js')).href);
  const trees = Number(opt.trees);
  for (const set of opt.sets.split(',')) {
    const file = join(opt.data, `${set}.csv`);
    const data = await grove.readDataset(file);
    const cols = data.features.map((c) => Float64Array.from(c.values));
    const y = Int32Array.from(data.labels);
    const k = data.classes.length;
    const n = y.length;
    const mtry = Math.max(1, Math.floor(Math.sqrt(cols.length)));
    for (const sortKind of opt.sort.split(',')) {
      const proto = new Proto(cols, y, k, mtry, sortKind);
      const w = new Float64Array(n);
      for (let round = 0; round < Number(opt.rounds); round++) {
        const c0 = process.cpuUsage();
        let nodes = 0;
        for (let t = 0; t < trees; t++) {
          const random = mulberry32(1000 * round + t + 1);
          w.fill(0);
          for (let s = 0; s < n; s++) w[Math.floor(random() * n)]++;
          nodes += proto.grow(w, 7 * t + round);
        }
        const c = process.cpuUsage(c0);
        const cpu = (c.user + c.system) / 1e6;
        console.log(
          `${set} ${sortKind} round ${round + 1}: ${((1000 * cpu) / trees).toFixed(2)} ms CPU per tree, ${nodes} nodes`,
        );
      }
    }
    if (opt.sklearn) {
      const r = spawnSync(
        '/usr/bin/python3',
        [join(ROOT, 'bench', 'forest_fit.py'), file, '--trees', String(trees), '--jobs', '1', '--repeats', opt.rounds],
        { encoding: 'utf8' },
      );
      if (r.status !== 0) console.log(`scikit-learn failed: ${r.stderr.split('\n').slice(-2).join(' ')}`);
      else {
        const out = JSON.parse(r.stdout.trim().split('\n').pop());
        console.log(
          `${set} scikit-learn (n_jobs=1): ${out.fitCpuSeconds.map((s) => ((1000 * s) / trees).toFixed(2)).join(', ')} ms CPU per tree, ${out.nodes} nodes`,
        );
      }
    }
  }
}

main();
