import { spawn } from 'node:child_process';
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { GroveError } from '../../core/errors.js';
import { explorePage } from '../../explore/html.js';
import { DEFAULT_MAX_ROWS, prepareForPage } from '../../explore/prepare.js';
import { readPageScripts } from '../../explore/scripts.js';
import { writeFileAtomic } from '../../io/atomic.js';
import { refuseOutputOverInput } from '../../io/same-file.js';
import { openRows, openSource } from '../../sources/index.js';
import { intOption } from '../args.js';
import { note } from '../output.js';
import {
  addColumnFlags,
  addSourceFlags,
  type ColumnFlags,
  columnReadOptions,
  type SourceFlags,
} from '../read-flags.js';
import { warnIdLike } from '../read-labelled.js';
import { readData } from '../read-progress.js';
import { DATA_HELP } from './fit.js';

/** Open `file` in the desktop's browser, without waiting for it. */
function openInBrowser(file: string): void {
  const url = pathToFileURL(resolve(file)).href;
  const [cmd, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  const child = spawn(cmd, args, { detached: true, stdio: 'ignore' });
  child.on('error', () => note(`could not start ${cmd}; open ${url} yourself`));
  child.unref();
}

/** The flags that say how to read DATA, refused without it: a file opened in the page is read with the defaults. */
function refuseReadFlags(command: Command): void {
  const keep = new Set(['out', 'open', 'maxRows', 'seed', 'progress']);
  for (const option of command.options) {
    const key = option.attributeName();
    if (!keep.has(key) && command.getOptionValueSource(key) === 'cli')
      throw new GroveError(
        `${option.long} says how to read DATA, and no DATA was given (a file opened in the page is read with the ` +
          'defaults: the last column is the class)',
        { code: 'E_OPTION' },
      );
  }
}

export function registerExplore(program: Command): void {
  const cmd = program
    .command('explore')
    .description(
      'write an interactive page (one HTML file, works offline) to grow, inspect and compare trees on DATA, ' +
        'or on a file opened in the page',
    )
    .argument('[data]', `${DATA_HELP}; without it the page holds no data until a file is opened in it`)
    .option('--out <file>', 'where to write the page', 'explore.html')
    .option('--open', 'open the page in the browser');
  addSourceFlags(addColumnFlags(cmd), 'explore')
    .option(
      '--max-rows <n>',
      `rows the page holds; a larger data set is sampled, stratified by class (default ${DEFAULT_MAX_ROWS})`,
      intOption('--max-rows', 1),
      DEFAULT_MAX_ROWS,
    )
    .option('--seed <n>', 'seed of that sample (default 1)', intOption('--seed', 0), 1)
    .action(
      async (
        dataPath: string | undefined,
        flags: ColumnFlags & SourceFlags & { out: string; open?: boolean; maxRows: number; seed: number },
        command: Command,
      ) => {
        const settings = { maxRows: flags.maxRows, seed: flags.seed };
        if (dataPath === undefined) {
          refuseReadFlags(command);
          writeFileAtomic(flags.out, explorePage(undefined, readPageScripts(), settings));
          note(`explore page with no data (open a file in it) → ${flags.out}`);
          if (flags.open) openInBrowser(flags.out);
          return;
        }
        refuseOutputOverInput([{ flag: '--out', path: flags.out }], [dataPath]);
        const scripts = readPageScripts();
        const source = openRows(dataPath, flags, openSource);
        const data = await readData(source, columnReadOptions(flags), flags.progress);
        warnIdLike(data);
        const embedded = prepareForPage(
          data,
          source.spec === dataPath ? basename(dataPath) : source.spec,
          flags.maxRows,
          flags.seed,
        );
        writeFileAtomic(flags.out, explorePage(embedded, scripts, settings));
        const sampled = embedded.sample
          ? ` (a stratified sample of ${embedded.sample.rows} of ${data.nRows} rows: over --max-rows)`
          : '';
        note(`explore page for ${embedded.labels.length} rows${sampled} → ${flags.out}`);
        if (flags.open) openInBrowser(flags.out);
      },
    );
}
