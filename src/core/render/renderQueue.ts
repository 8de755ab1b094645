import type { Disposable } from '../base/disposable';

/**
 * At most one render in flight and one waiting, for one chart or overlay: an editor asks again
 * after every pause in typing, and a render takes longer than a pause. A request while one runs
 * takes the waiting place (an older waiting request is dropped: the newer text supersedes it). A
 * finished render whose result a waiting one will replace is not delivered: it describes text
 * already edited, and its ranges would land on the wrong lines.
 */
export class RenderQueue<T> implements Disposable {
  private running: AbortController | undefined;
  private waiting: ((signal: AbortSignal) => Promise<T>) | undefined;
  private disposed = false;
  /** How many renders started and how many waiting requests a newer one replaced: for tests and measurements. */
  started = 0;
  replaced = 0;

  constructor(
    private readonly deliver: (value: T) => void,
    /** A render that threw (a bug: renders report failures as values); the queue goes on. */
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  request(render: (signal: AbortSignal) => Promise<T>): void {
    if (this.disposed) return;
    if (this.running) {
      if (this.waiting) this.replaced += 1;
      this.waiting = render;
      return;
    }
    void this.run(render);
  }

  /** A render runs or waits. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  private async run(render: (signal: AbortSignal) => Promise<T>): Promise<void> {
    const controller = new AbortController();
    this.running = controller;
    this.started += 1;
    let outcome: { ok: true; value: T } | { ok: false } = { ok: false };
    try {
      outcome = { ok: true, value: await render(controller.signal) };
    } catch (error) {
      // A throw must not wedge the queue: the next request still runs.
      this.onError(error);
    }
    this.running = undefined;
    if (this.disposed) return;
    const next = this.waiting;
    this.waiting = undefined;
    if (next) return void this.run(next);
    if (outcome.ok) this.deliver(outcome.value);
  }

  dispose(): void {
    this.disposed = true;
    this.waiting = undefined;
    this.running?.abort();
  }
}
