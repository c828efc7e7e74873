import { GroveError } from '../core/errors.js';
import { DecisionTree, TRUSTED_MODEL } from '../model/decision-tree.js';
import type { KnnRegion, TreeNode } from '../model/node.js';
import { MODEL_FORMAT, MODEL_VERSION, type SavedOptions, validateModel } from '../model/schema.js';
import type { Split } from '../model/split.js';
import { treeSeed } from './draws.js';
import { Forest } from './forest.js';
import type { ForestSettings } from './settings.js';

/**
 * The forest model file: a small JSON header and the nodes of every tree in typed-array sections
 * (a forest of unpruned trees has millions of nodes; one JSON object per node would be most of
 * the file and of the time to read it).
 *
 *   bytes 0–7   "GROVEFRS"
 *   bytes 8–11  header length H (uint32, little-endian)
 *   bytes 12–15 FNV-1a checksum (uint32) of every byte from 16 to the end
 *   bytes 16–   the header, UTF-8 JSON, padded with spaces to a multiple of 8
 *   then        the sections the header lists, in order, each starting at a multiple of 8
 *
 * Sections (N nodes over all trees, k classes, little-endian): `treeStart` int32[trees + 1],
 * `n`, `feature` (-1: leaf), `firstChild`, `branches`, `missingBranch` (-1: none, the fractional
 * policy) int32[N]; `kind` uint8[N] (0 leaf, 1 numeric, 2 multiway, 3 subset; +4 an unclassified
 * region); `paramCount` int32[N] and `params` float64 (numeric thresholds, multiway codes, or a
 * subset's left size then its left and right codes); `score`, `improvement` float64[N] (NaN:
 * absent); `counts` float64[N · k]. Each tree is then checked as a tree model file is.
 */

export const FOREST_FORMAT = 'grove-forest';
export const FOREST_VERSION = 1;
const MAGIC = 'GROVEFRS';
const PREFIX = 16;

type SectionType = 'i32' | 'u8' | 'f64';
const SECTIONS: readonly [string, SectionType][] = [
  ['treeStart', 'i32'],
  ['n', 'i32'],
  ['feature', 'i32'],
  ['firstChild', 'i32'],
  ['branches', 'i32'],
  ['missingBranch', 'i32'],
  ['paramCount', 'i32'],
  ['kind', 'u8'],
  ['params', 'f64'],
  ['score', 'f64'],
  ['improvement', 'f64'],
  ['counts', 'f64'],
];
const BYTES: Record<SectionType, number> = { i32: 4, u8: 1, f64: 8 };
const KIND_CODE: Record<Split['kind'], number> = { numeric: 1, multiway: 2, subset: 3 };

interface Header {
  format: typeof FOREST_FORMAT;
  version: number;
  target: string;
  features: unknown;
  classes: unknown;
  options: SavedOptions;
  forest: ForestSettings;
  oob?: { score: number; rows: number };
  /** k-NN data of C-MBSV unclassified regions, by node index over all trees. */
  knn?: Record<string, KnnRegion>;
  sections: { name: string; type: SectionType; length: number }[];
}

