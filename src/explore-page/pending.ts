/**
 * Requests sent to a worker by id, each waiting for its reply: a reply settles its request, and a
 * worker that stops rejects every request still waiting. `Extra` is kept with a request (e.g. the
 * callback that hears its progress).
 */
export class Pending<T, Extra = undefined> {
  private readonly waiting = new Map<number, { resolve(value: T): void; reject(e: Error): void; extra: Extra }>();
  private nextId = 1;

  /** A new request: its id (to send with it) and the promise of its reply. */
  open(extra: Extra): { id: number; reply: Promise<T> } {
    const id = this.nextId++;
    const reply = new Promise<T>((resolve, reject) => this.waiting.set(id, { resolve, reject, extra }));
    return { id, reply };
  }

  /** Whether request `id` is still waiting. */
  has(id: number): boolean {
    return this.waiting.has(id);
  }

  /** What request `id` was opened with, while it waits. */
  extra(id: number): Extra | undefined {
    return this.waiting.get(id)?.extra;
  }

  /** Settle request `id` (if it still waits) with its reply, or with an error. */
  settle(id: number, reply: { value: T } | { error: Error }): void {
    const w = this.waiting.get(id);
    if (!w) return;
    this.waiting.delete(id);
    if ('error' in reply) w.reject(reply.error);
    else w.resolve(reply.value);
  }

  /** Reject every request still waiting, each with its own `error()`. */
  rejectAll(error: () => Error): void {
    const dropped = [...this.waiting.values()];
    this.waiting.clear();
    for (const w of dropped) w.reject(error());
  }

  /** How many requests wait. */
  get size(): number {
    return this.waiting.size;
  }
}
