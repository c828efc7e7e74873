/** Worker thread of read-aside.ts: reads the data it is given and posts the rows back (or `{ ok: false }`). */
import { parentPort, workerData } from 'node:worker_threads';
import { type Dataset, plainData } from '../data/dataset.js';
import { openRows, openSource } from '../sources/index.js';
import type { AsideReply, AsideRequest } from './read-aside.js';
import { readData } from './read-progress.js';

const { dataPath, flags, options } = workerData as AsideRequest;
const warnings: string[] = [];
let reply: AsideReply;
try {
  const data: Dataset = await readData(
    openRows(dataPath, flags, openSource),
    { ...options, onWarning: (w) => warnings.push(w) },
    false,
  );
  reply = { ok: true, data: plainData(data), warnings };
} catch {
  reply = { ok: false };
}
parentPort!.postMessage(reply);
