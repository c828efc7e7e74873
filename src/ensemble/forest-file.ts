import { GroveError } from '../core/errors.js';
import { DecisionTree, TRUSTED_MODEL } from '../model/decision-tree.js';
import type { KnnRegion, TreeNode } from '../model/node.js';
import { MODEL_FORMAT, MODEL_VERSION, type ModelFile, type SavedOptions, validateModel } from '../model/schema.js';
import type { TreeStore } from '../model/store.js';
import { treeSeed } from './draws.js';
import { Forest } from './forest.js';
import { compileSections } from './forest-compile.js';
import { fillTree, planForest, treeRange } from './forest-flatten.js';
import { NodeReader } from './forest-nodes.js';
import {
  BYTES,
  SECTIONS,
  type Section,
  type Sections,
  type SectionType,
  sectionOf,
  viewOf,
} from './forest-sections.js';
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
 *   then        the sections the header lists (name, type, length), in order, each starting at a
 *               multiple of 8: see forest-sections.ts
 *
 * Reading checks every tree as a tree model file is checked (forest-nodes.ts), on the arrays: a
 * tree of plain nodes becomes a `TreeStore` without a node object; a tree with C-MBSV regions or
 * other rarer fields is made of node objects and checked by `validateModel`. A forest whose splits
 * are all binary and numeric is checked and compiled for prediction in one pass over the sections
 * instead (forest-compile.ts), its trees read as above only when something asks for them.
 */

export const FOREST_FORMAT = 'grove-forest';
export const FOREST_VERSION = 2;
const MAGIC = 'GROVEFRS';
const PREFIX = 16;

interface Header {
  format: typeof FOREST_FORMAT;
  version: number;
  target: string;
  features: unknown;
  classes: unknown;
  options: SavedOptions;
  forest: ForestSettings;
  oob?: { score: number; rows: number };
  /** Split nodes' `n` and counts are their children's sums (only the leaves' are stored). */
  sums: boolean;
  /** k-NN data of C-MBSV unclassified regions, by node index over all trees. */
  knn?: Record<string, KnnRegion>;
  sections: { name: string; type: SectionType; length: number }[];
}

const FNV_START = 0x811c9dc5;

/**
 * FNV-1a over `bytes`, going on from `h` (catches damaged files; not a defence against a crafted
 * one: the checks below are).
 */
