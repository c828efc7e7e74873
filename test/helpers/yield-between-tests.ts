/**
 * Give the event loop one full turn after every test. Many tests run the CLI with spawnSync; a file of
 * such synchronous tests would otherwise block the worker's loop for its whole run, and vitest's worker
 * RPC (60 s timeout) then fails with "Timeout calling onTaskUpdate" although every test passed.
 */
import { afterEach } from 'vitest';

afterEach(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
