import cliProgress from 'cli-progress';

function clock(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/**
 * Progress of a comparison on stderr: cells done and time left. On a terminal, a bar redrawn in
 * place (cli-progress); otherwise (a pipe, a CI log) a plain line every `intervalMs` and at the end.
 * Time left weighs each cell by its estimated cost (rows × features), so a big data set's folds
 * count for more than a small one's.
 */
export class Progress {
  private readonly bar?: cliProgress.SingleBar;
  private readonly started = Date.now();
  private lastLine = Date.now();
  private cells = 0;
  private cost = 0;

  constructor(
    private readonly totalCells: number,
    private readonly totalCost: number,
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly intervalMs = 10_000,
    private readonly label = 'grove compare',
  ) {
    if (stream.isTTY && totalCells > 0) {
      this.bar = new cliProgress.SingleBar(
        {
          stream,
          format:
            `${label} {bar} {percentage}% | {cells}/{totalCells} cells | {elapsed} elapsed | ~{left} left | ` +
            '{current}',
          barsize: 24,
          hideCursor: true,
          clearOnComplete: true,
          etaBuffer: 200,
          fps: 5,
        },
        cliProgress.Presets.shades_classic,
      );
      this.bar.start(Math.max(1, totalCost), 0, this.payload(''));
    }
  }

  private secondsLeft(): number {
    const elapsed = (Date.now() - this.started) / 1000;
    return this.cost > 0 ? (elapsed * (this.totalCost - this.cost)) / this.cost : NaN;
  }

  private payload(current: string) {
    return {
      cells: this.cells,
      totalCells: this.totalCells,
      elapsed: clock((Date.now() - this.started) / 1000),
      left: clock(this.secondsLeft()),
      current,
    };
  }

  /** One more cell finished, of estimated cost `cost`; `current` names it. */
  tick(cost: number, current: string): void {
    this.cells++;
    this.cost += cost;
    if (this.bar) {
      this.bar.update(this.cost, this.payload(current));
      return;
    }
    const now = Date.now();
    if (now - this.lastLine >= this.intervalMs || this.cells === this.totalCells) {
      this.lastLine = now;
      const pct = this.totalCost > 0 ? Math.floor((100 * this.cost) / this.totalCost) : 100;
      this.stream.write(
        `${this.label}: ${this.cells}/${this.totalCells} cells (${pct}%), ` +
          `${clock((now - this.started) / 1000)} elapsed, ~${clock(this.secondsLeft())} left\n`,
      );
    }
  }

  /** Remove the bar (a terminal line is left clean for what follows). */
  stop(): void {
    this.bar?.stop();
  }
}
