import type { EngineEvent } from '../../core/engine/events';

/** How many events a session keeps for the timeline: the newest, the rest are dropped. */
export const SESSION_EVENT_CAPACITY = 5000;

/**
 * The newest events of a session, in a fixed ring: a session can emit thousands of events a
 * second for hours, and memory must not grow with it. Pure (no editor API).
 */
export class EventLog {
  private readonly ring: (EngineEvent | undefined)[];
  private next = 0;
  /** Every event ever pushed, kept or not. */
  total = 0;

  constructor(readonly capacity = SESSION_EVENT_CAPACITY) {
    this.ring = new Array<EngineEvent | undefined>(Math.max(1, capacity));
  }

  push(event: EngineEvent): void {
    this.ring[this.next] = event;
    this.next = (this.next + 1) % this.ring.length;
    this.total++;
  }

  get size(): number {
    return Math.min(this.total, this.ring.length);
  }

  /** The kept events, oldest first. */
  events(): EngineEvent[] {
    const size = this.size;
    const start = (this.next - size + this.ring.length) % this.ring.length;
    const out: EngineEvent[] = new Array(size);
    for (let i = 0; i < size; i++) out[i] = this.ring[(start + i) % this.ring.length] as EngineEvent;
    return out;
  }
}
