import { closeSync, ftruncateSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { GroveError } from '../core/errors.js';
import { Forest } from '../ensemble/forest.js';
import {
  decodeForest,
  type ForestSink,
  forestFile,
  forestFileFeatures,
  isForestFile,
} from '../ensemble/forest-file.js';
import { DecisionTree } from '../model/decision-tree.js';
import { validateModel } from '../model/schema.js';
import { writeFileAtomic } from './atomic.js';

/**
 * Save a model (atomically: a crash never leaves half a file), after the check loading makes: a
 * model grove would refuse to load is never reported written. A tree is written as JSON, a
 * forest in the forest file format (src/ensemble/forest-file.ts: a JSON header and typed arrays),
 * one tree's part of every section at a time, then read back from the temporary file one tree at a
 * time and checked before it is renamed into place.
 */
export function saveModel(model: DecisionTree | Forest, path: string): void {
  if (model instanceof Forest) {
    const file = forestFile(model);
    writeFileAtomic(path, (fd) => {
      ftruncateSync(fd, file.size);
      const sink: ForestSink = {
        write(bytes, at) {
          for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done, at + done);
        },
        read(at, length) {
          const out = new Uint8Array(length);
          for (let done = 0; done < length; ) {
            const got = readSync(fd, out, done, length - done, at + done);
            if (got === 0) throw new GroveError('cannot read back the model file being written', { file: path });
            done += got;
          }
          return out;
        },
      };
      file.writeTo(sink);
      try {
        file.check(sink);
      } catch (err) {
        throw new GroveError(
          `internal error: the forest fails grove's own check, not written (${(err as Error).message})`,
          { file: path },
        );
      }
    });
    return;
  }
  const text = `${JSON.stringify(model.toJSON())}\n`;
  try {
    validateModel(JSON.parse(text));
  } catch (err) {
    throw new GroveError(`internal error: the model fails grove's own check, not written (${(err as Error).message})`, {
      file: path,
    });
  }
  writeFileAtomic(path, text);
}

/** `read()`, a failure to read the model file given as one GroveError line. */
function readingModel<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new GroveError(
      code === 'ENOENT' ? 'cannot read model: no such file' : `cannot read model (${code ?? 'error'})`,
      { file: path },
    );
  }
}

function readModelBytes(path: string): Buffer {
  return readingModel(path, () => readFileSync(path));
}

/**
 * A forest file's first bytes up to the end of its header (the 16-byte prefix names the header's
 * length), or what there is of them; for any other file, its first bytes.
 */
function readModelHead(path: string): Buffer {
  return readingModel(path, () => {
    const fd = openSync(path, 'r');
    try {
      const prefix = Buffer.alloc(16);
      const got = readSync(fd, prefix, 0, 16, 0);
      if (got < 16 || !isForestFile(prefix)) return prefix.subarray(0, got);
      const head = Buffer.alloc(16 + prefix.readUInt32LE(8));
      prefix.copy(head);
      return head.subarray(0, 16 + readSync(fd, head, 16, head.length - 16, 16));
    } finally {
      closeSync(fd);
    }
  });
}

/**
 * Load and validate a model file, a tree or a forest; anything that is not a grove model, or is
 * damaged or truncated, is refused with a GroveError naming the file.
 */
export function loadAnyModel(path: string): DecisionTree | Forest {
  return openModel(path).load();
}

/**
 * A model file opened but not yet read whole: a forest file's features as its header lists them
 * (unchecked; undefined for a tree), so a caller can start reading data while `load` reads and
 * decodes the rest.
 */
export function openModel(path: string): { features: unknown; load: (slots?: number) => DecisionTree | Forest } {
  const features = forestFileFeatures(readModelHead(path));
  return { features, load: (slots) => modelFromBytes(readModelBytes(path), path, slots) };
}

/** The model in `bytes`; a forest compiled to predict on up to `slots` threads (`decodeForest`). */
function modelFromBytes(bytes: Buffer, path: string, slots?: number): DecisionTree | Forest {
  if (isForestFile(bytes)) return decodeForest(bytes, path, slots);
  let value: unknown;
  try {
    const text = bytes.toString('utf8');
    // A byte order mark, as some editors write one, is not part of the JSON.
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    throw new GroveError('not a grove model file (not valid JSON)', { file: path });
  }
  return DecisionTree.fromJSON(value, path);
}

/** Load and validate a tree model file; a forest (or anything else) is refused with a GroveError. */
export function loadModel(path: string): DecisionTree {
  const model = loadAnyModel(path);
  if (model instanceof Forest)
    throw new GroveError('this is a forest model; a single tree is needed here', { file: path, code: 'E_MODEL' });
  return model;
}

/** Load and validate a forest model file; a tree model (or anything else) is refused with a GroveError. */
export function loadForest(path: string): Forest {
  const model = loadAnyModel(path);
  if (!(model instanceof Forest))
    throw new GroveError('this is a single-tree model; a forest is needed here', { file: path, code: 'E_MODEL' });
  return model;
}
