/** grove for Node: everything in the browser-safe entry plus file readers and model files. */
export * from './index.js';
export * from './data/node.js';
export { saveModel, loadModel } from './io/model-file.js';
export { writeFileAtomic } from './io/atomic.js';