/** FNV-1a over `bytes` (catches damaged files; not a defence against a crafted one: the checks below are). */
function fnv1a(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

const pad8 = (x: number) => (x + 7) & ~7;

/** The forest as the bytes of its model file. */
export function encodeForest(forest: Forest): Uint8Array {
  const arrays = flatten(forest);
  const knn: Record<string, KnnRegion> = {};
  let base = 0;
  for (const tree of forest.trees) {
    tree.nodes.forEach((node, id) => {
      if (node.knn) knn[String(base + id)] = node.knn;
    });
    base += tree.nodes.length;
  }
  const header: Header = {
    format: FOREST_FORMAT,
    version: FOREST_VERSION,
    target: forest.target,
    features: forest.features,
    classes: forest.classes,
    options: forest.options,
    forest: forest.settings,
    ...(forest.oob ? { oob: { score: forest.oob.score, rows: forest.oob.rows } } : {}),
    ...(Object.keys(knn).length > 0 ? { knn } : {}),
    sections: SECTIONS.map(([name, type]) => ({ name, type, length: arrays[name].length })),
  };
  let text = new TextEncoder().encode(JSON.stringify(header));
  const headerBytes = pad8(PREFIX + text.length) - PREFIX;
  const padded = new Uint8Array(headerBytes).fill(0x20);
  padded.set(text);
  text = padded;
  let size = PREFIX + headerBytes;
  for (const [name, type] of SECTIONS) size = pad8(size + arrays[name].length * BYTES[type]);
  const out = new Uint8Array(size);
  for (let i = 0; i < MAGIC.length; i++) out[i] = MAGIC.charCodeAt(i);
  const view = new DataView(out.buffer);
  view.setUint32(8, headerBytes, true);
  out.set(text, PREFIX);
  let at = PREFIX + headerBytes;
  for (const [name, type] of SECTIONS) {
    const a = arrays[name];
    out.set(new Uint8Array(a.buffer, a.byteOffset, a.length * BYTES[type]), at);
    at = pad8(at + a.length * BYTES[type]);
  }
  view.setUint32(12, fnv1a(out.subarray(PREFIX)), true);
  return out;
}

type Flat = Record<string, Int32Array | Uint8Array | Float64Array>;

/** Every tree's nodes in the sections' arrays. */
function flatten(forest: Forest): Flat {
  const k = forest.classes.length;
  let total = 0;
  let params = 0;
  for (const tree of forest.trees)
    for (const node of tree.nodes) {
      total++;
      const s = node.split;
      if (s)
        params +=
          s.kind === 'numeric'
            ? s.thresholds.length
            : s.kind === 'multiway'
              ? s.values.length
              : 1 + s.left.length + s.right.length;
    }
  const f: Flat = {
    treeStart: new Int32Array(forest.trees.length + 1),
    n: new Int32Array(total),
    feature: new Int32Array(total).fill(-1),
    firstChild: new Int32Array(total).fill(-1),
    branches: new Int32Array(total),
    missingBranch: new Int32Array(total).fill(-1),
    paramCount: new Int32Array(total),
    kind: new Uint8Array(total),
    params: new Float64Array(params),
    score: new Float64Array(total).fill(Number.NaN),
    improvement: new Float64Array(total).fill(Number.NaN),
    counts: new Float64Array(total * k),
  };
  let i = 0;
  let p = 0;
  forest.trees.forEach((tree, t) => {
    f.treeStart[t] = i;
    for (const node of tree.nodes) {
      f.n[i] = node.n;
      f.counts.set(node.counts, i * k);
      if (node.missingBranch !== undefined) f.missingBranch[i] = node.missingBranch;
      if (node.score !== undefined) f.score[i] = node.score;
      if (node.improvement !== undefined) f.improvement[i] = node.improvement;
      const s = node.split;
      f.kind[i] = (s ? KIND_CODE[s.kind] : 0) + (node.unclassified ? 4 : 0);
      if (s && node.children) {
        f.feature[i] = s.feature;
        f.firstChild[i] = node.children[0];
        f.branches[i] = node.children.length;
        const values =
          s.kind === 'numeric'
            ? s.thresholds
            : s.kind === 'multiway'
              ? s.values
              : [s.left.length, ...s.left, ...s.right];
        f.params.set(values, p);
        f.paramCount[i] = values.length;
        p += values.length;
      }
      i++;
    }
  });
  f.treeStart[forest.trees.length] = i;
  return f;
}

/**
 * Read a forest model file's bytes, refusing anything damaged, truncated or not a forest with one
 * GroveError line naming `file`. Each tree is checked as a tree model file is (`validateModel`).
 */
export function decodeForest(bytes: Uint8Array, file?: string): Forest {
  const fail = (why: string): never => {
    throw new GroveError(`not a valid grove forest file: ${why}`, { file, code: 'E_MODEL' });
  };
  if (!isForestFile(bytes)) fail('it does not start with the forest file signature');
  if (bytes.length < PREFIX) fail('truncated');
  // Typed-array views need aligned offsets: copy a misaligned buffer (a pooled Node Buffer).
  const own = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
  const view = new DataView(own.buffer, own.byteOffset, own.byteLength);
  const headerBytes = view.getUint32(8, true);
  if (PREFIX + headerBytes > own.length) fail('truncated (the header runs past the end)');
  if (fnv1a(own.subarray(PREFIX)) !== view.getUint32(12, true)) fail('damaged or truncated (checksum mismatch)');
  let header: Header;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(own.subarray(PREFIX, PREFIX + headerBytes)));
  } catch {
    return fail('its header is not valid JSON');
  }
  if (header?.format !== FOREST_FORMAT) fail(`expected "format": "${FOREST_FORMAT}"`);
  if (header.version !== FOREST_VERSION)
    fail(`unsupported version ${JSON.stringify(header.version)} (this grove reads version ${FOREST_VERSION})`);
  const arrays = readSections(own, PREFIX + headerBytes, header, fail);
  return rebuild(header, arrays, fail, file);
}

/** True when `bytes` start with the forest file's signature. */
export function isForestFile(bytes: Uint8Array): boolean {
  if (bytes.length < MAGIC.length) return false;
  for (let i = 0; i < MAGIC.length; i++) if (bytes[i] !== MAGIC.charCodeAt(i)) return false;
  return true;
}

