import type { Clock } from '../base/clock';
import type { Disposable } from '../base/disposable';
import type { EngineEvent } from '../engine/events';

/** A live panel gets at most this many messages a second, however fast the engine goes. */
export const TIMELINE_MESSAGES_PER_SECOND = 10;

/**
 * Collects a session's events and hands them on in batches, at most one batch per
 * `1000 / TIMELINE_MESSAGES_PER_SECOND` ms: a simulation at 600× emits thousands of events a
 * second, and a message per event would keep the webview busy parsing instead of drawing.
 * The first event after a quiet spell goes out at once; later ones wait for the interval.
 */
export class EventBatcher implements Disposable {
  private pending: EngineEvent[] = [];
  private timer: Disposable | undefined;
  private lastFlush = -Infinity;
  private disposed = false;

  constructor(
    private readonly clock: Clock,
    private readonly deliver: (events: EngineEvent[]) => void,
    private readonly intervalMs = 1000 / TIMELINE_MESSAGES_PER_SECOND,
  ) {}

  push(event: EngineEvent): void {
    if (this.disposed) return;
    this.pending.push(event);
    if (this.timer) return;
    const wait = Math.max(0, this.lastFlush + this.intervalMs - this.clock.now());
    this.timer = this.clock.schedule(wait, () => this.flush());
  }

  /** Hands on what is pending now (a session that stops sends its last events without waiting). */
  flush(): void {
    this.timer?.dispose();
    this.timer = undefined;
    if (this.pending.length === 0 || this.disposed) return;
    const batch = this.pending;
    this.pending = [];
    this.lastFlush = this.clock.now();
    this.deliver(batch);
  }

  dispose(): void {
    this.disposed = true;
    this.timer?.dispose();
    this.timer = undefined;
    this.pending = [];
  }
}
