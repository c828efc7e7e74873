/**
 * grove for Node: everything in the browser-safe entry plus file and database readers, model
 * files, and worker threads for `fit(data, { threads })` (optimal trees too), a forest's
 * `predict(rows, { threads })` and `shapValues(model, rows, { threads })`.
 */
import './learn/threads/parallel-grow.js';
import './ensemble/threads/parallel-forest.js';
import './ensemble/threads/parallel-sums.js';
import './explain/threads/parallel-shap.js';
import './optimal/threads/parallel-search.js';

export * from './index.js';
export { loadAnyModel, loadForest, loadModel, saveModel } from './io/model-file.js';
export { DATA_FORMATS, type DataFormat, dataFileExtensions } from './sources/formats.js';
export {
  type DataSource,
  openSource,
  type ReadProgress,
  readDataset,
  readParquet,
  readSource,
  registerSourceKind,
  type SourceKind,
  type SourceReadOptions,
} from './sources/index.js';
