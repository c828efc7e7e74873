import { writeFileAtomic } from '../io/atomic.js';

/** A warning on stderr (never on stdout, which may be piped data). */
export function warn(message: string): void {
  process.stderr.write(`grove: warning: ${message}\n`);
}

/** Write a command's result to `--out` atomically, or to stdout. */
export function emit(text: string, out?: string): void {
  if (out) writeFileAtomic(out, text);
  else process.stdout.write(text);
}
