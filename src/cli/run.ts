import { Command, CommanderError } from 'commander';
import { GroveError, printable } from '../core/errors.js';
import { VERSION } from '../core/version.js';
import { guardTempFilesOnSignal, removeTempFiles, settleSignals } from '../io/temp-files.js';
import { registerCompare } from './commands/compare.js';
import { registerCriteria } from './commands/criteria.js';
import { registerCv } from './commands/cv.js';
import { registerEvaluate } from './commands/evaluate.js';
import { registerExplain } from './commands/explain.js';
import { registerExplore } from './commands/explore.js';
import { registerExport } from './commands/export.js';
import { registerFit } from './commands/fit.js';
import { trainsInEngine } from './commands/fit-engine.js';
import { registerInfo } from './commands/info.js';
import { registerPredict } from './commands/predict.js';
import { registerReport } from './commands/report.js';
import { registerScore } from './commands/score.js';
import { registerShow } from './commands/show.js';
import { releaseYoungGeneration } from './young-generation.js';

/** Exit code for bad input (file, option, data). */
export const EXIT_BAD_INPUT = 2;

export function buildProgram(): Command {
  const program = new Command('grove')
    .description('decision trees with interchangeable node-splitting measures')
    .version(VERSION)
    // Usage errors from commander become one `grove: ...` line, like every other bad input.
    .configureOutput({
      // The text quotes the user's arguments: escaped and bounded like every message.
      outputError: (text, write) =>
        write(
          `grove: ${printable(
            text
              .replace(/^error: /, '')
              .trimEnd()
              .replace(/\n\(Did you mean/g, ' (Did you mean'),
          )} (see grove --help)\n`,
        ),
    })
    .exitOverride();
  registerFit(program);
  registerPredict(program);
  registerEvaluate(program);
  registerExplain(program);
  registerCv(program);
  registerShow(program);
  registerExport(program);
  registerScore(program);
  registerInfo(program);
  registerCriteria(program);
  registerCompare(program);
  registerReport(program);
  registerExplore(program);
  program.commands.forEach((c) => c.exitOverride().configureOutput(program.configureOutput()));
  // main.ts holds V8's young generation small; only a fit inside a database keeps it so.
  program.hook('preAction', (_, action) => {
    if (!(action.name() === 'fit' && trainsInEngine(action.args[0], action.opts()))) releaseYoungGeneration();
  });
  return program;
}

let streamsGuarded = false;

/**
 * A failed write to stdout or stderr arrives as an 'error' event, which unhandled ends Node with a
 * stack trace. A closed pipe (`grove predict … | head -1`) ends the run quietly with exit 0, as
 * Unix tools end on SIGPIPE; another failure (a full disk: ENOSPC) is one line and exit 2.
 */
function guardStandardStreams(): void {
  if (streamsGuarded) return;
  streamsGuarded = true;
  const fail = (stream: string) => (err: NodeJS.ErrnoException) => {
    removeTempFiles();
    if (err.code === 'EPIPE') process.exit(0);
    if (stream === 'stdout') {
      try {
        process.stderr.write(`grove: cannot write the standard output (${err.code ?? err.message})\n`);
      } catch {
        // stderr is gone too: the exit code alone says it
      }
    }
    process.exit(EXIT_BAD_INPUT);
  };
  process.stdout.on('error', fail('stdout'));
  process.stderr.on('error', fail('stderr'));
}

/**
 * Run the CLI and return the exit code: 0 ok, 2 bad input (one line on stderr, no stack trace),
 * 1 an internal error (set GROVE_DEBUG=1 for the stack).
 */
export async function run(argv: string[]): Promise<number> {
  guardTempFilesOnSignal();
  guardStandardStreams();
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Commander has already printed its message; help and version are not errors.
      return err.exitCode === 0 ? 0 : EXIT_BAD_INPUT;
    }
    if (err instanceof GroveError) {
      process.stderr.write(`grove: ${err.message}\n`);
      return EXIT_BAD_INPUT;
    }
    if (process.env.GROVE_DEBUG) throw err;
    process.stderr.write(
      `grove: internal error: ${printable((err as Error)?.message ?? String(err))} (set GROVE_DEBUG=1 for details)\n`,
    );
    return 1;
  } finally {
    // A Ctrl-C that came during the last (synchronous) write still ends the run as Ctrl-C does.
    await settleSignals();
  }
}
