import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GroveError } from '../core/errors.js';
import type { PageScripts } from './html.js';

/** Where `npm run build:browser` writes the page's bundles: dist/explore-page/, beside dist/explore/. */
export const BUNDLE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../explore-page');

/** The bundled page, worker, reader and keeper scripts; GroveError when the browser build has not been run. */
export function readPageScripts(dir = BUNDLE_DIR): PageScripts {
  const read = (name: string) => {
    const path = resolve(dir, name);
    try {
      return readFileSync(path, 'utf8');
    } catch {
      throw new GroveError(
        `the page's script ${path} is missing: run \`npm run build\` (it bundles the browser build)`,
        {
          code: 'E_IO',
        },
      );
    }
  };
  return { page: read('page.js'), worker: read('worker.js'), reader: read('reader.js'), keeper: read('keeper.js') };
}
