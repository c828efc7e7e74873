/**
 * grove for Node: everything in the browser-safe entry plus file readers, model files, and
 * worker threads for `fit(data, { threads })`.
 */
import './learn/threads/parallel-grow.js';

export * from './index.js';
export { writeFileAtomic } from './io/atomic.js';
export { loadModel, saveModel } from './io/model-file.js';
export { MIN_PARALLEL_WORK } from './learn/threads/parallel-grow.js';
export * from './sources/index.js';
