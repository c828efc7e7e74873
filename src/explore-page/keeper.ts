/**
 * The page's data keeper: a small worker that holds the data set's columns and hands each growing
 * worker a copy of its own, over a port, whenever one starts. The page's main thread only passes
 * ports and never copies the columns: giving the workers a data set, or restarting one, costs it
 * no time that grows with the data.
 */
import { type EmbeddedData, packedBuffers, packedCopy } from '../explore/embedded.js';
import type { KeeperRequest } from './protocol.js';

/** The data set held (none until the page has one), packed; a read's arrives over its port. */
let held: Promise<EmbeddedData | undefined> = Promise.resolve(undefined);

/** The data set that `port`'s one message brings. */
function arriving(port: MessagePort): Promise<EmbeddedData> {
  return new Promise((resolve) => {
    port.onmessage = (e: MessageEvent<EmbeddedData>) => {
      port.close();
      resolve(e.data);
    };
  });
}

const scope = self as unknown as { onmessage: ((e: MessageEvent<KeeperRequest>) => void) | null };

scope.onmessage = (e) => {
  const req = e.data;
  if (req.type === 'hold') {
    // Set at once: a `serve` after this `hold` hands out this data set, not the one before.
    const data =
      req.json !== undefined ? Promise.resolve(JSON.parse(req.json) as EmbeddedData | null) : arriving(req.port);
    held = data.then((d) => (d ? packedCopy(d) : undefined));
    return;
  }
  const { port } = req;
  void held.then((d) => {
    const copy = d && packedCopy(d);
    port.postMessage(copy, copy ? packedBuffers(copy) : []);
    port.close();
  });
};
