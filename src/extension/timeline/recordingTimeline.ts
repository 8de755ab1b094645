import * as vscode from 'vscode';
import type { EngineEvent } from '../../core/engine/events';
import { runHeader } from '../../core/timeline/jsonl';
import type { TimelineClock, TimelineRestore, TimelineSource } from '../../shared/protocol';
import { baseName } from '../documents/fileNames';
import type { ExplainableRun } from './explainMoment';
import type { Recording } from './recordingReader';
import type { Exportable, Outgoing, TimelineContent, TimelineSnapshot } from './timelinePanel';

export const SAVED_ENDED_REASON = 'restored after a window reload';

/**
 * A timeline read from a file: a recording the user opened (`file`), or a session's events saved
 * when it stopped (`saved`), shown as that ended session. Nothing comes later; it can be replayed.
 */
export class RecordingTimeline implements TimelineContent {
  readonly key: string;
  readonly restore: TimelineRestore;
  private ordered: readonly EngineEvent[] | undefined;

  constructor(
    readonly kind: 'file' | 'saved',
    readonly uri: vscode.Uri,
    readonly recording: Recording,
    /** `saved`: the session's title as its panel showed it. */
    private readonly sessionTitle: string | undefined,
    readonly manifest: vscode.Uri | undefined,
  ) {
    this.key = `${kind}:${uri.toString()}`;
    this.restore = kind === 'file' ? { kind: 'file', uri: uri.toString() } : { kind: 'saved', uri: uri.toString(), title: sessionTitle ?? baseName(uri) };
  }

  get title(): string {
    if (this.kind === 'file') return `Timeline · ${baseName(this.uri)}`;
    const manifest = this.manifest ? baseName(this.manifest) : (this.sessionTitle?.split(' · ')[0] ?? 'session');
    return `Timeline · ${manifest} (ended)`;
  }

  source(): TimelineSource {
    return {
      kind: this.kind === 'file' ? 'file' : 'session',
      title: this.kind === 'file' ? baseName(this.uri) : (this.sessionTitle ?? baseName(this.uri)),
      clock: clockOf(this.recording.header?.startedAt),
      live: false,
      rate: 1,
      replayable: true,
      capacity: this.recording.store.capacity,
      canReveal: this.manifest !== undefined,
      canExport: true,
      canExplain: true,
    };
  }

  explainable(): ExplainableRun {
    return { header: this.recording.header, events: this.events() };
  }

  snapshot(): TimelineSnapshot {
    const { recording } = this;
    return {
      ...(recording.header ? { header: recording.header } : {}),
      events: this.events(),
      dropped: recording.store.dropped(),
      now: recording.end,
      problems: recording.problems,
      skipped: recording.skipped,
      ...(this.kind === 'saved' ? { ended: SAVED_ENDED_REASON } : {}),
    };
  }

  attach(_sink: (message: Outgoing) => void): void {
    // A recording sends nothing later.
  }

  exportable(): Exportable {
    const events = this.events();
    const stem = baseName(this.uri).replace(/\.jsonl$/i, '');
    return {
      header: this.recording.header ?? runHeader({}),
      events,
      count: events.length,
      suggestedName: this.kind === 'file' ? `${stem}-export.jsonl` : `${stem}.jsonl`,
      folder: this.kind === 'file' ? vscode.Uri.joinPath(this.uri, '..') : this.manifest && vscode.Uri.joinPath(this.manifest, '..'),
    };
  }

  persist(): void {
    // Already a file.
  }

  dispose(): void {
    this.ordered = undefined;
  }

  /** The store's events in arrival order, built once (a recording does not change). */
  private events(): readonly EngineEvent[] {
    this.ordered ??= this.recording.store.events();
    return this.ordered;
  }
}

/** A panel with nothing to show but why (a revived panel whose file is gone). */
export class FailedTimeline implements TimelineContent {
  readonly manifest = undefined;

  constructor(
    readonly key: string,
    readonly title: string,
    readonly failure: string,
    readonly restore: TimelineRestore | undefined,
  ) {}

  source(): TimelineSource {
    return { kind: 'file', title: this.title, clock: { kind: 'virtual' }, live: false, rate: 1, replayable: false, capacity: 0, canReveal: false, canExport: false };
  }

  snapshot(): TimelineSnapshot {
    return { events: [], dropped: [], now: 0 };
  }

  attach(): void {}

  exportable(): Exportable {
    return { header: runHeader({}), events: [], count: 0, suggestedName: 'timeline.jsonl', folder: undefined };
  }

  persist(): void {}

  dispose(): void {}
}

/** Wall-clock time when the header says when t = 0 was (`run`, a live session); else virtual seconds. */
export function clockOf(startedAt: unknown): TimelineClock {
  const ms = typeof startedAt === 'string' ? Date.parse(startedAt) : NaN;
  return Number.isFinite(ms) ? { kind: 'wall', startedAtMs: ms } : { kind: 'virtual' };
}
