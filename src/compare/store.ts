import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { GroveError } from '../core/errors.js';
import { optionsJson } from '../eval/configs.js';
import type { CompareSettings, DatasetInfo, ExplanationRecord, FoldRecord, ModelRecord } from '../eval/results.js';
import { writeFileAtomic } from '../io/atomic.js';
import { type CellRecord, EXPLAIN_FOLD, MODEL_FOLD } from './task.js';

/** File in the output folder holding finished cells, one JSON line each, appended as they finish. */
export const CELLS_FILE = 'cells.jsonl';
const CELLS_FORMAT = 'grove-compare-cells';

/**
 * Version 3: lines may hold explanations. Version 2 (read too: its runs resume, explaining anew):
 * data sets are identified by name and content hash (version 1: by the file's checksum).
 */
const CELLS_VERSION = 3;
const READABLE_VERSIONS: ReadonlySet<number> = new Set([2, 3]);

interface Header {
  format: typeof CELLS_FORMAT;
  version: number;
  settings: CompareSettings;
  datasets: Array<{ name: string; sha256?: string }>;
}

/**
 * A finished cell as logged: the configuration's options travel with it, so a resumed run only
 * reuses identical work.
 */
export type CellLine =
  | { options: string; fold: FoldRecord }
  | { options: string; model: ModelRecord }
  | { options: string; explanation: ExplanationRecord };

/** The data set and configuration a line belongs to. */
function cellOf(line: CellLine): { dataset: string; config: string } {
  return 'fold' in line ? line.fold : 'model' in line ? line.model : line.explanation;
}

/** Identity of a cell: data set, configuration (label and options), repeat, fold (-1 = model). */
export function lineKey(dataset: string, config: string, options: string, repeat: number, fold: number): string {
  return [dataset, config, options, repeat, fold].join('\u0000');
}

export function cellLineKey(line: CellLine): string {
  const { dataset, config } = cellOf(line);
  if ('fold' in line) return lineKey(dataset, config, line.options, line.fold.repeat, line.fold.fold);
  return lineKey(dataset, config, line.options, 0, 'model' in line ? MODEL_FOLD : EXPLAIN_FOLD);
}

/**
 * Read the cells a previous run in `dir` finished. Only lines made with the same folds, repeats and
 * seed, and data sets of the same name and content hash (wherever and in whatever format they are
 * now), are returned; a line cut short by a hard stop is
 * ignored. Returns [] when there is no log.
 */
export function readCells(dir: string, settings: CompareSettings, datasets: readonly DatasetInfo[]): CellLine[] {
  const file = join(dir, CELLS_FILE);
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, 'utf8').split('\n');
  let header: Header;
  try {
    header = JSON.parse(lines[0]) as Header;
  } catch {
    throw new GroveError(`cannot resume: not a grove cells log`, { file });
  }
  if (header.format !== CELLS_FORMAT) throw new GroveError(`cannot resume: not a grove cells log`, { file });
  if (!READABLE_VERSIONS.has(header.version))
    throw new GroveError(
      `cannot resume: that run was logged by another version of grove (cells log version ${header.version}, ` +
        `this grove reads ${CELLS_VERSION}); start afresh without --resume, or use another --out folder`,
      { file },
    );
  const s = header.settings;
  if (s.folds !== settings.folds || s.repeats !== settings.repeats || s.seed !== settings.seed) {
    throw new GroveError(
      `cannot resume: that run used --folds ${s.folds} --repeats ${s.repeats} --seed ${s.seed}; ` +
        'use the same, or another --out folder',
      { file },
    );
  }
  const sameData = new Set(
    header.datasets.filter((d) => datasets.some((x) => x.name === d.name && x.sha256 === d.sha256)).map((d) => d.name),
  );
  const out: CellLine[] = [];
  for (const text of lines.slice(1)) {
    if (!text.trim()) continue;
    let line: CellLine;
    try {
      line = JSON.parse(text) as CellLine;
    } catch {
      continue; // the last line of a run killed mid-write
    }
    if (sameData.has(cellOf(line).dataset)) out.push(line);
  }
  return out;
}

/**
 * The log of finished cells. Started afresh (with the kept lines of a resumed run rewritten
 * first, atomically); each cell is then one `write` of one line, so an interrupted run loses at
 * most the line being written.
 */
export class CellLog {
  private fd: number;

  constructor(dir: string, settings: CompareSettings, datasets: readonly DatasetInfo[], kept: readonly CellLine[]) {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, CELLS_FILE);
    const header: Header = {
      format: CELLS_FORMAT,
      version: CELLS_VERSION,
      settings,
      datasets: datasets.map((d) => ({ name: d.name, sha256: d.sha256 })),
    };
    writeFileAtomic(file, `${[header, ...kept].map((x) => JSON.stringify(x)).join('\n')}\n`);
    try {
      this.fd = openSync(file, 'a');
    } catch (err) {
      throw new GroveError(`cannot write (${(err as NodeJS.ErrnoException).code})`, { file });
    }
  }

  append(options: object, record: CellRecord): void {
    writeSync(this.fd, `${JSON.stringify({ options: optionsJson(options), ...record })}\n`);
  }

  close(): void {
    closeSync(this.fd);
  }
}
