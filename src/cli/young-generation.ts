import { setFlagsFromString } from 'node:v8';

/**
 * Keep V8's young generation at the size it has. It grows with what survives its collections,
 * whatever the amount alive, to 32 MB of the process's memory; loading the CLI's modules alone
 * grows it to 16 MB. A fit inside a database holds little in JavaScript (counts and the tree),
 * so it keeps the young generation small for its whole run. V8 reads the growth factor each time
 * it would grow the young generation.
 */
export function holdYoungGeneration(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}

/** Let the young generation grow again as V8 does by default (a fit in memory allocates much). */
export function releaseYoungGeneration(): void {
  setFlagsFromString('--semi-space-growth-factor=2');
}
