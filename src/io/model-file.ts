import { readFileSync } from 'node:fs';
import { GroveError } from '../core/errors.js';
import { DecisionTree } from '../model/decision-tree.js';
import { writeFileAtomic } from './atomic.js';

/** Save a model as JSON (atomically: a crash never leaves half a file). */
export function saveModel(tree: DecisionTree, path: string): void {
  writeFileAtomic(path, `${JSON.stringify(tree.toJSON())}\n`);
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
    value = JSON.parse(text);
  } catch {
    throw new GroveError('not a grove model file (not valid JSON)', { file: path });
  }
  return DecisionTree.fromJSON(value, path);
}