function fnv1a(bytes: Uint8Array, h = FNV_START): number {
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

const pad8 = (x: number) => (x + 7) & ~7;

/**
 * Where a forest file's bytes go: writes at byte offsets (into `size` bytes that start as zeros),
 * and reads back of what was written (the checksum, the check).
 */
export interface ForestSink {
  write(bytes: Uint8Array, at: number): void;
  read(at: number, length: number): Uint8Array;
}

/** A forest's model file, laid out (its size known) but not yet written. */
export interface ForestFile {
  size: number;
  /**
   * Write the file through `sink`, one tree's part of every section at a time (no section is made
   * whole), then the checksum, read back in file order, and the prefix.
   */
  writeTo(sink: ForestSink): void;
  /**
   * Read the written file back through `sink` as `decodeForest` reads it, one tree at a time, none
   * kept; throws a GroveError.
   */
  check(sink: ForestSink, file?: string): void;
}

const bytesOf = (a: Section) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
/** Bytes hashed per read when the checksum is taken from the written file. */
const CHUNK = 1 << 20;

/** The forest's model file: one pass over the trees sizes and types every section (forest-flatten.ts). */
export function forestFile(forest: Forest): ForestFile {
  const plan = planForest(forest);
  const { sections, sums, knn } = plan;
  const header: Header = {
    format: FOREST_FORMAT,
    version: FOREST_VERSION,
    target: forest.target,
    features: forest.features,
    classes: forest.classes,
    options: forest.options,
    forest: forest.settings,
    ...(forest.oob ? { oob: { score: forest.oob.score, rows: forest.oob.rows } } : {}),
    sums,
    ...(Object.keys(knn).length > 0 ? { knn } : {}),
    sections: sections.map(({ name, type, length }) => ({ name, type, length })),
  };
  const text = new TextEncoder().encode(JSON.stringify(header));
  const headerBytes = pad8(PREFIX + text.length) - PREFIX;
  const { offsets, size } = layout(header, PREFIX + headerBytes, (why) => {
    throw new Error(`forest file: ${why}`);
  });
  const writeTo = (sink: ForestSink): void => {
    const padded = new Uint8Array(headerBytes).fill(0x20);
    padded.set(text);
    sink.write(padded, PREFIX);
    const starts = sectionOf(sections[0].type, plan.treeStart.length);
    starts.set(plan.treeStart);
    sink.write(bytesOf(starts), offsets[0]);
    for (let t = 0; t < forest.trees.length; t++)
      fillTree(forest, plan, t).forEach((part, s) => {
        const at = offsets[s] + treeRange(plan, s, t)[0] * BYTES[sections[s].type];
        if (part.length > 0) sink.write(bytesOf(part), at);
      });
    let h = FNV_START;
    for (let at = PREFIX; at < size; at += CHUNK) h = fnv1a(sink.read(at, Math.min(CHUNK, size - at)), h);
    const prefix = new Uint8Array(PREFIX);
    for (let i = 0; i < MAGIC.length; i++) prefix[i] = MAGIC.charCodeAt(i);
    const view = new DataView(prefix.buffer);
    view.setUint32(8, headerBytes, true);
    view.setUint32(12, h, true);
    sink.write(prefix, 0);
  };
  const check = (sink: ForestSink, file?: string): void => {
    const fail = (why: string): never => {
      throw new GroveError(`not a valid grove forest file: ${why}`, { file, code: 'E_MODEL' });
    };
    const prefix = sink.read(0, PREFIX);
    if (!isForestFile(prefix)) fail('it does not start with the forest file signature');
    const read = headerOf(sink.read(PREFIX, new DataView(prefix.buffer, prefix.byteOffset).getUint32(8, true)), fail);
    if (JSON.stringify(read.sections) !== JSON.stringify(header.sections)) fail('its header lists the wrong sections');
    const section = (s: number, start: number, end: number): Section => {
      const { type } = read.sections[s];
      const bytes = sink.read(offsets[s] + start * BYTES[type], (end - start) * BYTES[type]);
      return viewOf(type, bytes.slice().buffer, 0, end - start);
    };
    const starts = section(0, 0, plan.treeStart.length);
    const trees = starts.length - 1;
    const shape = headerShape(read, trees, fail, file);
    const regions = Object.entries(read.knn ?? {}).map(([id, region]) => [Number(id), region] as const);
    for (let t = 0; t < trees; t++) {
      if (starts[t + 1] !== plan.treeStart[t + 1]) fail('tree offsets do not cover the nodes');
      const m = starts[t + 1] - starts[t];
      const local: Sections = { treeStart: Int32Array.of(0, m) };
      for (let s = 1; s < sections.length; s++) local[sections[s].name] = section(s, ...treeRange(plan, s, t));
      // The tree's own k-NN regions, by its own node ids, as a one-tree file lists them.
      const own: Record<string, KnnRegion> = {};
      for (const [id, region] of regions) if (id >= starts[t] && id < starts[t + 1]) own[id - starts[t]] = region;
      const failHere = (why: string): never => fail(`tree ${t}: ${why}`);
      const reader = new NodeReader(local, shape, read.sums, own, failHere);
      treeOf(read, shape, reader.tree(0), t, file);
      reader.finish();
    }
  };
  return { size, writeTo, check };
}

/** The forest as the bytes of its model file. */
export function encodeForest(forest: Forest): Uint8Array {
  const file = forestFile(forest);
  const out = new Uint8Array(file.size);
  file.writeTo({
    write: (bytes, at) => out.set(bytes, at),
    read: (at, length) => out.subarray(at, at + length),
  });
  return out;
}

/**
 * Read a forest model file's bytes, refusing anything damaged, truncated or not a forest with one
 * GroveError line naming `file`. Each tree is checked as a tree model file is (`validateModel`).
 * A forest of binary numeric splits is checked and compiled for prediction in one pass over the
 * sections (forest-compile.ts; `slots`: the threads it may predict on), its `DecisionTree`s made
 * from the sections only when something asks for them.
 */
export function decodeForest(bytes: Uint8Array, file?: string, slots = 1): Forest {
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
  const header = headerOf(own.subarray(PREFIX, PREFIX + headerBytes), fail);
  const arrays = readSections(own, PREFIX + headerBytes, header, fail);
  const count = arrays.treeStart.length - 1;
  const shape = headerShape(header, count, fail, file);
  const reader = () => new NodeReader(arrays, shape, header.sums, header.knn ?? {}, fail);
  const first = reader(); // checks the sections' lengths
  let list: DecisionTree[] | undefined;
  const trees = () => (list ??= treesOf(header, shape, reader(), count, file));
  const k = shape.classes.length;
  const parts = Array.from({ length: count }, (_, t) => ({ classes: k, compiledTree: () => trees()[t].compiled }));
  const compiled = header.knn ? undefined : compileSections(arrays, shape, header.sums, parts, slots);
  return new Forest({
    target: shape.target,
    features: shape.features,
    classes: shape.classes,
    settings: header.forest,
    options: header.options,
    trees: compiled ? trees : treesOf(header, shape, first, count, file),
    ...(compiled ? { compiled } : {}),
    ...(header.oob ? { oob: header.oob } : {}),
  });
}

/** A forest file's header from its bytes, its format and version checked. */
function headerOf(bytes: Uint8Array, fail: (why: string) => never): Header {
  let header: Header;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return fail('its header is not valid JSON');
  }
  if (header?.format !== FOREST_FORMAT) fail(`expected "format": "${FOREST_FORMAT}"`);
  if (header.version !== FOREST_VERSION)
    fail(`unsupported version ${JSON.stringify(header.version)} (this grove reads version ${FOREST_VERSION})`);
  return header;
}

