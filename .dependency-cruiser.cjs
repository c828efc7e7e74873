// Import boundaries (docs/architecture.md): folders are layers, imports point down the list, no
// cycles, and the browser-safe core never reaches Node built-ins or Node-only folders.
const LAYERS = [
  'core', 'sql', 'data', 'criteria', 'options', 'model', 'split', 'learn', 'prune', 'optimal', 'algorithms', 'ensemble',
  'engines',
  'eval', 'explain', 'export', 'io', 'sources', 'report', 'explore', 'explore-page', 'compare', 'cli',
];
// Node-only code: everything else must run in a browser or a worker.
const NODE_ONLY = [
  '^src/node\\.ts$', '^src/cli/', '^src/io/', '^src/engines/', '^src/sources/', '^src/compare/', '^src/learn/threads/', '^src/ensemble/threads/', '^src/explain/threads/', '^src/optimal/threads/',
  '^src/explore/scripts\\.ts$',
];

// The modules that import an optional package (DuckDB, pg, apache-arrow; src/core/optional.ts), and
// the ones only they import: each is loaded with import() through loadOptional, so a user without
// the package gets a message naming it instead of a failed start.
const OPTIONAL_USERS = [
  '^src/engines/(duckdb|duckdb-vectors|postgres)\\.ts$',
  '^src/sources/(duckdb|parquet|parquet-writer|arrow-ipc)\\.ts$',
  // The explore page's reader worker: esbuild bundles apache-arrow into it; the page starts it when a file is opened.
  '^src/explore-page/(reader|read-file)\\.ts$',
];

const layerRules = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `layer-${layer}`,
  comment: `${layer}/ may import only from itself and the layers below it`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: { path: `^src/(${LAYERS.slice(i + 1).join('|')})/` },
}));

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    ...layerRules,
    {
      name: 'no-entry-imports',
      comment: 'the entry points (index.ts, node.ts) import the library; nothing imports them back',
      severity: 'error',
      from: { path: '^src/.+/' },
      to: { path: '^src/(index|node)\\.ts$' },
    },
    {
      name: 'core-no-node-builtins',
      comment: 'the browser-safe core imports no node: module',
      severity: 'error',
      from: { path: '^src/', pathNot: NODE_ONLY },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'core-no-node-only-modules',
      comment: 'the browser-safe core imports no Node-only module (CLI, file I/O, threads)',
      severity: 'error',
      from: { path: '^src/', pathNot: NODE_ONLY },
      to: { path: NODE_ONLY },
    },
    {
      name: 'formats-through-the-table',
      comment: 'a data file is read through its entry in src/sources/formats.ts, the one table of formats',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/sources/(formats|index)\\.ts$' },
      to: { path: '^src/sources/(delimited|jsonl|arrow-ipc|parquet-file)\\.ts$' },
    },
    {
      name: 'optional-packages-in-their-modules',
      comment: 'only the modules loaded on demand import DuckDB, pg or apache-arrow (types excepted)',
      severity: 'error',
      from: { path: '^src/', pathNot: OPTIONAL_USERS },
      to: { path: 'node_modules/(@duckdb/|pg/|apache-arrow/)', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'optional-modules-on-demand',
      comment: 'a module that imports an optional package is loaded with import() (through loadOptional)',
      severity: 'error',
      from: { path: '^src/', pathNot: OPTIONAL_USERS },
      to: { path: OPTIONAL_USERS, dynamic: false, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js'], exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
