import { printable } from '../core/errors.js';
import { writeFileAtomic } from '../io/atomic.js';

/** A warning on stderr (never on stdout, which may be piped data), escaped and bounded as messages are. */
export function warn(message: string): void {
  process.stderr.write(`grove: warning: ${printable(message)}\n`);
}

/** A line of news on stderr (`grove: … → model.json`), escaped and bounded as messages are. */
export function note(message: string): void {
  process.stderr.write(`grove: ${printable(message)}\n`);
}

/** Write a command's result to `--out` atomically, or to stdout. */
export function emit(text: string, out?: string): void {
  if (out) writeFileAtomic(out, text);
  else process.stdout.write(text);
}
