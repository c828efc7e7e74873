import { GroveError } from '../core/errors.js';
import { DecisionTree, TRUSTED_MODEL } from '../model/decision-tree.js';
import type { KnnRegion } from '../model/node.js';
import { MODEL_FORMAT, MODEL_VERSION, type ModelFile, type SavedOptions, validateModel } from '../model/schema.js';
import { treeSeed } from './draws.js';
import { Forest } from './forest.js';
import { flatten } from './forest-flatten.js';
import { NodeReader } from './forest-nodes.js';
import { BYTES, SECTIONS, type Sections, type SectionType, viewOf } from './forest-sections.js';
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
 * other rarer fields is made of node objects and checked by `validateModel`.
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
const ZEROS = new Uint8Array(8);

/** A forest file's bytes as parts in file order, and the check that reads them back. */
export interface ForestFileParts {
  /** The prefix, the header, each section and its padding: written one after another, they are the file. */
  parts: Uint8Array[];
  size: number;
  /** Read the parts back as `decodeForest` reads a file (one tree at a time, none kept); throws a GroveError. */
  check(file?: string): void;
}

/**
 * The forest's model file as parts: the sections are the flattened trees' arrays themselves, so
 * writing them needs no copy of the whole file.
 */
export function forestFileParts(forest: Forest): ForestFileParts {
  const { sections, sums, knn } = flatten(forest);
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
    sections: sections.map(({ name, type, array }) => ({ name, type, length: array.length })),
  };
  const text = new TextEncoder().encode(JSON.stringify(header));
  const headerBytes = pad8(PREFIX + text.length) - PREFIX;
  const padded = new Uint8Array(headerBytes).fill(0x20);
  padded.set(text);
  const prefix = new Uint8Array(PREFIX);
  const parts: Uint8Array[] = [prefix, padded];
  let size = PREFIX + headerBytes;
  for (const { array } of sections) {
    parts.push(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    const end = pad8(size + array.byteLength);
    if (end > size + array.byteLength) parts.push(ZEROS.subarray(0, end - size - array.byteLength));
    size = end;
  }
  let h = FNV_START;
  for (let i = 1; i < parts.length; i++) h = fnv1a(parts[i], h);
  for (let i = 0; i < MAGIC.length; i++) prefix[i] = MAGIC.charCodeAt(i);
  const view = new DataView(prefix.buffer);
  view.setUint32(8, headerBytes, true);
  view.setUint32(12, h, true);
  const check = (file?: string): void => {
    const fail = (why: string): never => {
      throw new GroveError(`not a valid grove forest file: ${why}`, { file, code: 'E_MODEL' });
    };
    const read: Header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(text));
    const arrays: Sections = Object.fromEntries(sections.map(({ name, array }) => [name, array]));
    readTrees(read, arrays, fail, file, () => {});
  };
  return { parts, size, check };
}

/** The forest as the bytes of its model file. */
export function encodeForest(forest: Forest): Uint8Array {
  const { parts, size } = forestFileParts(forest);
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
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

function readSections(own: Uint8Array, start: number, header: Header, fail: (why: string) => never): Sections {
  const listed = header.sections;
  if (!Array.isArray(listed) || listed.length !== SECTIONS.length) fail('its header lists the wrong sections');
  const out: Sections = {};
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
    const bytes = entry.length * BYTES[type];
    if (at + bytes > own.length) fail(`truncated (section ${name} runs past the end)`);
    out[name] = viewOf(type, own.buffer, own.byteOffset + at, entry.length);
    at = pad8(at + bytes);
  });
  if (at !== own.length) fail(`${own.length - at} bytes after the last section`);
  return out;
}

/** The trees from the sections, each checked as a tree model file. */
function rebuild(header: Header, f: Sections, fail: (why: string) => never, file?: string): Forest {
  const list: DecisionTree[] = [];
  const shape = readTrees(header, f, fail, file, (tree) => list.push(tree));
  return new Forest({
    target: shape.target,
    features: shape.features,
    classes: shape.classes,
    settings: header.forest,
    options: header.options,
    trees: list,
    ...(header.oob ? { oob: header.oob } : {}),
  });
}

/** Each tree of the sections in order, checked as a tree model file, given to `each`; the header's checked parts. */
function readTrees(
  header: Header,
  f: Sections,
  fail: (why: string) => never,
  file: string | undefined,
  each: (tree: DecisionTree) => void,
): ModelFile {
  const settings = header.forest;
  const trees = f.treeStart.length - 1;
  if (!settings || typeof settings !== 'object' || settings.trees !== trees || trees < 1)
    fail('the header and the tree sections disagree on the number of trees');
  if (typeof header.sums !== 'boolean') fail('its header has no "sums"');
  // The header's parts as a tree model file's (one leaf stands for the nodes, checked below).
  const k = Array.isArray(header.classes) ? header.classes.length : 0;
  const shape = validateModel(
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
  const reader = new NodeReader(f, shape, header.sums, header.knn ?? {}, fail);
  for (let t = 0; t < trees; t++) {
    const nodes = reader.tree(t);
    const options = { ...header.options, seed: treeSeed(settings.seed, t) };
    const model = { target: shape.target, features: shape.features, classes: shape.classes, options };
    each(
      Array.isArray(nodes)
        ? new DecisionTree(
            validateModel({ format: MODEL_FORMAT, version: MODEL_VERSION, ...model, nodes }, file),
            TRUSTED_MODEL,
          )
        : new DecisionTree({ ...model, nodes }, TRUSTED_MODEL),
    );
  }
  reader.finish();
  return shape;
}
