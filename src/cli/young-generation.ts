import { setFlagsFromString } from 'node:v8';

/**
 * Keep V8's young generation at the size it has for the rest of the process. A fit inside a
 * database holds little in JavaScript (counts and the tree), but the young generation grows with
 * what survives its collections, whatever the amount alive, to 32 MB of the process's memory.
 * V8 reads the growth factor each time it would grow the young generation.
 */
export function keepYoungGenerationSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}
