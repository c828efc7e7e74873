/**
 * The page's reader worker: reads a file the user opened (read-file.ts) and hands over the data
 * set as `grove explore` would embed it, sampled over the page's row limit as the CLI samples: its
 * columns to the page's data keeper (over the request's port), its shape to the page. A worker of
 * its own, started the first time a file is opened: its readers (Parquet, apache-arrow for Arrow
 * IPC) load in no growing worker, and reading never holds up a grow.
 */
import { GroveError } from '../core/errors.js';
import { idLikeColumns } from '../data/describe.js';
import { dataShape, type EmbeddedData, packedBuffers } from '../explore/embedded.js';
import { prepareForPage } from '../explore/prepare.js';
import type { Opened, ReadReply, ReadRequest } from './protocol.js';
import { readPageFile } from './read-file.js';

/**
 * Read `file` (class column `target`), sampled over `maxRows` rows: the same Dataset, checks and
 * warnings as the CLI's.
 */
async function openFile({
  file,
  maxRows,
  seed,
  target,
}: ReadRequest): Promise<{ data: EmbeddedData; warnings: string[] }> {
  const warnings: string[] = [];
  const read = await readPageFile(file, { onWarning: (m) => warnings.push(m), ...(target ? { target } : {}) });
  for (const { name, reason } of idLikeColumns(read))
    warnings.push(`column '${name}' looks like a row identifier (${reason}): a tree learns nothing from it`);
  return { data: prepareForPage(read, file.name, maxRows, seed, true), warnings };
}

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<ReadRequest>) => void) | null;
  postMessage(message: ReadReply, transfer?: Transferable[]): void;
};

scope.onmessage = async (e) => {
  try {
    const { data, warnings } = await openFile(e.data);
    // The shape first: moving the columns leaves `data`'s arrays empty.
    const opened: Opened = { data: dataShape(data), warnings };
    // Moved, not copied, and past the page's main thread: it passes the port on, never the columns.
    e.data.columns.postMessage(data, packedBuffers(data));
    e.data.columns.close();
    scope.postMessage({ ok: true, opened });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    scope.postMessage({ ok: false, error: err instanceof GroveError ? message : `internal error: ${message}` });
  }
};
