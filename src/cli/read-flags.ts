import type { Command } from 'commander';
import { DEFAULT_NA_TOKENS } from '../data/encode.js';
import { parseEncodingName, TEXT_ENCODINGS, type TextEncodingName } from '../data/text-decode.js';
import { listOption } from './args.js';
import { warn } from './output.js';

/** Flags of every command that reads a data file: how its text is read. */
export interface ReadFlags {
  encoding?: TextEncodingName;
  na?: string[];
}

/** Add `--encoding` and `--na` to a command that reads a data file. */
export function addReadFlags(cmd: Command): Command {
  const defaults = DEFAULT_NA_TOKENS.filter((t) => t !== '').join(', ');
  return cmd
    .option(
      '--encoding <name>',
      `text encoding of the data file: ${TEXT_ENCODINGS.join(', ')} (default utf8; a UTF-16 BOM is recognised)`,
      (raw: string) => parseEncodingName(raw, '--encoding'),
    )
    .option(
      '--na <tokens>',
      `CSV cell texts read as missing, comma-separated, instead of the default (${defaults}); empty cells are always missing`,
      listOption,
    );
}

/** The reader options the flags ask for; warnings go to stderr. */
export function readOptionsFromFlags(flags: ReadFlags): {
  encoding?: TextEncodingName;
  naTokens?: string[];
  onWarning: (message: string) => void;
} {
  return {
    ...(flags.encoding !== undefined ? { encoding: flags.encoding } : {}),
    ...(flags.na !== undefined ? { naTokens: ['', ...flags.na] } : {}),
    onWarning: warn,
  };
}
