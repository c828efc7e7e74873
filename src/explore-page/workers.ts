/**
 * The page's workers, all running the page's worker code from one Blob URL: growing and inspecting
 * in the grower, with a helper worker that takes some of each tree's subtrees as it becomes free
 * (grow-in-two.ts), linked again whenever either restarts (the helper restarts on an error: the
 * grower grows the tasks it lost); cross-validation in another, restarted when a regrow makes its
 * result stale, so a slow CV never holds up the next tree. The data set's columns live in the data
 * keeper (keeper.ts), which sends each worker a copy as it starts: the main thread passes ports.
 */

import { WorkerClient } from './client.js';
import type { KeeperRequest } from './protocol.js';

export class PageWorkers {
  readonly grower: WorkerClient;
  readonly helper: WorkerClient;
  private cvWorker: WorkerClient | undefined;
  private readonly keeper: Worker;
  private started = false;

  /** `json`: the data set `grove explore` embedded, as page JSON ('null': none). */
  constructor(
    private readonly url: string,
    keeperUrl: string,
    json: string,
    private readonly showError: (message: string) => void,
  ) {
    this.keeper = new Worker(keeperUrl, { name: 'data' });
    this.keeper.onerror = (e) => showError(`worker error: ${e.message}`);
    this.tellKeeper({ type: 'hold', json });
    const relink = () => {
      if (this.started) this.link();
    };
    const port = () => this.dataPort();
    const helper: WorkerClient = new WorkerClient(url, 'helper', port, () => helper.restart(), relink);
    this.helper = helper;
    // A helper the grower found silent (hung, or killed without a word) is replaced.
    this.grower = new WorkerClient(url, 'grower', port, showError, relink, () => helper.restart());
    this.started = true;
    this.link();
  }

  private tellKeeper(req: KeeperRequest): void {
    this.keeper.postMessage(req, req.type === 'serve' || req.json === undefined ? [req.port] : []);
  }

  /** A port the keeper sends a copy of the data set it holds over. */
  private dataPort(): MessagePort {
    const { port1, port2 } = new MessageChannel();
    this.tellKeeper({ type: 'serve', port: port1 });
    return port2;
  }

  /** A new channel between the grower and the helper, an end sent to each (the grower's last link closes). */
  private link(): void {
    const { port1, port2 } = new MessageChannel();
    this.grower.transfer({ type: 'link', role: 'grower', port: port1 }, [port1]).catch(() => undefined);
    this.helper.transfer({ type: 'link', role: 'helper', port: port2 }, [port2]).catch(() => undefined);
  }

  /** The CV worker, started the first time side-by-side mode needs it. */
  cv(): WorkerClient {
    this.cvWorker ??= new WorkerClient(this.url, 'cv', () => this.dataPort(), this.showError);
    return this.cvWorker;
  }

  /** Drop a cross-validation still running: its result is stale. */
  dropCv(): void {
    if (this.cvWorker?.busy()) this.cvWorker.restart();
  }

  /**
   * The data set whose columns wait on `columns` (a read's) held from now on, by every worker: an
   * idle one loads it as it is; a busy one is started again on it (what it was computing dropped;
   * grower and helper linked again). The helper works only for the grower: idle when it is.
   */
  useData(columns: MessagePort): void {
    this.tellKeeper({ type: 'hold', port: columns });
    const idle = !this.grower.busy();
    for (const w of [this.grower, this.helper]) {
      if (idle && !w.busy()) w.reload();
      else w.restart();
    }
    if (this.cvWorker?.busy()) this.cvWorker.restart();
    else this.cvWorker?.reload();
  }
}
