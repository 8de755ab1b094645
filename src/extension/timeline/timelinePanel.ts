import * as vscode from 'vscode';
import type { EngineEvent } from '../../core/engine/events';
import type { RunHeader } from '../../core/timeline/jsonl';
import { type HostMessage, isWebviewMessage, TIMELINE_PROTOCOL_VERSION, type TimelineRestore, type TimelineSource, type WebviewMessage } from '../../shared/protocol';
import type { ExplainableRun, ExplainAnswer } from './explainMoment';

/** A host message before the protocol version is stamped on it. */
export type Outgoing = HostMessage extends infer M ? (M extends HostMessage ? Omit<M, 'protocol'> : never) : never;

/**
 * What a (re)created webview loads: everything the source holds now (the `load` message's data),
 * and, for a stopped session, why it will send nothing more (the load carries it).
 */
export type TimelineSnapshot = Pick<Extract<HostMessage, { type: 'load' }>, 'header' | 'events' | 'dropped' | 'now' | 'problems' | 'skipped' | 'sections'> & { readonly ended?: string };

/** What *Export…* writes: `toJsonLines(header, events)`. */
export interface Exportable {
  readonly header: RunHeader;
  readonly events: Iterable<EngineEvent>;
  readonly count: number;
  /** A file name to suggest (`shop-simulated-20261124-101500.jsonl`). */
  readonly suggestedName: string;
  /** Where to suggest it. */
  readonly folder: vscode.Uri | undefined;
}

/**
 * Where a panel's events come from: a session (live, then ended) or a recording. The panel asks it
 * for a snapshot whenever its webview is (re)created, and it pushes what happens later.
 */
export interface TimelineContent extends vscode.Disposable {
  /** One panel per key: `session:<id>`, `file:<uri>`, `saved:<uri>`. */
  readonly key: string;
  /** The panel's tab title. */
  readonly title: string;
  readonly restore: TimelineRestore | undefined;
  /** The manifest the lanes come from, if known: reveals open it, its editor's selection highlights lanes. */
  readonly manifest: vscode.Uri | undefined;
  /** When set, there is nothing to show: the panel says this instead. */
  readonly failure?: string;
  source(): TimelineSource;
  /**
   * The events as they are now. A live source restarts its feed here: what it had pending is in
   * the snapshot, and only what comes after is sent live (nothing twice, nothing lost).
   */
  snapshot(): TimelineSnapshot;
  /** Starts sending what happens later (`append`, `ended`) to `sink`. */
  attach(sink: (message: Outgoing) => void): void;
  exportable(): Exportable;
  /** Keeps what a revived panel needs (the extension deactivates): synchronous. */
  persist(): void;
  /**
   * The lines the selection's *why* is read from (`explainMoment.ts`): the run's, or in a timeline
   * of several the `section`'s. None: the panel cannot say why (`canExplain` unset).
   */
  explainable?(section: string | undefined): ExplainableRun | undefined;
}

/** What a panel asks of its manager for a message from the webview. */
export interface PanelActions {
  reveal(panel: TimelinePanel, message: Extract<WebviewMessage, { type: 'reveal' }>): Promise<unknown>;
  export(panel: TimelinePanel): Promise<unknown>;
  /** The selection's *why*: answered with `answer`. */
  explain(panel: TimelinePanel, message: Extract<WebviewMessage, { type: 'explain' }>): void;
}

/** A host message as the panel sent it, without its events (for tests): how many, and the rest. */
export interface SentMessage {
  readonly type: HostMessage['type'];
  readonly events?: number;
  readonly now?: number;
  readonly loading?: boolean;
  readonly lanes?: readonly string[];
  readonly live?: boolean;
  /** A `load` of a source that had already stopped: why. */
  readonly ended?: string;
  /** An `explanation`: the question it answers, and its sentence or why there is none. */
  readonly request?: number;
  readonly sentence?: string;
  readonly failure?: string;
  readonly at: number;
}

