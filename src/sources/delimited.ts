/**
 * CSV and TSV files into Datasets: the (gunzipped) byte chunks are pushed into the streaming
 * delimited reader (src/data/delimited.ts), so no file is ever held as one string. Every CSV/TSV
 * read of every command goes through {@link readDelimited}.
 */

import type { Dataset } from '../data/dataset.js';
import { createDelimitedReader, type DelimitedReadOptions } from '../data/delimited.js';

/** Read delimited text from a stream of byte chunks into a Dataset (header row first). */
export async function readDelimited(
  chunks: AsyncIterable<Uint8Array>,
  options: DelimitedReadOptions,
): Promise<Dataset> {
  const reader = createDelimitedReader(options);
  for await (const chunk of chunks) reader.push(chunk);
  return reader.finish();
}