/**
 * A forest file's features as its header lists them, unchecked (`decodeForest` checks them), or
 * undefined when the header cannot be read: what a caller may start on while the forest decodes.
 */
export function forestFileFeatures(bytes: Uint8Array): unknown {
  try {
    if (!isForestFile(bytes) || bytes.length < PREFIX) return undefined;
    const headerBytes = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(8, true);
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(PREFIX, PREFIX + headerBytes));
    return (JSON.parse(text) as Partial<Header>)?.features;
  } catch {
    return undefined;
  }
}

/** True when `bytes` start with the forest file's signature. */
export function isForestFile(bytes: Uint8Array): boolean {
  if (bytes.length < MAGIC.length) return false;
  for (let i = 0; i < MAGIC.length; i++) if (bytes[i] !== MAGIC.charCodeAt(i)) return false;
  return true;
}

const TYPES: ReadonlySet<string> = new Set(['u8', 'u16', 'i32', 'f32', 'f64']);

/**
 * Where each section the header lists starts (the first at `start`, rounded up to 8), and where
 * the last ends: the file's size. The list, types and lengths are checked.
 */
function layout(header: Header, start: number, fail: (why: string) => never): { offsets: number[]; size: number } {
  const listed = header.sections;
  if (!Array.isArray(listed) || listed.length !== SECTIONS.length) fail('its header lists the wrong sections');
  const offsets: number[] = [];
  let at = pad8(start);
  SECTIONS.forEach(([name, fractions], s) => {
    const entry = listed[s];
    const type = entry?.type;
    if (
      entry?.name !== name ||
      !TYPES.has(type) ||
      (!fractions && (type === 'f32' || type === 'f64')) ||
      !Number.isSafeInteger(entry.length) ||
      entry.length < 0
    )
      fail(`section ${s} should be ${name}`);
    offsets.push(at);
    at = pad8(at + entry.length * BYTES[type]);
  });
  return { offsets, size: at };
}

function readSections(own: Uint8Array, start: number, header: Header, fail: (why: string) => never): Sections {
  const { offsets, size } = layout(header, start, fail);
  const out: Sections = {};
  header.sections.forEach(({ name, type, length }, s) => {
    if (offsets[s] + length * BYTES[type] > own.length) fail(`truncated (section ${name} runs past the end)`);
    out[name] = viewOf(type, own.buffer, own.byteOffset + offsets[s], length);
  });
  if (size !== own.length) fail(`${own.length - size} bytes after the last section`);
  return out;
}

/** The `count` trees `reader` reads (from its first), each checked as a tree model file. */
function treesOf(header: Header, shape: ModelFile, reader: NodeReader, count: number, file?: string): DecisionTree[] {
  const list: DecisionTree[] = [];
  for (let t = 0; t < count; t++) list.push(treeOf(header, shape, reader.tree(t), t, file));
  reader.finish();
  return list;
}

/** The header's parts, checked as a tree model file's (one leaf stands for the nodes), for `trees` trees. */
function headerShape(header: Header, trees: number, fail: (why: string) => never, file: string | undefined): ModelFile {
  const settings = header.forest;
  if (!settings || typeof settings !== 'object' || settings.trees !== trees || trees < 1)
    fail('the header and the tree sections disagree on the number of trees');
  if (typeof header.sums !== 'boolean') fail('its header has no "sums"');
  const k = Array.isArray(header.classes) ? header.classes.length : 0;
  return validateModel(
    {
      format: MODEL_FORMAT,
      version: MODEL_VERSION,
      target: header.target,
      features: header.features,
      classes: header.classes,
      options: header.options,
      nodes: [{ counts: new Array(k).fill(0), n: 0, depth: 0 }],
    },
    file,
  );
}

/** Tree `t` from its nodes as read (node objects are checked by `validateModel`). */
function treeOf(
  header: Header,
  shape: ModelFile,
  nodes: TreeStore | TreeNode[],
  t: number,
  file: string | undefined,
): DecisionTree {
  const options = { ...header.options, seed: treeSeed(header.forest.seed, t) };
  const model = { target: shape.target, features: shape.features, classes: shape.classes, options };
  return Array.isArray(nodes)
    ? new DecisionTree(
        validateModel({ format: MODEL_FORMAT, version: MODEL_VERSION, ...model, nodes }, file),
        TRUSTED_MODEL,
      )
    : new DecisionTree({ ...model, nodes }, TRUSTED_MODEL);
}
