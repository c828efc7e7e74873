import { GroveError } from '../../core/errors.js';
import { fitInEngine } from '../../engines/fit.js';
import { ENGINE_NAMES, type EngineName, isDatabaseSpec } from '../../engines/spec.js';
import type { DecisionTree } from '../../model/decision-tree.js';
import type { FitOptions } from '../../options/options.js';
import { parseSourceSpec } from '../../sources/engine-source.js';
import { engineProgress } from '../engine-progress.js';
import { note, warn } from '../output.js';
import { type ColumnFlags, type ReadFlags, readOptionsFromFlags } from '../read-flags.js';

/** `grove fit`'s flags for training inside a database. */
export interface EngineFlags {
  engine?: string;
  table?: string;
  query?: string;
  weight?: string;
}

/** `--engine`'s value, checked. */
export function engineOption(raw: string): EngineName {
  if (!(ENGINE_NAMES as readonly string[]).includes(raw))
    throw new GroveError(`option --engine expects one of ${ENGINE_NAMES.join(', ')}, got '${raw}'`, {
      code: 'E_OPTION',
    });
  return raw as EngineName;
}

/** True when `grove fit SOURCE` trains inside an engine rather than in memory (a database by default does). */
export function trainsInEngine(source: string, flags: EngineFlags): boolean {
  return flags.engine === undefined ? isDatabaseSpec(source) : flags.engine !== 'memory';
}

/**
 * Fit inside the engine `flags.engine` (default: the source's own), with its progress per level on
 * stderr (`engineProgress`); `label` names the source in the summary line.
 */
export async function fitWithEngine(
  sourceSpec: string,
  flags: EngineFlags & ColumnFlags & ReadFlags & { progress?: boolean },
  options: FitOptions,
): Promise<{ tree: DecisionTree; rows: number; label: string }> {
  const { naTokens, encoding } = readOptionsFromFlags(flags);
  if (isDatabaseSpec(sourceSpec) && (naTokens !== undefined || encoding !== undefined))
    throw new GroveError('--na and --encoding say how a data file is read, not a database source', {
      code: 'E_OPTION',
    });
  const spec = await parseSourceSpec(
    sourceSpec,
    { table: flags.table, query: flags.query },
    { delimiter: flags.delimiter, encoding, naTokens, onWarning: warn },
  );
  const engine = (flags.engine as EngineName | undefined) ?? spec.defaultEngine;
  const fits = spec.kind === 'file' ? engine === 'duckdb' : engine === spec.kind;
  if (!fits)
    throw new GroveError(
      spec.kind === 'file'
        ? `--engine ${engine} trains on a ${engine} database (${engine}://…), not on a file; ` +
            'files train with --engine duckdb or memory'
        : `${spec.label} is a ${spec.kind} source: train it with --engine ${spec.kind}`,
      { code: 'E_OPTION' },
    );
  const conn = await spec.connect();
  // Ctrl-C: stop the running query, drop the temporary objects, close the session, then exit
  // with one line. A second Ctrl-C stops at once.
  const stop = new AbortController();
  const onSignal = (): void => {
    if (stop.signal.aborted) process.exit(130);
    stop.abort();
    void conn.interrupt?.();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const progress = engineProgress(engine, { show: flags.progress !== false });
  let tree: DecisionTree | undefined;
  try {
    tree = await fitInEngine(
      conn,
      {
        source: spec.source,
        columns: { target: flags.target, categorical: flags.categorical, numeric: flags.numeric, weight: flags.weight },
        onLevel: progress.onLevel,
        signal: stop.signal,
      },
      options,
      { names: 'flags' },
    );
  } catch (e) {
    if (!stop.signal.aborted) throw e;
  } finally {
    progress.stop();
    await conn.close();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  if (!tree || stop.signal.aborted) {
    note(`interrupted; the temporary objects in ${spec.label} are removed`);
    process.exit(130);
  }
  return { tree, rows: progress.rows(), label: spec.label };
}
