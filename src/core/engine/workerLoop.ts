import type { Clock } from '../base/clock';
import type { Disposable } from '../base/disposable';

export interface LoopTarget {
  doProbe(done: (keepGoing: boolean) => void): void;
}

export interface LoopOptions {
  readonly clock: Clock;
  readonly periodMs: number;
  /** W4: wait this long before the first attempt (0 when the kubelet did not just start). */
  readonly initialJitterMs: number;
  /** Called once when the loop ends: the worker exited, or the loop was disposed. */
  readonly onExit: () => void;
}

/**
 * The kubelet worker's `run` loop on an injected clock. Go's ticker semantics: fixed-rate ticks on
 * a grid from the loop's start, an immediate first probe, at most one tick buffered while a probe
 * runs (the rest dropped), and a manual trigger (W13) that probes now and restarts the grid.
 */
export class WorkerLoop implements Disposable {
  private origin = 0;
  private timer: Disposable | undefined;
  private tickPending = false;
  private triggerPending = false;
  private busy = false;
  /** True until the first attempt: during the W4 sleep nothing is read from the channels. */
  private sleeping = true;
  private stopped = false;
  private exited = false;
  private readonly onTick = () => this.tick();
  private readonly onProbed = (keepGoing: boolean) => this.probed(keepGoing);

  private readonly clock: Clock;
  private readonly periodMs: number;
  private readonly initialJitterMs: number;
  private readonly onExit: () => void;

  constructor(
    private readonly target: LoopTarget,
    options: LoopOptions,
  ) {
    this.clock = options.clock;
    this.periodMs = options.periodMs;
    this.initialJitterMs = options.initialJitterMs;
    this.onExit = options.onExit;
  }

  start(): this {
    if (this.initialJitterMs > 0) this.timer = this.clock.schedule(this.initialJitterMs, () => this.begin());
    else this.begin();
    return this;
  }

  /** W13: a non-blocking send on a one-slot channel. */
  trigger(): void {
    if (this.stopped) return;
    this.triggerPending = true;
    if (!this.busy && !this.sleeping) this.next();
  }

  /** W14: idempotent; a probe in flight is not cancelled, the loop ends when it returns. */
  dispose(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.timer?.dispose();
    this.timer = undefined;
    if (!this.busy) this.exit();
  }

  private begin(): void {
    this.timer = undefined;
    this.sleeping = false;
    this.restartTicker();
    this.probe();
  }

  private restartTicker(): void {
    this.timer?.dispose();
    this.origin = this.clock.now();
    this.timer = this.clock.schedule(this.periodMs, this.onTick);
  }

  private tick(): void {
    const { clock, periodMs } = this;
    const elapsed = clock.now() - this.origin;
    const nextTick = this.origin + (Math.floor(elapsed / periodMs) + 1) * periodMs;
    this.timer = clock.schedule(nextTick - clock.now(), this.onTick);
    this.tickPending = true;
    if (!this.busy) this.next();
  }

  /** The `select`: a pending trigger (which restarts the grid) or a pending tick, else wait. */
  private next(): void {
    if (this.stopped) return;
    if (this.triggerPending) {
      this.triggerPending = false;
      this.tickPending = false;
      this.restartTicker();
    } else if (this.tickPending) {
      this.tickPending = false;
    } else return;
    this.probe();
  }

  private probe(): void {
    this.busy = true;
    this.target.doProbe(this.onProbed);
  }

  private probed(keepGoing: boolean): void {
    this.busy = false;
    if (!keepGoing || this.stopped) {
      this.stopped = true;
      this.timer?.dispose();
      this.exit();
      return;
    }
    this.next();
  }

  private exit(): void {
    if (this.exited) return;
    this.exited = true;
    this.onExit();
  }
}
