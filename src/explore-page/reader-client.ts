import { Cancelled } from './client.js';
import type { Opened, ReadReply, ReadRequest } from './protocol.js';

/** A file read: its shape and warnings, and the port its columns wait on (for the data keeper). */
export interface OpenedFile extends Opened {
  columns: MessagePort;
}

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
  read(request: Omit<ReadRequest, 'columns'>): Promise<OpenedFile> {
    if (this.inFlight) {
      this.worker?.terminate();
      this.worker = undefined;
      this.inFlight.reject(new Cancelled('cancelled'));
    }
    const worker = (this.worker ??= new Worker(this.url, { name: 'reader' }));
    // The reader sends the columns into one end; the page hands the other to the data keeper.
    const { port1: columns, port2 } = new MessageChannel();
    return new Promise<OpenedFile>((resolve, reject) => {
      const done = () => {
        if (this.inFlight === flight) this.inFlight = undefined;
      };
      const flight = { reject };
      this.inFlight = flight;
      worker.onmessage = (e: MessageEvent<ReadReply>) => {
        done();
        if (e.data.ok) resolve({ ...e.data.opened, columns });
        else {
          columns.close();
          reject(new Error(e.data.error));
        }
      };
      worker.onerror = (e) => {
        done();
        // A worker that failed outright (out of memory on a huge file) is started afresh next time.
        this.worker?.terminate();
        this.worker = undefined;
        columns.close();
        reject(new Error(`cannot read ${request.file.name}: ${e.message || 'the reader failed'}`));
      };
      const req: ReadRequest = { ...request, columns: port2 };
      worker.postMessage(req, [port2]);
    });
  }
}
