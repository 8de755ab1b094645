import * as vscode from 'vscode';
import { RealClock } from '../../core/base/clock';
import type { EngineEvent } from '../../core/engine/events';
import { EventBatcher } from '../../core/timeline/batcher';
import { type RunHeader, runHeader } from '../../core/timeline/jsonl';
import type { TimelineRestore, TimelineSource } from '../../shared/protocol';
import { baseName } from '../documents/fileNames';
import type { ProbingSession } from '../sessions/probingSession';
import type { ExplainableRun } from './explainMoment';
import { writeRecordingSync } from './recordingFiles';
import type { Exportable, Outgoing, TimelineContent, TimelineSnapshot } from './timelinePanel';

/** While nothing happens, a live panel still hears from the session this often, so its `now` keeps moving. */
export const HEARTBEAT_MS = 1000;
export const SESSION_ENDED_REASON = 'probing stopped';

/** What an exported or saved session recording starts with (design §3's run header). */
export function sessionHeader(session: ProbingSession): RunHeader {
  return runHeader({
    mode: 'session',
    file: vscode.workspace.asRelativePath(session.uri, false),
    kind: session.kind,
    ...(session.isVirtual ? {} : { startedAt: new Date(session.startedAt).toISOString() }),
  });
}

/** `shop.yaml · simulated · 60× · shop.scenario.yaml`: as the Probes view describes the session. */
export function sessionTitle(session: ProbingSession): string {
  return [session.label, session.kind, session.options.detail].filter((part) => part !== '').join(' · ');
}

/** What *Export…* writes for a session, with or without a panel. */
export function exportableSession(session: ProbingSession): Exportable {
  const stem = session.label.replace(/\.ya?ml$/i, '');
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return {
    header: sessionHeader(session),
    events: session.events.events(),
    count: session.events.size,
    suggestedName: `${stem}-${session.kind}-${stamp}.jsonl`,
    folder: vscode.Uri.joinPath(session.uri, '..'),
  };
}

/**
 * A session's timeline: its store, then its events as they come, through an `EventBatcher`
 * (≤ 10 messages a second however fast the engine goes), a heartbeat while it is quiet, and
 * `ended` when it stops. On stop (and when the extension deactivates) its events are saved to
 * `savedTo`, which the panel's state names, so a window reload revives the panel with them.
 */
export class SessionTimeline implements TimelineContent {
  readonly key: string;
  readonly restore: TimelineRestore | undefined;
  private readonly clock = new RealClock();
  private batcher: EventBatcher | undefined;
  private sink: ((message: Outgoing) => void) | undefined;
  /** The session's rate as the panel last heard it. */
  private rateSent: number | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private lastSentAt = 0;
  private endedAt: number | undefined;
  private saved = false;
  private disposed = false;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    readonly session: ProbingSession,
    /** Where its events are saved for a revived panel (a file URI), if anywhere. */
    private readonly savedTo: vscode.Uri | undefined,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.key = sessionKey(session);
    this.restore = savedTo ? { kind: 'saved', uri: savedTo.toString(), title: sessionTitle(session) } : undefined;
  }

  get title(): string {
    return `Timeline · ${this.session.label}`;
  }

  get manifest(): vscode.Uri {
    return this.session.uri;
  }

  get isLive(): boolean {
    return this.endedAt === undefined;
  }

  source(): TimelineSource {
    const { session } = this;
    return {
      kind: 'session',
      title: sessionTitle(session),
      clock: session.isVirtual ? { kind: 'virtual' } : { kind: 'wall', startedAtMs: session.startedAt },
      live: this.isLive,
      rate: session.rate,
      replayable: false,
      capacity: session.events.capacity,
      canReveal: true,
      canExport: true,
      canExplain: true,
    };
  }

  /** The session's lines as they are now (a live one's up to the moment asked about). */
  explainable(): ExplainableRun {
    return { header: sessionHeader(this.session), events: this.session.events.events() };
  }

  snapshot(): TimelineSnapshot {
    // What the batcher holds is in the store: a fresh one starts after the snapshot.
    if (this.isLive) this.restartBatcher();
    const store = this.session.events;
    return {
      header: sessionHeader(this.session),
      events: store.events(),
      dropped: store.dropped(),
      now: this.now(),
      ...(this.endedAt !== undefined ? { ended: this.endedReason() } : {}),
    };
  }

  attach(sink: (message: Outgoing) => void): void {
    this.sink = sink;
    if (this.session.isStopped) {
      this.stop();
      return;
    }
    this.restartBatcher();
    this.subscriptions.push(
      this.session.onDidRecord((event) => this.batcher?.push(event)),
      this.session.onDidStop(() => this.stop()),
      // Paused, resumed or sped up: the panel's clock follows at once, not at the next heartbeat.
      this.session.onDidChange(() => this.sendRateIfChanged()),
    );
    this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_MS);
  }

  exportable(): Exportable {
    return exportableSession(this.session);
  }

  persist(): void {
    if (this.saved || !this.savedTo || this.savedTo.scheme !== 'file') return;
    const started = performance.now();
    try {
      writeRecordingSync(this.savedTo.fsPath, sessionHeader(this.session), this.session.events.events());
      this.saved = true;
      this.log.info(`[${this.session.label}] timeline saved for the panel (${this.session.events.size} events, ${Math.round(performance.now() - started)} ms): ${baseName(this.savedTo)}`);
    } catch (error) {
      this.log.warn(`[${this.session.label}] the timeline could not be saved for a window reload: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.stopFeed();
    this.sink = undefined;
  }

  private now(): number {
    return this.endedAt ?? this.session.elapsedSeconds;
  }

  private restartBatcher(): void {
    this.batcher?.dispose();
    this.batcher = new EventBatcher(this.clock, (events) => this.deliver(events));
  }

  private deliver(events: EngineEvent[]): void {
    this.lastSentAt = performance.now();
    this.rateSent = this.session.rate;
    this.sink?.({ type: 'append', events, dropped: this.session.events.dropped(), now: this.now(), rate: this.session.rate });
  }

  private sendRateIfChanged(): void {
    if (this.session.rate === this.rateSent) return;
    this.batcher?.flush();
    this.deliver([]);
  }

  /** Nothing was sent for a heartbeat: say the time anyway. */
  private beat(): void {
    if (performance.now() - this.lastSentAt < HEARTBEAT_MS * 0.9) return;
    this.deliver([]);
  }

  /** The session stopped: its last events, then `ended`; its events are saved for a reload. */
  private stop(): void {
    if (this.endedAt !== undefined) return;
    this.batcher?.flush();
    this.endedAt = this.session.elapsedSeconds;
    this.stopFeed();
    this.sink?.({ type: 'ended', now: this.endedAt, reason: this.endedReason() });
    this.persist();
  }

  /** `probing stopped`, or why the session stopped on its own. */
  private endedReason(): string {
    return this.session.failure ?? SESSION_ENDED_REASON;
  }

  private stopFeed(): void {
    this.batcher?.dispose();
    this.batcher = undefined;
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    this.subscriptions.splice(0).forEach((s) => s.dispose());
  }
}

export function sessionKey(session: ProbingSession): string {
  return `session:${session.id}`;
}
