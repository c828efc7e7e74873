import { readFileSync } from 'node:fs';
import { GroveError } from '../core/errors.js';
import { DecisionTree } from '../model/decision-tree.js';
import { validateModel } from '../model/schema.js';
import { writeFileAtomic } from './atomic.js';

/**
 * Save a model as JSON (atomically: a crash never leaves half a file), after the check
 * `loadModel` makes: a model grove would refuse to load is never reported written.
 */
export function saveModel(tree: DecisionTree, path: string): void {
  const text = `${JSON.stringify(tree.toJSON())}\n`;
  try {
    validateModel(JSON.parse(text));
  } catch (err) {
    throw new GroveError(`internal error: the model fails grove's own check, not written (${(err as Error).message})`, {
      file: path,
    });
  }
  writeFileAtomic(path, text);
}

/** Load and validate a model file; anything that is not a grove model is refused with a GroveError. */
export function loadModel(path: string): DecisionTree {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new GroveError(
      code === 'ENOENT' ? 'cannot read model: no such file' : `cannot read model (${code ?? 'error'})`,
      { file: path },
    );
  }
  let value: unknown;
  try {
    // A byte order mark, as some editors write one, is not part of the JSON.
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    throw new GroveError('not a grove model file (not valid JSON)', { file: path });
  }
  return DecisionTree.fromJSON(value, path);
}
