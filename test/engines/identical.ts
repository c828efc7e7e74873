/** Shared by the engine tests: fit in memory and inside an engine, compare the model files. */
import { fit } from '../../src/algorithms/fit.js';
import type { Engine } from '../../src/engines/engine.js';
import { fitInEngine } from '../../src/engines/fit.js';
import type { EngineColumns, EngineSource } from '../../src/engines/schema.js';
import type { FitOptions } from '../../src/options/options.js';
import { readDataset } from '../../src/sources/file-source.js';

/** The model file of `fit(readDataset(csv), { bins: 255, ...options })`, as JSON text. */
export async function memoryModel(csv: string, options: FitOptions, sampleWeight?: Float64Array): Promise<string> {
  const data = await readDataset(csv);
  return JSON.stringify(fit(data, { bins: 255, ...options, ...(sampleWeight ? { sampleWeight } : {}) }).toJSON());
}

/** The model file of the same fit inside `engine` (levels counted in batches of `batchCells`), as JSON text. */
export async function engineModel(
  engine: Engine,
  source: EngineSource,
  options: FitOptions,
  columns: EngineColumns = {},
  batchCells?: number,
): Promise<string> {
  return JSON.stringify((await fitInEngine(engine, { source, columns, batchCells }, options)).toJSON());
}