function readSections(own: Uint8Array, start: number, header: Header, fail: (why: string) => never): Flat {
  const listed = header.sections;
  if (!Array.isArray(listed) || listed.length !== SECTIONS.length) fail('its header lists the wrong sections');
  const out: Flat = {};
  let at = pad8(start);
  SECTIONS.forEach(([name, type], s) => {
    const entry = listed[s];
    if (entry?.name !== name || entry.type !== type || !Number.isSafeInteger(entry.length) || entry.length < 0)
      fail(`section ${s} should be ${name} (${type})`);
    const bytes = entry.length * BYTES[type];
    if (at + bytes > own.length) fail(`truncated (section ${name} runs past the end)`);
    const buffer = own.buffer;
    const offset = own.byteOffset + at;
    out[name] =
      type === 'i32'
        ? new Int32Array(buffer, offset, entry.length)
        : type === 'u8'
          ? new Uint8Array(buffer, offset, entry.length)
          : new Float64Array(buffer, offset, entry.length);
    at = pad8(at + bytes);
  });
  if (at !== own.length) fail(`${own.length - at} bytes after the last section`);
  return out;
}

/** The trees from the sections, each checked as a tree model file. */
function rebuild(header: Header, f: Flat, fail: (why: string) => never, file?: string): Forest {
  const settings = header.forest;
  const trees = (f.treeStart as Int32Array).length - 1;
  if (!settings || typeof settings !== 'object' || settings.trees !== trees || trees < 1)
    fail('the header and the tree sections disagree on the number of trees');
  const total = f.n.length;
  const k = Array.isArray(header.classes) ? header.classes.length : 0;
  for (const name of [
    'feature',
    'firstChild',
    'branches',
    'missingBranch',
    'paramCount',
    'kind',
    'score',
    'improvement',
  ])
    if (f[name].length !== total) fail(`section ${name} has ${f[name].length} entries for ${total} nodes`);
  if (f.counts.length !== total * k)
    fail(`section counts has ${f.counts.length} entries for ${total} nodes × ${k} classes`);
  const start = f.treeStart as Int32Array;
  if (start[0] !== 0 || start[trees] !== total) fail('tree offsets do not cover the nodes');
  let p = 0;
  const list: DecisionTree[] = [];
  for (let t = 0; t < trees; t++) {
    if (!(start[t + 1] > start[t])) fail(`tree ${t} has no nodes`);
    const nodes: TreeNode[] = [];
    for (let i = start[t]; i < start[t + 1]; i++) {
      const node = nodeAt(f, i, k, p, header.knn?.[String(i)], fail);
      p += f.paramCount[i];
      nodes.push(node);
    }
    // Depths are not stored: children follow their parent (the growers' numbering).
    for (const node of nodes)
      for (const c of node.children ?? []) if (c > 0 && c < nodes.length) nodes[c].depth = node.depth + 1;
    const options = { ...header.options, seed: treeSeed(settings.seed, t) };
    const model = validateModel(
      {
        format: MODEL_FORMAT,
        version: MODEL_VERSION,
        target: header.target,
        features: header.features,
        classes: header.classes,
        options,
        nodes,
      },
      file,
    );
    list.push(new DecisionTree(model, TRUSTED_MODEL));
  }
  if (p !== f.params.length) fail('the split parameters do not match the nodes');
  const first = list[0];
  return new Forest({
    target: first.target,
    features: first.features,
    classes: first.classes,
    settings,
    options: header.options,
    trees: list,
    ...(header.oob ? { oob: header.oob } : {}),
  });
}

function nodeAt(
  f: Flat,
  i: number,
  k: number,
  p: number,
  knn: KnnRegion | undefined,
  fail: (why: string) => never,
): TreeNode {
  const code = f.kind[i] & 3;
  const node: TreeNode = { counts: Array.from(f.counts.subarray(i * k, i * k + k)), n: f.n[i], depth: 0 };
  if (!Number.isNaN(f.score[i])) node.score = f.score[i];
  if (!Number.isNaN(f.improvement[i])) node.improvement = f.improvement[i];
  if (f.missingBranch[i] >= 0) node.missingBranch = f.missingBranch[i];
  if (f.kind[i] & 4) node.unclassified = true;
  if (knn) node.knn = knn;
  if (code === 0) return node;
  const count = f.paramCount[i];
  if (count < 1 || p + count > f.params.length) fail(`node ${i}: bad split parameters`);
  const values = Array.from(f.params.subarray(p, p + count));
  const feature = f.feature[i];
  if (code === 1) node.split = { kind: 'numeric', feature, thresholds: values };
  else if (code === 2) node.split = { kind: 'multiway', feature, values };
  else {
    const left = values[0];
    if (!Number.isInteger(left) || left < 1 || left + 1 > count) fail(`node ${i}: bad subset split`);
    node.split = { kind: 'subset', feature, left: values.slice(1, 1 + left), right: values.slice(1 + left) };
  }
  const first = f.firstChild[i];
  node.children = Array.from({ length: f.branches[i] }, (_, b) => first + b);
  return node;
}
