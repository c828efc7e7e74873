/**
 * Worker for test/fuzz/arrow-damaged.test.ts: writes each damaged Arrow IPC file and reads it with
 * the built reader (dist/sources/arrow-ipc.js), reporting the outcome. It announces each file
 * before reading it, so the test can tell a hang from a failure and go on in a new worker.
 */
import { unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';

const { readArrowIpc } = await import(join(workerData.dist, 'sources/arrow-ipc.js'));
const { GroveError } = await import(join(workerData.dist, 'core/errors.js'));

for (const c of workerData.cases) {
  const bytes = new Uint8Array(workerData.good[c.format]).slice();
  bytes[c.bit >> 3] ^= 1 << (c.bit & 7);
  const path = join(workerData.dir, `${c.format}-${c.bit}.arrow${c.gzip ? '.gz' : ''}`);
  writeFileSync(path, c.gzip ? gzipSync(bytes) : bytes);
  parentPort.postMessage({ type: 'start', id: c.id, path });
  let outcome;
  try {
    const data = await readArrowIpc(path, c.gzip, {});
    outcome = { kind: 'read', rows: data.nRows };
  } catch (err) {
    const grove = err instanceof GroveError;
    outcome = { kind: grove ? 'grove' : 'other', message: grove ? err.message : String(err?.stack ?? err) };
  }
  unlinkSync(path);
  parentPort.postMessage({ type: 'done', id: c.id, path, ...outcome });
}
