/** The options of the delimited-text reader and the reader's interface, with the check of their types. */

import { GroveError } from '../core/errors.js';
import type { Dataset } from './dataset.js';
import { checkEncodeOptions, type EncodeOptions } from './encode-options.js';
import type { TextEncodingName } from './text-decode.js';

/** Options of `createDelimitedReader` and `parseCsvText`. */
export interface DelimitedReadOptions extends EncodeOptions {
  /** The field delimiter, one ASCII character: `,` (default) or `\t` for TSV, `;`, `|`. */
  delimiter?: string;
  /** The first non-blank line holds the column names (default true); without it columns are named `x0, x1, ...`. */
  header?: boolean;
  /**
   * The file's text encoding (default `utf8`; a UTF-16 BOM is recognised whatever this says).
   * Bytes that are not valid UTF-8 are an error naming the line, never replaced silently.
   */
  encoding?: TextEncodingName;
  /**
   * Cell texts (after trimming) that mean "missing"; default `DEFAULT_NA_TOKENS`
   * (empty, `?`, `NA`, `N/A`, `NaN`, `null`).
   */
  naTokens?: readonly string[];
  /**
   * Called with each warning (one line, no prefix): a mostly-numeric column that a few odd cells
   * turned categorical, or a `numeric` column whose odd cells were read as missing. Default: none.
   */
  onWarning?: (message: string) => void;
  /** Expected size of the input in bytes, if known: columns are sized for it up front. */
  sizeHint?: number;
}

/** A reader fed byte chunks in order; `createDelimitedReader` makes one. */
export interface DelimitedReader {
  /**
   * Parse the next chunk of the input. The reader does not keep `chunk`: the caller may reuse it.
   * After a GroveError (from `push` or `finish`) the reader is spent.
   */
  push(chunk: Uint8Array): void;
  /** End of input: the Dataset. Throws GroveError on bad input (as `push` may). */
  finish(): Dataset;
}

export function checkReadOptions(options: DelimitedReadOptions): void {
  if (typeof options !== 'object' || options === null)
    throw new GroveError('reader options must be an object', { code: 'E_OPTION' });
  const d = options.delimiter;
  if (d !== undefined && (typeof d !== 'string' || !/^[\x20-\x7e\t]$/.test(d) || /["\r\n]/.test(d)))
    throw new GroveError(`the delimiter must be one ASCII character other than a quote, got ${JSON.stringify(d)}`, {
      code: 'E_OPTION',
    });
  if (options.onWarning !== undefined && typeof options.onWarning !== 'function')
    throw new GroveError('option onWarning must be a function', { code: 'E_OPTION' });
  if (options.sizeHint !== undefined && !(typeof options.sizeHint === 'number' && options.sizeHint >= 0))
    throw new GroveError('option sizeHint must be a number of bytes', { code: 'E_OPTION' });
  checkEncodeOptions(options, 'createDelimitedReader');
}
