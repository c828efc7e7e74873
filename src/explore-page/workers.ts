/**
 * The page's workers, all running the page's worker code from one Blob URL: growing and inspecting
 * in the grower, with a helper worker that takes some of each tree's subtrees as it becomes free
 * (grow-in-two.ts), linked again whenever either restarts (the helper restarts on an error: the
 * grower grows the tasks it lost); cross-validation in another, restarted when a regrow makes its
 * result stale, so a slow CV never holds up the next tree.
 */
import type { EmbeddedData } from '../explore/embedded.js';
import { WorkerClient } from './client.js';

export class PageWorkers {
  readonly grower: WorkerClient;
  readonly helper: WorkerClient;
  private cvWorker: WorkerClient | undefined;
  private started = false;

  constructor(
    private readonly url: string,
    private data: EmbeddedData | undefined,
    private readonly showError: (message: string) => void,
  ) {
    const relink = () => {
      if (this.started) this.link();
    };
    const helper: WorkerClient = new WorkerClient(url, 'helper', data, () => helper.restart(), relink);
    this.helper = helper;
    // A helper the grower found silent (hung, or killed without a word) is replaced.
    this.grower = new WorkerClient(url, 'grower', data, showError, relink, () => helper.restart());
    this.started = true;
    this.link();
  }

  /** A new channel between the grower and the helper, an end sent to each (the grower's last link closes). */
  private link(): void {
    const { port1, port2 } = new MessageChannel();
    this.grower.transfer({ type: 'link', role: 'grower', port: port1 }, [port1]).catch(() => undefined);
    this.helper.transfer({ type: 'link', role: 'helper', port: port2 }, [port2]).catch(() => undefined);
  }

  /** The CV worker, started the first time side-by-side mode needs it. */
  cv(): WorkerClient {
    this.cvWorker ??= new WorkerClient(this.url, 'cv', this.data, this.showError);
    return this.cvWorker;
  }

  /** Drop a cross-validation still running: its result is stale. */
  dropCv(): void {
    if (this.cvWorker?.busy()) this.cvWorker.restart();
  }

  /** Every worker started again on `data` (what it was computing dropped; grower and helper linked again). */
  useData(data: EmbeddedData): void {
    this.data = data;
    for (const w of [this.grower, this.helper, this.cvWorker]) {
      w?.setData(data);
      w?.restart();
    }
  }
}
