import type { EngineEvent } from '../engine/events';
import { laneKeyOf } from './laneKeys';

/**
 * Events a timeline keeps by default: a 24 h simulation of a 10-container pod fits. At the default
 * period of 10 s a probe makes 8 640 attempts a day, and a failing one as many `Unhealthy`
 * events; 30 probes of which half fail come to about 400 000 lines, with room for results,
 * container changes and worker restarts.
 */
export const DEFAULT_TIMELINE_CAPACITY = 600_000;

/** What a lane let go of: the panel says so, rather than showing the gap as quiet time. */
export interface DroppedEvents {
  readonly lane: string;
  readonly count: number;
  /** The time of the newest dropped event: the lane is complete only after it. */
  readonly throughT: number;
}

/** One lane's events, oldest first, each with its arrival number; dropped from the front. */
class LaneQueue {
  private events: EngineEvent[] = [];
  private seqs: number[] = [];
  private head = 0;
  dropped = 0;
  droppedThroughT = 0;

  push(seq: number, event: EngineEvent): void {
    this.events.push(event);
    this.seqs.push(seq);
  }

  get size(): number {
    return this.events.length - this.head;
  }

  dropOldest(): void {
    const old = this.events[this.head] as EngineEvent;
    this.events[this.head] = undefined as unknown as EngineEvent;
    this.head++;
    this.dropped++;
    this.droppedThroughT = old.t;
    // Compact once half the array is dead: amortized O(1) a drop, no unbounded growth.
    if (this.head > 1024 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.seqs = this.seqs.slice(this.head);
      this.head = 0;
    }
  }

  collect(into: { seq: number; event: EngineEvent }[]): void {
    for (let i = this.head; i < this.events.length; i++) into.push({ seq: this.seqs[i] as number, event: this.events[i] as EngineEvent });
  }
}

/**
 * A timeline's events (docs/design.md §2), bounded: at most `capacity` in all, so memory stays flat
 * however long a session runs. When full, the *largest* lane (`laneKeyOf`) gives up its oldest
 * event, so a chatty probe never pushes out a pod's readiness or a quiet probe's history; what was
 * dropped is known per lane. Pure: no editor API, no I/O.
 */
export class TimelineStore {
  private readonly lanes = new Map<string, LaneQueue>();
  private seq = 0;
  private kept = 0;
  /** The lane that gives up events when a small lane grows: the largest at the last look. */
  private victim: LaneQueue | undefined;

  constructor(readonly capacity = DEFAULT_TIMELINE_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer, not ${capacity}`);
  }

  push(event: EngineEvent): void {
    const key = laneKeyOf(event);
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = new LaneQueue();
      this.lanes.set(key, lane);
    }
    lane.push(this.seq++, event);
    if (++this.kept > this.capacity) this.dropFrom(lane);
  }

  /** Every event ever pushed, kept or not. */
  get total(): number {
    return this.seq;
  }

  get size(): number {
    return this.kept;
  }

  /** The kept events in the order they arrived. */
  events(): EngineEvent[] {
    const all: { seq: number; event: EngineEvent }[] = [];
    for (const lane of this.lanes.values()) lane.collect(all);
    all.sort((a, b) => a.seq - b.seq);
    return all.map((entry) => entry.event);
  }

  /** The lanes that dropped events, and how many. */
  dropped(): DroppedEvents[] {
    const out: DroppedEvents[] = [];
    for (const [lane, queue] of this.lanes) if (queue.dropped > 0) out.push({ lane, count: queue.dropped, throughT: queue.droppedThroughT });
    return out;
  }

  /** A lane at or above its fair share pays for its own growth; a smaller one is paid for by the largest. */
  private dropFrom(grown: LaneQueue): void {
    const fairShare = this.capacity / this.lanes.size;
    let lane = grown;
    if (grown.size < fairShare) {
      if (!this.victim || this.victim.size < fairShare) this.victim = this.largestLane();
      lane = this.victim;
    }
    lane.dropOldest();
    this.kept--;
  }

  private largestLane(): LaneQueue {
    let largest: LaneQueue | undefined;
    for (const lane of this.lanes.values()) if (!largest || lane.size > largest.size) largest = lane;
    return largest as LaneQueue;
  }
}
