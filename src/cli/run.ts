import { Command, CommanderError } from 'commander';
import { GroveError, printable } from '../core/errors.js';
import { VERSION } from '../core/version.js';
import { guardTempFilesOnSignal, removeTempFiles, settleSignals } from '../io/temp-files.js';
import { releaseYoungGeneration } from './young-generation.js';

/** Exit code for bad input (file, option, data). */
export const EXIT_BAD_INPUT = 2;

/**
 * Each command's module, loaded only when needed: a run of one command (`grove predict …`) loads
 * that command's code alone, which shortens every run's start; help and unknown names load all.
 */
const COMMANDS: ReadonlyArray<readonly [name: string, register: (program: Command) => Promise<unknown>]> = [
  ['fit', async (p) => (await import('./commands/fit.js')).registerFit(p)],
  ['predict', async (p) => (await import('./commands/predict.js')).registerPredict(p)],
  ['evaluate', async (p) => (await import('./commands/evaluate.js')).registerEvaluate(p)],
  ['explain', async (p) => (await import('./commands/explain.js')).registerExplain(p)],
  ['cv', async (p) => (await import('./commands/cv.js')).registerCv(p)],
  ['show', async (p) => (await import('./commands/show.js')).registerShow(p)],
  ['export', async (p) => (await import('./commands/export.js')).registerExport(p)],
  ['score', async (p) => (await import('./commands/score.js')).registerScore(p)],
  ['info', async (p) => (await import('./commands/info.js')).registerInfo(p)],
  ['criteria', async (p) => (await import('./commands/criteria.js')).registerCriteria(p)],
  ['compare', async (p) => (await import('./commands/compare.js')).registerCompare(p)],
  ['report', async (p) => (await import('./commands/report.js')).registerReport(p)],
  ['explore', async (p) => (await import('./commands/explore.js')).registerExplore(p)],
];

/** The CLI's program; given the command about to run (`argv[0]`), only that command is registered. */
export async function buildProgram(command?: string): Promise<Command> {
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
  const only = COMMANDS.find(([name]) => name === command);
  for (const [, register] of only ? [only] : COMMANDS) await register(program);
  program.commands.forEach((c) => c.exitOverride().configureOutput(program.configureOutput()));
  // main.ts holds V8's young generation small; only a fit inside a database keeps it so.
  program.hook('preAction', async (_, action) => {
    if (action.name() === 'fit') {
      const { trainsInEngine } = await import('./commands/fit-engine.js');
      if (trainsInEngine(action.args[0], action.opts())) return;
    }
    releaseYoungGeneration();
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
    await (await buildProgram(argv[0])).parseAsync(argv, { from: 'user' });
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
