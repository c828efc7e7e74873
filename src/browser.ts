/**
 * `grove/browser`: the browser-safe API (everything `grove` exports: `fit`, `datasetFromRows`,
 * `encodeTable`, `parseArff`, `crossValidate`, `scoreAttributes`, the exporters, ...), for a web
 * page or a worker. `dist/browser/grove.js` is the same, bundled into one ES module.
 */
export * from './index.js';
