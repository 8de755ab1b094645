import type { EngineEvent } from '../../core/engine/events';
import { type RunHeader, runHeader } from '../../core/timeline/jsonl';
import { sectionLaneKey } from '../../core/timeline/sections';
import { TimelineStore } from '../../core/timeline/store';
import type { TimelineSection, TimelineSource } from '../../shared/protocol';
import type { ExplainableRun } from './explainMoment';
import { clockOf } from './recordingTimeline';
import type { Exportable, Outgoing, TimelineContent, TimelineSnapshot } from './timelinePanel';

/** One run of a comparison: its header and events, as a recording holds them. */
export interface ComparedRun {
  readonly header: RunHeader | undefined;
  readonly events: readonly EngineEvent[];
}

/** What *What if…* compares: the recorded run and its replay. */
export interface ComparisonRequest {
  readonly title: string;
  readonly recorded: ComparedRun;
  readonly replayed: ComparedRun;
}

/** The two runs' sections, top to bottom: their names (lane ids, tooltips) and headings. */
export const RECORDED_SECTION = { name: 'recorded', title: 'recorded' } as const;
export const REPLAYED_SECTION = { name: 'replayed', title: 'replayed with the edited manifest' } as const;

/**
 * A recording and its replay against an edited manifest, one above the other on one time axis
 * (issue 12 §3): both runs start at t = 0, the replay re-running the recorded behaviour, so a
 * moment of one is the same moment of the other. Each run is bounded as a recording is (its own
 * store of `capacity` events); the selection's *why* reads the run it is in. Nothing comes later,
 * and there is no file to revive it from after a window reload (*What if…* makes it again).
 */
export class ComparisonTimeline implements TimelineContent {
  readonly key: string;
  readonly restore = undefined;
  readonly manifest = undefined;
  private readonly runs: readonly { readonly section: TimelineSection; readonly header: RunHeader | undefined; readonly store: TimelineStore; readonly events: readonly EngineEvent[] }[];

  constructor(
    private readonly request: ComparisonRequest,
    private readonly capacity: number,
  ) {
    this.key = comparisonKey(request.title);
    this.runs = [
      [RECORDED_SECTION, request.recorded],
      [REPLAYED_SECTION, request.replayed],
    ].map(([section, run]) => {
      const { header, events } = run as ComparedRun;
      const store = new TimelineStore(capacity);
      for (const event of events) store.push(event);
      const kept = store.events();
      return { section: { ...(section as typeof RECORDED_SECTION), events: kept.length }, header, store, events: kept };
    });
  }

  get title(): string {
    return `Timeline · ${this.request.title}`;
  }

  source(): TimelineSource {
    return {
      kind: 'file',
      title: this.request.title,
      // The recording's clock: the replay's t = 0 is the recording's.
      clock: clockOf(this.request.recorded.header?.startedAt),
      live: false,
      rate: 1,
      replayable: false,
      capacity: this.capacity,
      canReveal: false,
      canExport: false,
      canExplain: true,
    };
  }

  snapshot(): TimelineSnapshot {
    const events = this.runs.flatMap((run) => run.events);
    return {
      ...(this.request.recorded.header ? { header: this.request.recorded.header } : {}),
      events,
      dropped: this.runs.flatMap((run) => run.store.dropped().map((d) => ({ ...d, lane: sectionLaneKey(run.section.name, d.lane) }))),
      now: events.reduce((end, e) => Math.max(end, e.t), 0),
      sections: this.runs.map((run) => run.section),
    };
  }

  attach(_sink: (message: Outgoing) => void): void {
    // Both runs are complete: nothing comes later.
  }

  /** The run `section` names (the recorded one by default). */
  explainable(section: string | undefined): ExplainableRun | undefined {
    const run = this.runs.find((r) => r.section.name === (section ?? RECORDED_SECTION.name));
    return run && { header: run.header, events: run.events };
  }

  exportable(): Exportable {
    // Two runs are not one recording: the panel offers no *Export…*.
    return { header: runHeader({}), events: [], count: 0, suggestedName: 'comparison.jsonl', folder: undefined };
  }

  persist(): void {}

  dispose(): void {}
}

/** One panel per comparison title: *What if…* run again on the same recording shows its new result there. */
export function comparisonKey(title: string): string {
  return `compare:${title}`;
}
