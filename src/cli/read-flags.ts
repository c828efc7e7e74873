import type { Command } from 'commander';
import { GroveError } from '../core/errors.js';
import { parseEncodingName, TEXT_ENCODINGS, type TextEncodingName } from '../data/text-decode.js';
import { DEFAULT_NA_TOKENS } from '../data/tokens.js';
import { listOption } from './args.js';
import { warn } from './output.js';

/** `--target`, `--categorical`, `--numeric`, `--drop` and `--features`: what each column of the data is. */
export interface ColumnFlags {
  target?: string;
  categorical?: string[];
  numeric?: string[];
  drop?: string[];
  features?: string[];
}

/** Add {@link ColumnFlags} to a command that reads a data source. */
export function addColumnFlags(cmd: Command): Command {
  return cmd
    .option('--target <column>', 'class column (default: the last column)')
    .option('--categorical <columns>', 'treat these columns as categorical (comma-separated)', listOption)
    .option(
      '--numeric <columns>',
      'read these columns as numbers (comma-separated); cells that are not numbers become missing, with a warning',
      listOption,
    )
    .option('--drop <columns>', 'leave these columns out (comma-separated), e.g. an ID or a leak', listOption)
    .option(
      '--features <columns>',
      'keep only these feature columns (comma-separated; the target is kept)',
      listOption,
    );
}

/** Help of `--float32`. */
export const FLOAT32_HELP = 'hold numeric columns as float32 (half the memory; values rounded as scikit-learn does)';

/** `--table` and `--query` (the rows inside a database source) and `--no-progress`. */
export interface SourceFlags extends ReadFlags {
  table?: string;
  query?: string;
  /** False with --no-progress. */
  progress?: boolean;
}

/**
 * Add {@link SourceFlags} and the {@link ReadFlags} to a command that reads a data source; `use`
 * says what the command does with the rows ("train on").
 */
export function addSourceFlags(cmd: Command, use: string): Command {
  return addReadFlags(cmd)
    .option('--table <name>', `the table to ${use} inside a database source`)
    .option('--query <sql>', `the query whose rows to ${use} inside a database source`)
    .option(
      '--no-progress',
      'no progress on stderr (shown on a terminal for work over a second: reading, growing, explaining)',
    );
}

/** The reader options of the column and read flags; warnings go to stderr. */
export function columnReadOptions(
  flags: ColumnFlags & ReadFlags,
): ReturnType<typeof readOptionsFromFlags> & ColumnFlags {
  return {
    target: flags.target,
    categorical: flags.categorical,
    numeric: flags.numeric,
    drop: flags.drop,
    features: flags.features,
    ...readOptionsFromFlags(flags),
  };
}

/**
 * `options` for a read without a target (every column a feature) that must keep column `name`
 * (the class column read as text): `features` then lists it too.
 */
export function keepingColumn<T extends { features?: string[] }>(options: T, name: string): T {
  return options.features === undefined ? options : { ...options, features: [...options.features, name] };
}

/** Flags of every command that reads a data file: how its text is read. */
export interface ReadFlags {
  encoding?: TextEncodingName;
  na?: string[];
  delimiter?: string;
}

/** `--delimiter`'s value: one character, or `tab` / `\t` for a tab. */
export function delimiterOption(raw: string): string {
  const d = raw === 'tab' || raw === '\\t' ? '\t' : raw;
  if (!/^[\x20-\x7e\t]$/.test(d) || d === '"')
    throw new GroveError(`option --delimiter expects one character other than a quote (or 'tab'), got '${raw}'`, {
      code: 'E_OPTION',
    });
  return d;
}

/** Help of `--delimiter`. */
export const DELIMITER_HELP =
  "field delimiter of CSV text: one character, or 'tab' " +
  "(default: a comma, or ';', tab or '|' when the header has no comma)";

/** Add `--encoding` and `--na` to a command that reads a data file. */
function addReadFlags(cmd: Command): Command {
  const defaults = DEFAULT_NA_TOKENS.filter((t) => t !== '').join(', ');
  return cmd
    .option(
      '--encoding <name>',
      `text encoding of the data file: ${TEXT_ENCODINGS.join(', ')} (default utf8; a UTF-16 BOM is recognised)`,
      (raw: string) => parseEncodingName(raw, '--encoding'),
    )
    .option('--delimiter <char>', DELIMITER_HELP, delimiterOption)
    .option(
      '--na <tokens>',
      `CSV cell texts read as missing, comma-separated, instead of the default (${defaults}); ` +
        'empty cells are always missing',
      listOption,
    );
}

/** The reader options the flags ask for; warnings go to stderr. */
export function readOptionsFromFlags(flags: ReadFlags): {
  encoding?: TextEncodingName;
  naTokens?: string[];
  delimiter?: string;
  onWarning: (message: string) => void;
} {
  return {
    ...(flags.encoding !== undefined ? { encoding: flags.encoding } : {}),
    ...(flags.na !== undefined ? { naTokens: ['', ...flags.na] } : {}),
    ...(flags.delimiter !== undefined ? { delimiter: flags.delimiter } : {}),
    onWarning: warn,
  };
}
