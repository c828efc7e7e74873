import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { GroveError } from '../core/errors.js';
import { stratifiedFolds } from '../core/folds.js';
import type { Dataset } from '../data/dataset.js';
import { repeatSeed } from '../eval/cross-validate.js';
import type { DatasetInfo } from '../eval/results.js';
import {
  dataFileExtensions,
  datasetHash,
  isKindSpec,
  readSource,
  type SourceReadOptions,
  sourceName,
} from '../sources/index.js';

/** A data set's name: its file name without the extensions (`iris.csv.gz` → `iris`). */
export const datasetName = (file: string): string => sourceName(file);

/** True when a file in a `--data` folder is a data file (any format grove reads). */
function isDataFile(name: string): boolean {
  const lower = name.toLowerCase();
  return dataFileExtensions().some((e) => lower.endsWith(e));
}

/**
 * Data sources named by `--data` (files, or every data file in a folder), filtered by `--datasets`;
 * `inFolders` receives the files found in a folder (rather than named).
 */
export function findDataFiles(paths: readonly string[], only?: readonly string[], inFolders?: Set<string>): string[] {
  const files: string[] = [];
  for (const p of paths) {
    if (isKindSpec(p)) files.push(p);
    else if (!existsSync(p)) throw new GroveError('no such file or folder', { file: p });
    else if (statSync(p).isDirectory()) {
      for (const f of readdirSync(p).sort())
        if (isDataFile(f)) {
          files.push(join(p, f));
          inFolders?.add(join(p, f));
        }
    } else files.push(p);
  }
  const names = files.map(datasetName);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup)
    throw new GroveError(
      `two data files are named '${dup}' (${files.filter((f) => datasetName(f) === dup).join(', ')})`,
    );
  if (!only) return files;
  for (const d of only) if (!names.includes(d)) throw new GroveError(`no data set named '${d}' in ${paths.join(', ')}`);
  return files.filter((f) => only.includes(datasetName(f)));
}

/** Row indices of each fold, per repeat, as the workers will compute them (only sizes are needed here). */
export function nonEmptyFolds(
  data: Dataset,
  folds: number,
  repeats: number,
  seed: number,
): Array<{ repeat: number; fold: number; trainRows: number }> {
  const out: Array<{ repeat: number; fold: number; trainRows: number }> = [];
  for (let r = 0; r < repeats; r++) {
    const assignment = stratifiedFolds(data.labels, data.classes.length, folds, repeatSeed(seed, r));
    const sizes = new Array<number>(folds).fill(0);
    for (const g of assignment) sizes[g]++;
    sizes.forEach((size, f) => size > 0 && out.push({ repeat: r, fold: f, trainRows: data.nRows - size }));
  }
  return out;
}

/**
 * Read a data set once in the main thread: its description, content hash and folds (workers read
 * it again). The hash is of the data read, not of the file, so the same data from another folder
 * or another format is the same data set.
 */
export async function describeDataset(
  file: string,
  folds: number,
  repeats: number,
  seed: number,
  warn?: (message: string) => void,
  read: SourceReadOptions = {},
): Promise<{ info: DatasetInfo; data: Dataset }> {
  const data = await readSource(file, { ...read, ...(warn ? { onWarning: warn } : {}) });
  if (data.nRows === 0) throw new GroveError('no data rows', { file });
  const numeric = data.features.filter((f) => f.kind === 'numeric').length;
  const info: DatasetInfo = {
    name: datasetName(file),
    file,
    rows: data.nRows,
    features: data.features.length,
    numeric,
    categorical: data.features.length - numeric,
    classes: data.classes.length,
    foldsPlanned: nonEmptyFolds(data, folds, repeats, seed).length,
    classLabels: data.classes.map(String),
    sha256: datasetHash(data),
  };
  return { info, data };
}
