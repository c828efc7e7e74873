// Bundles the browser build with esbuild (`npm run build:browser`, part of `npm run build`):
// dist/explore-page/page.js, worker.js, reader.js and keeper.js, the scripts `grove explore` inlines into its page, and
// dist/browser/grove.js, `grove/browser` as one ES module for a <script type="module">.

import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// zod (the model-file and option schemas) re-exports every message locale as `z.locales`, which
// grove never reads: a namespace export cannot be tree-shaken, so the locale list is cut to English
// (the default zod configures itself with). That keeps 260 kB of translations out of the page.
const englishZodOnly = {
  name: 'english-zod-only',
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${'node_modules'}/zod/`)
        ? {
            path: resolve(dirname(args.importer), '../locales/en.js').replace(/en\.js$/, 'index-en.js'),
            namespace: 'zod-en',
          }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-en' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path.replace(/index-en\.js$/, 'en.js'))};`,
      resolveDir: dirname(args.path),
    }));
  },
};

const common = {
  plugins: [englishZodOnly],
  bundle: true,
  minify: true,
  target: 'es2022',
  platform: 'browser',
  legalComments: 'none',
  logLevel: 'warning',
};

await Promise.all([
  build({
    ...common,
    entryPoints: [resolve(root, 'src/explore-page/page.ts')],
    outfile: resolve(root, 'dist/explore-page/page.js'),
    format: 'iife',
  }),
  build({
    ...common,
    entryPoints: [resolve(root, 'src/explore-page/worker.ts')],
    outfile: resolve(root, 'dist/explore-page/worker.js'),
    format: 'iife',
  }),
  build({
    ...common,
    entryPoints: [resolve(root, 'src/explore-page/reader.ts')],
    outfile: resolve(root, 'dist/explore-page/reader.js'),
    format: 'iife',
  }),
  build({
    ...common,
    entryPoints: [resolve(root, 'src/explore-page/keeper.ts')],
    outfile: resolve(root, 'dist/explore-page/keeper.js'),
    format: 'iife',
  }),
  build({
    ...common,
    entryPoints: [resolve(root, 'src/browser.ts')],
    outfile: resolve(root, 'dist/browser/grove.js'),
    format: 'esm',
  }),
]);
