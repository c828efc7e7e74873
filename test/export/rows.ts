/**
 * Rows for the export tests: the model's feature columns as plain values (numbers with null for
 * missing, strings with null for missing), built from a Dataset, plus grove's own predictions.
 */
import { nextFloat32Down, nextFloat32Up } from '../../src/export/onnx/float32.js';
import type { Dataset, DecisionTree } from '../../src/node.js';

/** One column per model feature: numbers (null = missing) or strings (null = missing). */
export interface PlainColumn {
  name: string;
  kind: 'number' | 'string';
  values: (number | string | null)[];
}

/** The model's features, taken by name from `data` (extra columns ignored). */
export function plainColumns(tree: DecisionTree, data: Dataset): PlainColumn[] {
  const byName = new Map(data.features.map((c) => [c.name, c]));
  return tree.features.map((f) => {
    const col = byName.get(f.name);
    if (!col) throw new Error(`no column ${f.name}`);
    const asString = f.kind === 'categorical' || f.levels !== undefined;
    const values: (number | string | null)[] = [];
    for (let i = 0; i < data.nRows; i++) {
      if (col.kind === 'numeric') {
        const v = col.values[i];
        values.push(Number.isNaN(v) ? null : asString ? String(v) : v);
      } else {
        const code = col.codes[i];
        values.push(code < 0 ? null : asString ? col.categories[code] : Number(col.categories[code]));
      }
    }
    return { name: f.name, kind: asString ? 'string' : 'number', values };
  });
}

/** grove's predictions: labels as text (`unclassified` for a C-MBSV region) and flat probabilities. */
export interface Scored {
  labels: string[];
  /** proba[i * classes + c]; NaN for an unclassified row (SQL gives NULL, ONNX zeros). */
  proba: Float64Array;
}

export function groveScores(tree: DecisionTree, data: Dataset): Scored {
  const labels = tree.predict(data).map((l) => (l === null ? 'unclassified' : String(l)));
  const proba = tree.predictProbaFlat(data);
  const k = tree.classes.length;
  labels.forEach((l, i) => {
    if (l === 'unclassified' && tree.nodes.some((n) => n.unclassified)) proba.fill(NaN, i * k, i * k + k);
  });
  return { labels, proba };
}

/** The first mismatch between two scorings (labels equal, probabilities within `tol`), or undefined. */
export function firstMismatch(expected: Scored, got: Scored, classes: number, tol = 1e-6): string | undefined {
  for (let i = 0; i < expected.labels.length; i++) {
    if (expected.labels[i] !== got.labels[i])
      return `row ${i}: label ${JSON.stringify(got.labels[i])}, grove ${JSON.stringify(expected.labels[i])}`;
    for (let c = 0; c < classes; c++) {
      const e = expected.proba[i * classes + c];
      const g = got.proba[i * classes + c];
      const same = Number.isNaN(e) ? Number.isNaN(g) : Math.abs(e - g) <= tol;
      if (!same) return `row ${i} class ${c}: probability ${g}, grove ${e}`;
    }
  }
  return undefined;
}

/** A seeded uniform generator in [0, 1) (xorshift32). */
function uniform(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/** 0..n-1 in a seeded random order. */
export function shuffled(n: number, seed: number): Int32Array {
  const next = uniform(seed);
  const out = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** A seeded choice of `count` distinct row indexes out of `n`, in increasing order. */
export function sampleRows(n: number, count: number, seed: number): Int32Array {
  if (count >= n) return Int32Array.from({ length: n }, (_, i) => i);
  const next = uniform(seed);
  const picked = new Set<number>();
  while (picked.size < count) picked.add(Math.floor(next() * n));
  return Int32Array.from([...picked].sort((a, b) => a - b));
}

/**
 * Rows of the training data, then per numeric threshold t copies of the rows `base` (row 0) with t
 * and with the float32 values either side of t's float32 (which stands for t itself).
 */
export function rowsAtThresholds(tree: DecisionTree, train: (number | null)[][], base = [0]): (number | null)[][] {
  const rows = train.map((r) => [...r]);
  for (const node of tree.nodes) {
    if (node.split?.kind !== 'numeric' || tree.features[node.split.feature].levels) continue;
    const f = node.split.feature;
    for (const t of node.split.thresholds) {
      const t32 = Math.fround(t);
      for (const x of [t, nextFloat32Down(t32), nextFloat32Up(t32)])
        for (const b of base) {
          const row = [...train[b]];
          row[f] = x;
          rows.push(row);
        }
    }
  }
  return rows;
}