/** A large load goes as a first slice (an early first paint), then appends of this many. */
export const FIRST_SLICE_EVENTS = 20_000;
export const APPEND_SLICE_EVENTS = 50_000;
/** Messages a panel remembers for tests. */
const SENT_LOG_SIZE = 2_000;

type State = 'waiting' | 'loading' | 'loaded';

/**
 * One timeline `WebviewPanel` (design §5): the webview says `ready`, then gets a `load` — again
 * each time it is re-created (a hidden panel's webview is discarded, `retainContextWhenHidden` is
 * off) — and live messages after that, in order. While a webview loads, live messages wait; while
 * there is none, they are dropped, since the next `load` holds them.
 */
export class TimelinePanel implements vscode.Disposable {
  /** What was sent, newest last (at most `SENT_LOG_SIZE`). */
  readonly sent: SentMessage[] = [];
  /** The types of the webview's messages, newest last. */
  readonly received: string[] = [];
  private state: State = 'waiting';
  private generation = 0;
  private queue: Outgoing[] = [];
  private lanes: readonly string[] = [];
  private readyBeforeContent = false;
  private disposed = false;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly disposals = new vscode.EventEmitter<void>();

  readonly onDidDispose = this.disposals.event;

  constructor(
    readonly webviewPanel: vscode.WebviewPanel,
    private readonly actions: PanelActions,
    private current: TimelineContent | undefined,
  ) {
    this.subscriptions.push(
      webviewPanel.webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
      webviewPanel.onDidChangeViewState(() => {
        // Hidden: the webview is gone; shown again, it loads afresh after its `ready`.
        if (!webviewPanel.visible) this.unload();
      }),
      webviewPanel.onDidDispose(() => this.dispose()),
    );
    if (current) this.adopt(current);
  }

  get content(): TimelineContent | undefined {
    return this.current;
  }

