/**
 * What the model holds: every event received, or — while replaying — those up to the playhead.
 * Pure (node tests import it). Replay feeds the same model forward as the playhead moves and
 * rebuilds it from the start when the playhead goes back (the model only grows).
 */
import type { EngineEvent } from '../../../core/engine/events';
import { hasClusterBand } from '../../../core/timeline/clusterLanes';
import type { ModelSection } from '../../../core/timeline/sections';
import type { DroppedEvents } from '../../../core/timeline/store';
import { TimelineModel } from '../../../core/timeline/viewModel';

export class EventFeed {
  model: TimelineModel;
  /** Every event received, in arrival order (kept only for replay: otherwise the model's `events` are all of them). */
  private readonly all: EngineEvent[] = [];
  /** How many of `all` the model holds. */
  private fed = 0;
  private dropped: readonly DroppedEvents[] = [];
  /** The source's `now` (open spans reach here). */
  private sourceNow = 0;
  private lastT = 0;
  /** Replay: the model holds events up to here; `undefined`: everything. */
  private head: number | undefined;
  /** Bumped whenever the model changes (caches of labels and counts key on it). */
  version = 0;
  /** Bumped when lanes appear, a lane's row grows the cluster's band, or the model is rebuilt: rows must be laid out again. */
  structure = 0;
  private lanes = 0;
  /** Pod and container lanes with the cluster's band (their rows are taller). */
  private clusterRows = 0;
  /** Whether a pod was paused by a debugger (the legend's Debugger group shows). */
  private paused = false;

  /** `sections`: the runs the events are of, one after the other, when the timeline shows several (`sections.ts`). */
  constructor(
    readonly replayable: boolean,
    readonly sections: readonly ModelSection[] = [],
  ) {
    this.model = new TimelineModel(sections);
  }

  /** Everything received so far: `now` or the last event, whichever is later. */
  get end(): number {
    return Math.max(this.sourceNow, this.lastT);
  }

  get playhead(): number | undefined {
    return this.head;
  }

  /** Events received (all of them, not only those up to the playhead). */
  get received(): number {
    return this.replayable ? this.all.length : this.model.events.length;
  }

  get droppedEvents(): readonly DroppedEvents[] {
    return this.dropped;
  }

  /** Whether the model holds a cluster session's lines: a pod or container lane has the cluster's band. */
  get hasCluster(): boolean {
    return this.clusterRows > 0;
  }

  /** Whether the model holds a debugger's pause (or an attempt one failed). */
  get hasPauses(): boolean {
    return this.paused;
  }

  /** A `load`: starts over with these events. */
  reset(events: readonly EngineEvent[], dropped: readonly DroppedEvents[], now: number): void {
    this.model = new TimelineModel(this.sections);
    this.all.length = 0;
    this.fed = 0;
    this.head = undefined;
    this.lastT = 0;
    this.lanes = 0;
    this.clusterRows = 0;
    this.structure++;
    this.append(events, dropped, now);
  }

  /** An `append`: more events (a live session, or the rest of a large file). */
  append(events: readonly EngineEvent[], dropped: readonly DroppedEvents[], now: number): void {
    for (const event of events) if (event.t > this.lastT) this.lastT = event.t;
    this.sourceNow = Math.max(this.sourceNow, now);
    this.dropped = dropped;
    if (this.replayable) {
      for (const event of events) this.all.push(event);
      this.feedTo(this.head ?? Infinity);
    } else {
      this.model.append(events);
    }
    this.settle();
  }

  /** The session ended (or a live clock moved): open spans reach `now`. */
  advanceTo(now: number): void {
    if (now > this.sourceNow) this.sourceNow = now;
    if (this.head === undefined) this.model.advanceTo(now);
    this.version++;
  }

  /** Replay: the model shows events up to `t`; going back rebuilds it. `undefined`: everything. */
  seek(t: number | undefined): void {
    if (!this.replayable) return;
    const target = t === undefined || t >= this.end ? undefined : Math.max(0, t);
    const back = target !== undefined && (this.head === undefined || target < this.head);
    if (back) {
      this.model = new TimelineModel(this.sections);
      this.fed = 0;
      this.lanes = 0;
      this.clusterRows = 0;
      this.structure++;
    }
    this.head = target;
    this.feedTo(target ?? Infinity);
    this.settle();
  }

  private feedTo(t: number): void {
    const start = this.fed;
    let end = start;
    while (end < this.all.length && (this.all[end] as EngineEvent).t <= t) end++;
    if (end > start) this.model.append(this.all.slice(start, end));
    this.fed = end;
    this.model.advanceTo(t === Infinity ? this.end : t);
  }

  private settle(): void {
    this.model.markDropped(this.dropped);
    if (this.head === undefined) this.model.advanceTo(this.end);
    let lanes = 0;
    let clusterRows = 0;
    let paused = false;
    for (const pod of this.model.pods) {
      lanes++;
      if (hasClusterBand(pod)) clusterRows++;
      if (pod.pauses.length > 0) paused = true;
      for (const container of pod.containers) {
        lanes += 1 + container.probes.length;
        if (!paused) paused = container.probes.some((probe) => probe.pausedFailures > 0);
        if (hasClusterBand(container)) clusterRows++;
      }
    }
    if (lanes !== this.lanes || clusterRows !== this.clusterRows || paused !== this.paused) {
      this.lanes = lanes;
      this.clusterRows = clusterRows;
      this.paused = paused;
      this.structure++;
    }
    this.version++;
  }
}
