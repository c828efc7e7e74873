import { GroveError } from '../core/errors.js';
import { DecisionTree, TRUSTED_MODEL } from '../model/decision-tree.js';
import type { KnnRegion } from '../model/node.js';
import { MODEL_FORMAT, MODEL_VERSION, type SavedOptions, validateModel } from '../model/schema.js';
import { treeSeed } from './draws.js';
import { Forest } from './forest.js';
import { flatten } from './forest-flatten.js';
import { NodeReader } from './forest-nodes.js';
import { BYTES, narrow, SECTIONS, type Sections, type SectionType, viewOf } from './forest-sections.js';
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

/** FNV-1a over `bytes` (catches damaged files; not a defence against a crafted one: the checks below are). */
function fnv1a(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

const pad8 = (x: number) => (x + 7) & ~7;

/** The forest as the bytes of its model file. */
export function encodeForest(forest: Forest): Uint8Array {
  const { values, sums, knn } = flatten(forest);
  const arrays = SECTIONS.map(([name, fractions]) => {
    const section = narrow(values[name]);
    delete values[name]; // its float64 values may go while the next sections narrow
    if (!fractions && (section.type === 'f32' || section.type === 'f64'))
      throw new Error(`forest file: section ${name} holds a fraction`);
    return { name, ...section };
  });
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
    sections: arrays.map(({ name, type, array }) => ({ name, type, length: array.length })),
  };
  let text = new TextEncoder().encode(JSON.stringify(header));
  const headerBytes = pad8(PREFIX + text.length) - PREFIX;
  const padded = new Uint8Array(headerBytes).fill(0x20);
  padded.set(text);
  text = padded;
  let size = PREFIX + headerBytes;
  for (const { array } of arrays) size = pad8(size + array.byteLength);
  const out = new Uint8Array(size);
  for (let i = 0; i < MAGIC.length; i++) out[i] = MAGIC.charCodeAt(i);
  const view = new DataView(out.buffer);
  view.setUint32(8, headerBytes, true);
  out.set(text, PREFIX);
  let at = PREFIX + headerBytes;
  for (const { array } of arrays) {
    out.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), at);
    at = pad8(at + array.byteLength);
  }
  view.setUint32(12, fnv1a(out.subarray(PREFIX)), true);
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
  const list: DecisionTree[] = [];
  for (let t = 0; t < trees; t++) {
    const nodes = reader.tree(t);
    const options = { ...header.options, seed: treeSeed(settings.seed, t) };
    const model = { target: shape.target, features: shape.features, classes: shape.classes, options };
    list.push(
      Array.isArray(nodes)
        ? new DecisionTree(
            validateModel({ format: MODEL_FORMAT, version: MODEL_VERSION, ...model, nodes }, file),
            TRUSTED_MODEL,
          )
        : new DecisionTree({ ...model, nodes }, TRUSTED_MODEL),
    );
  }
  reader.finish();
  return new Forest({
    target: shape.target,
    features: shape.features,
    classes: shape.classes,
    settings,
    options: header.options,
    trees: list,
    ...(header.oob ? { oob: header.oob } : {}),
  });
}