  get key(): string | undefined {
    return this.current?.key;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** The webview has loaded and is up to date. */
  get isLoaded(): boolean {
    return this.state === 'loaded';
  }

  /** The content, once known (a revived panel reads its file first), or new content for a panel showing other (a comparison run again): a webview there loads it. */
  setContent(content: TimelineContent): void {
    if (this.disposed) {
      content.dispose();
      return;
    }
    this.current?.dispose();
    this.adopt(content);
    if (this.readyBeforeContent) {
      this.readyBeforeContent = false;
      void this.load();
    } else if (this.state !== 'waiting') {
      void this.load();
    }
  }

  /** The answer to the webview's `explain` of `request`. */
  answer(request: number, answer: ExplainAnswer): void {
    if (this.state === 'waiting') return;
    this.post({ type: 'explanation', request, ...answer });
  }

  /** Lanes to highlight (the editor's or the tree's selection); kept for the next load. */
  highlight(lanes: readonly string[]): void {
    if (sameLanes(lanes, this.lanes)) return;
    this.lanes = lanes;
    if (this.state === 'loaded') this.post({ type: 'highlight', lanes });
  }

  get highlighted(): readonly string[] {
    return this.lanes;
  }

  reveal(preserveFocus = true): void {
    this.webviewPanel.reveal(undefined, preserveFocus);
  }

  /** A message from the webview (tests call it to act as the webview). */
  receive(message: unknown): void {
    if (!isWebviewMessage(message)) {
      this.remember(this.received, 'unknown');
      return;
    }
    this.remember(this.received, message.type);
    switch (message.type) {
      case 'ready':
        if (this.current) void this.load();
        else this.readyBeforeContent = true;
        return;
      case 'reveal':
        void this.actions.reveal(this, message);
        return;
      case 'export':
        void this.actions.export(this);
        return;
      case 'explain':
        this.actions.explain(this, message);
        return;
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.generation++;
    this.queue = [];
    this.current?.dispose();
    this.subscriptions.forEach((s) => s.dispose());
    this.webviewPanel.dispose();
    this.disposals.fire();
    this.disposals.dispose();
  }

  private adopt(content: TimelineContent): void {
    this.current = content;
    this.webviewPanel.title = content.title;
    content.attach((message) => this.live(message));
  }

  private live(message: Outgoing): void {
    if (this.disposed) return;
    if (this.state === 'loaded') this.post(message);
    else if (this.state === 'loading') this.queue.push(message);
  }

  private unload(): void {
    this.generation++;
    this.state = 'waiting';
    this.queue = [];
  }

  /** A `load` with the snapshot's first slice, the rest in appends, then whatever came meanwhile. */
  private async load(): Promise<void> {
    const content = this.current;
    if (!content || this.disposed) return;
    const generation = ++this.generation;
    this.queue = [];
    if (content.failure !== undefined) {
      this.state = 'loaded';
      this.post({ type: 'failed', message: content.failure });
      return;
    }
    this.state = 'loading';
    const snapshot = content.snapshot();
    const { events, dropped, now } = snapshot;
    const more = events.length > FIRST_SLICE_EVENTS;
    const restore = content.restore;
    await this.post({
      type: 'load',
      source: content.source(),
      ...(snapshot.header ? { header: snapshot.header } : {}),
      events: more ? events.slice(0, FIRST_SLICE_EVENTS) : events,
      dropped,
      now,
      ...(snapshot.problems ? { problems: snapshot.problems } : {}),
      ...(snapshot.skipped !== undefined ? { skipped: snapshot.skipped } : {}),
      ...(restore ? { restore } : {}),
      ...(more ? { loading: true } : {}),
      ...(snapshot.sections ? { sections: snapshot.sections } : {}),
      ...(snapshot.ended !== undefined ? { ended: snapshot.ended } : {}),
    });
    for (let at = FIRST_SLICE_EVENTS; at < events.length; at += APPEND_SLICE_EVENTS) {
      if (generation !== this.generation) return;
      const end = at + APPEND_SLICE_EVENTS;
      // Awaited: each slice is handed over before the next is cut, so a large load does not pile up in memory.
      await this.post({ type: 'append', events: events.slice(at, end), dropped, now, loading: end < events.length });
    }
    if (generation !== this.generation) return;
    this.state = 'loaded';
    if (this.lanes.length > 0) this.post({ type: 'highlight', lanes: this.lanes });
    const queued = this.queue;
    this.queue = [];
    for (const message of queued) this.post(message);
  }

  private post(message: Outgoing): Thenable<boolean> {
    if (this.disposed) return Promise.resolve(false);
    const summary: SentMessage = {
      type: message.type,
      at: Date.now(),
      ...('events' in message ? { events: message.events.length } : {}),
      ...('now' in message ? { now: message.now } : {}),
      ...('loading' in message && message.loading !== undefined ? { loading: message.loading } : {}),
      ...('lanes' in message ? { lanes: message.lanes } : {}),
      ...('source' in message ? { live: message.source.live } : {}),
      ...(message.type === 'load' && message.ended !== undefined ? { ended: message.ended } : {}),
      ...(message.type === 'explanation' ? { request: message.request, ...(message.explanation ? { sentence: message.explanation.sentence } : {}), ...(message.failure !== undefined ? { failure: message.failure } : {}) } : {}),
    };
    this.remember(this.sent, summary);
    return this.webviewPanel.webview.postMessage({ ...message, protocol: TIMELINE_PROTOCOL_VERSION }).then(
      (delivered) => delivered,
      () => false,
    );
  }

  private remember<T>(log: T[], entry: T): void {
    log.push(entry);
    if (log.length > SENT_LOG_SIZE) log.splice(0, log.length - SENT_LOG_SIZE);
  }
}

function sameLanes(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((lane, i) => lane === b[i]);
}
