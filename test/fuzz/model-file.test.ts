/**
 * Model-file fuzz: valid models (categorical, numeric with missing values, pruned, C-MBSV) mutated
 * as JSON values (a field replaced by junk, deleted or added, an array element dropped or repeated)
 * and as text (cut, spliced). Property: DecisionTree.fromJSON / validateModel refuse with a
 * GroveError, or give a tree whose every use (predict, probabilities, stats, text, rules, DOT,
 * JSON) works or fails with a GroveError.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/algorithms/fit.js';
import { GroveError } from '../../src/core/errors.js';
import { treeToDot } from '../../src/export/dot.js';
import { rulesToText } from '../../src/export/rules.js';
import { treeToText } from '../../src/export/text.js';
import { DecisionTree } from '../../src/model/decision-tree.js';
import { readDataset } from '../../src/sources/file-source.js';
import { fixture } from '../helpers/paths.js';
import { FUZZ_TIMEOUT, fuzzParams } from './config.js';
import { junkValue } from './junk.mjs';
import { mutate } from './texts.js';

const tennis = await readDataset(fixture('play-tennis.csv'));
const income = await readDataset(fixture('taxable-income.csv'));
const MODELS = [
  fit(tennis, { algorithm: 'id3' }),
  fit(tennis, { algorithm: 'cart', categoricalSplit: 'binary' }),
  fit(income, { algorithm: 'c45' }),
  fit(income, { algorithm: 'cart', prune: 'cost-complexity' }),
  fit(income, { algorithm: 'cmbsv' }),
].map((t) => ({ json: t.toJSON(), data: t.features.some((f) => f.name === 'Outlook') ? tennis : income }));

type Json = unknown;
type Edit = { path: number[]; op: 'replace' | 'delete' | 'add' | 'repeat'; value: unknown };

/** Apply `edit` to a deep copy of `value`, walking `path` (indices taken modulo each level's size). */
function applyEdit(value: Json, edit: Edit): Json {
  const root = structuredClone(value) as Json;
  let parent: Record<string, unknown> | unknown[] | undefined;
  let key: string | number | undefined;
  let node: unknown = root;
  for (const step of edit.path) {
    if (node === null || typeof node !== 'object') break;
    const keys = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
    if (!keys.length) break;
    parent = node as Record<string, unknown>;
    key = keys[step % keys.length];
    node = (parent as Record<string | number, unknown>)[key];
  }
  if (parent === undefined || key === undefined) return edit.value;
  const p = parent as Record<string | number, unknown>;
  if (edit.op === 'replace') p[key] = edit.value;
  else if (edit.op === 'delete') {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete p[key];
  } else if (edit.op === 'repeat' && Array.isArray(parent)) parent.splice(key as number, 0, structuredClone(node));
  else if (Array.isArray(parent)) parent.push(edit.value);
  else p[`${String(key)}_extra`] = edit.value;
  return root;
}

const edit = fc.record({
  path: fc.array(fc.nat(), { minLength: 1, maxLength: 7 }),
  op: fc.constantFrom('replace', 'replace', 'delete', 'add', 'repeat') as fc.Arbitrary<Edit['op']>,
  // What a JSON file can hold: junk through a JSON round trip (NaN and typed arrays become null and objects).
  value: junkValue
    .filter((v) => typeof v !== 'symbol' && typeof v !== 'function' && typeof v !== 'bigint')
    .map((v) => (v === undefined ? null : (JSON.parse(JSON.stringify(v)) as unknown))),
});

/** Load and use a model value; only GroveError may escape (it is swallowed). */
function loadsCleanly(value: unknown, data: (typeof MODELS)[number]['data']): void {
  let tree: DecisionTree;
  try {
    tree = DecisionTree.fromJSON(value, 'fuzz.json');
  } catch (err) {
    if (err instanceof GroveError) return;
    throw err;
  }
  try {
    expect(tree.predict(data)).toHaveLength(data.nRows);
    tree.predictProba(data);
    tree.stats();
    treeToText(tree);
    rulesToText(tree);
    treeToDot(tree);
    DecisionTree.fromJSON(JSON.parse(JSON.stringify(tree.toJSON())));
  } catch (err) {
    if (!(err instanceof GroveError)) throw err;
  }
}

describe('model-file fuzz', () => {
  it(
    'mutated JSON values: refused with a GroveError, or a tree that works',
    () => {
      fc.assert(
        fc.property(fc.nat({ max: MODELS.length - 1 }), fc.array(edit, { minLength: 1, maxLength: 3 }), (m, edits) => {
          let value: Json = MODELS[m].json;
          for (const e of edits) value = applyEdit(value, e);
          loadsCleanly(value, MODELS[m].data);
        }),
        fuzzParams(400),
      );
    },
    FUZZ_TIMEOUT,
  );

  it(
    'mutated model text: refused with a GroveError, or a tree that works',
    () => {
      const mutation = fc.record({
        at: fc.nat(),
        cut: fc.nat({ max: 12 }),
        insert: fc.constantFrom('', '0', '-1', 'null', '"x"', '[]', '{}', ',', '1e999'),
      });
      fc.assert(
        fc.property(fc.nat({ max: MODELS.length - 1 }), fc.array(mutation, { minLength: 1, maxLength: 3 }), (m, ms) => {
          let value: unknown;
          try {
            value = JSON.parse(mutate(JSON.stringify(MODELS[m].json), ms));
          } catch {
            return; // not JSON: loadModel refuses it before fromJSON
          }
          loadsCleanly(value, MODELS[m].data);
        }),
        fuzzParams(300),
      );
    },
    FUZZ_TIMEOUT,
  );
});
