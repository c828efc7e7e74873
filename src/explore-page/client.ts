import { Pending } from './pending.js';
import type { GrowProgress, Loaded, Reply, Request } from './protocol.js';

/** The rejection of a request whose worker was restarted: not an error to show. */
export class Cancelled extends Error {}

/**
 * One Web Worker running the page's worker code (from a Blob URL, which works from file://),
 * holding the data set (or none, until the user opens a file): `call` sends a request and
 * resolves with its reply. `restart` drops the worker with whatever it is computing (its pending
 * requests reject with `Cancelled`) and starts a fresh one, which loads the data set the page's
 * data keeper holds then.
 */
export class WorkerClient {
  private worker!: Worker;
  /** Requests waiting for their replies, each with the callback that hears its progress. */
  private readonly pending = new Pending<unknown, ((p: GrowProgress) => void) | undefined>();
  private loaded!: Promise<Loaded>;

  constructor(
    private readonly url: string,
    /** The worker's name (its role in the page: 'grower', 'helper', 'cv'), as the browser's tools show it. */
    private readonly name: string,
    /** A port the data keeper sends the data set it holds over (each start loads it). */
    private readonly dataPort: () => MessagePort,
    private readonly onError: (message: string) => void,
    /** Runs after each start (the first, and every restart's), once its load has been sent. */
    private readonly onStart?: (client: WorkerClient) => void,
    /** Hears the worker's news of no request (its helper fell silent). */
    private readonly onNotice?: (notice: 'helper-silent') => void,
  ) {
    this.start();
  }

  private start(): void {
    this.worker = new Worker(this.url, { name: this.name });
    this.worker.onmessage = (e: MessageEvent<Reply>) => {
      const reply = e.data;
      if ('notice' in reply) this.onNotice?.(reply.notice);
      else if ('progress' in reply) this.pending.extra(reply.id)?.(reply.progress);
      else this.pending.settle(reply.id, reply.ok ? { value: reply.result } : { error: new Error(reply.error) });
    };
    this.worker.onerror = (e) => this.onError(`worker error: ${e.message}`);
    this.load();
    this.onStart?.(this);
  }

  /** Have the worker load the data set the keeper holds now (requests sent later wait for it). */
  private load(): void {
    const port = this.dataPort();
    this.loaded = this.send<Loaded>({ type: 'load', port }, undefined, [port]);
    // Whoever waits on it hears a refusal; unwatched (the CV worker at rest) it is no page error.
    this.loaded.catch(() => undefined);
  }

  /**
   * The data set the keeper holds now loaded into the worker as it is (no new worker to start and
   * compile): only when it works on no request, so nothing of the data set before is dropped.
   */
  reload(): void {
    if (this.busy()) throw new Error(`the ${this.name} worker is busy: restart it instead`);
    this.load();
  }

  private send<T>(req: Request, progress?: (p: GrowProgress) => void, transfer: Transferable[] = []): Promise<T> {
    const { id, reply } = this.pending.open(progress);
    this.worker.postMessage({ ...req, id }, transfer);
    return reply as Promise<T>;
  }

  /** The reply to `load`: the names the controls offer (or the data's refusal). */
  ready(): Promise<Loaded> {
    return this.loaded;
  }

  /** Send `req`; `progress` hears the news the worker sends before the reply (a grow's). */
  call<T>(req: Request, progress?: (p: GrowProgress) => void): Promise<T> {
    return this.loaded.then(() => this.send<T>(req, progress));
  }

  /** Send `req`, moving `transfer` (a MessagePort) to the worker. */
  transfer<T>(req: Request, transfer: Transferable[]): Promise<T> {
    return this.loaded.then(() => this.send<T>(req, undefined, transfer));
  }

  /** Whether a request is still being worked on. */
  busy(): boolean {
    return this.pending.size > 0;
  }

  restart(): void {
    this.worker.terminate();
    this.pending.rejectAll(() => new Cancelled('cancelled'));
    this.start();
  }
}
