/**
 * JSON Lines files (`.jsonl`, `.ndjson`): the file's lines, as Node's `readline` splits them, read by
 * {@link readJsonLineTexts} (src/data/jsonl.ts), which the explore page's reader shares.
 */

import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import type { Dataset } from '../data/dataset.js';
import { readJsonLineTexts } from '../data/jsonl.js';
import type { TypedReadOptions } from '../data/typed-fields.js';

/** Read JSON Lines from a stream of byte chunks; blank lines are skipped; rows are numbered by line. */
export async function readJsonLines(chunks: AsyncIterable<Uint8Array>, options: TypedReadOptions): Promise<Dataset> {
  return readJsonLineTexts(
    createInterface({ input: Readable.from(chunks), crlfDelay: Number.POSITIVE_INFINITY }),
    options,
  );
}
