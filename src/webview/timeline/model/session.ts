/**
 * What the host has said about the timeline shown: its source, the events (`EventFeed`), whether it
 * is live, loading, ended or failed, and the time it has reached. The host's messages change it;
 * the view reads it. Pure (node tests import it): the caller passes the real time (ms).
 */
import type { LineProblem, RunHeader } from '../../../core/timeline/jsonl';
import type { DroppedEvents } from '../../../core/timeline/store';
import type { HostMessage, TimelineClock, TimelineRestore, TimelineSource } from '../../../shared/protocol';
import { EventFeed } from './feed';
import { LiveClock } from './liveClock';
import type { Extent } from './viewport';

export type LoadMessage = Extract<HostMessage, { type: 'load' }>;
export type AppendMessage = Extract<HostMessage, { type: 'append' }>;

const VIRTUAL: TimelineClock = { kind: 'virtual' };

export interface Ended {
  readonly now: number;
  readonly reason: string;
}

export class TimelineSession {
  source: TimelineSource | undefined;
  header: RunHeader | undefined;
  /** Where a reloaded panel finds these events again. */
  restore: TimelineRestore | undefined;
  feed = new EventFeed(false);
  /** Until the first `load`, and while a large recording arrives in `append`s. */
  loading = true;
  failed: string | undefined;
  ended: Ended | undefined;
  /** Why a source that had already stopped did, until its last slice has loaded. */
  private endsWhenLoaded: Ended | undefined;
  problems: readonly LineProblem[] = [];
  skipped = 0;
  private readonly liveClock = new LiveClock();

  /** A new source: everything before it is forgotten. */
  load(message: LoadMessage, at: number): void {
    this.source = message.source;
    this.header = message.header;
    this.restore = message.restore;
    this.problems = message.problems ?? [];
    this.skipped = message.skipped ?? 0;
    this.loading = message.loading === true;
    this.failed = undefined;
    this.ended = undefined;
    this.endsWhenLoaded = message.ended === undefined ? undefined : { now: message.now, reason: message.ended };
    this.feed = new EventFeed(message.source.replayable, message.sections ?? []);
    this.feed.reset(message.events, message.dropped, message.now);
    this.liveClock.reset(message.now, message.source.rate, at);
    this.endIfLoaded();
  }

  append(message: AppendMessage, at: number): void {
    this.feed.append(message.events, message.dropped, message.now);
    this.liveClock.sync(message.now, at, message.rate);
    this.loading = message.loading === true;
    this.endIfLoaded();
  }

  /** A source that had stopped before it loaded ends with its last slice, in the same message. */
  private endIfLoaded(): void {
    if (this.loading || this.endsWhenLoaded === undefined) return;
    const { now, reason } = this.endsWhenLoaded;
    this.endsWhenLoaded = undefined;
    this.end(now, reason);
  }

  /** The session stopped at `now`: the host's last word on the time corrects any run-on guess. */
  end(now: number, reason: string): void {
    this.ended = { now, reason };
    this.feed.advanceTo(now);
    this.liveClock.settle(this.feed.end);
  }

  fail(message: string): void {
    this.failed = message;
    this.loading = false;
  }

  get clock(): TimelineClock {
    return this.source?.clock ?? VIRTUAL;
  }

  /** Events may still come, and `now` moves. */
  get isLive(): boolean {
    return this.source?.live === true && this.ended === undefined && this.failed === undefined;
  }

  get replayable(): boolean {
    return this.source?.replayable === true;
  }

  /** A replay's playhead is somewhere (playing or paused). */
  get replaying(): boolean {
    return this.feed.playhead !== undefined;
  }

  get title(): string {
    const file = typeof this.header?.file === 'string' ? this.header.file : undefined;
    return this.source?.title || file || 'Timeline';
  }

  /** Where open spans end and following looks: the playhead, a live session's clock at real time `at`, or the last event. */
  now(at: number): number {
    const playhead = this.feed.playhead;
    if (playhead !== undefined) return playhead;
    if (this.isLive) return this.liveClock.read(at, this.feed.end);
    return this.feed.end;
  }

  /** The live edge, as last read by `now` (0 before). */
  get shownNow(): number {
    return this.liveClock.shown;
  }

  /** Whether a live `now` still moves at `at` (it stops a while after the host's last message). */
  clockRunningAt(at: number): boolean {
    return this.isLive && this.liveClock.runningAt(at);
  }

  /** The times there is something to show: from 0 to the last event or the live edge. */
  extent(): Extent {
    return { start: 0, end: Math.max(this.feed.end, this.liveClock.shown) };
  }

  /** What the notes above the lanes are made from. */
  noteInput(): NoteInput {
    return {
      capacity: this.source?.capacity ?? 0,
      dropped: this.feed.droppedEvents,
      clock: this.clock,
      skipped: this.skipped,
      problems: this.problems,
      loading: this.loading,
      events: this.feed.received,
      ended: this.ended,
      failed: this.failed,
    };
  }
}

/** What the notes above the lanes are made from (`notesFor`). */
export interface NoteInput {
  readonly capacity: number;
  readonly dropped: readonly DroppedEvents[];
  readonly clock: TimelineClock;
  readonly skipped: number;
  readonly problems: readonly LineProblem[];
  readonly loading: boolean;
  readonly events: number;
  readonly ended: { readonly now: number; readonly reason: string } | undefined;
  readonly failed: string | undefined;
}
