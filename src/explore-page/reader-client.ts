import { Cancelled } from './client.js';
import type { Opened, ReadReply, ReadRequest } from './protocol.js';

/**
 * The reader worker (reader.ts), started the first time a file is opened: one read at a time. A
 * file opened while another is read drops that read (the worker is restarted; its promise
 * rejects with `Cancelled`): the page shows the file opened last.
 */
export class ReaderClient {
  private worker: Worker | undefined;
  private inFlight: { reject(e: Error): void } | undefined;

  constructor(private readonly url: string) {}

  /** `request.file` read and sampled, or the reader's one-line error. */
  read(request: ReadRequest): Promise<Opened> {
    if (this.inFlight) {
      this.worker?.terminate();
      this.worker = undefined;
      this.inFlight.reject(new Cancelled('cancelled'));
    }
    const worker = (this.worker ??= new Worker(this.url, { name: 'reader' }));
    return new Promise<Opened>((resolve, reject) => {
      const done = () => {
        if (this.inFlight === flight) this.inFlight = undefined;
      };
      const flight = { reject };
      this.inFlight = flight;
      worker.onmessage = (e: MessageEvent<ReadReply>) => {
        done();
        if (e.data.ok) resolve(e.data.opened);
        else reject(new Error(e.data.error));
      };
      worker.onerror = (e) => {
        done();
        // A worker that failed outright (out of memory on a huge file) is started afresh next time.
        this.worker?.terminate();
        this.worker = undefined;
        reject(new Error(`cannot read ${request.file.name}: ${e.message || 'the reader failed'}`));
      };
      worker.postMessage(request);
    });
  }
}
