import { type Explanation, explainContainer } from '../../core/explain/explain';
import { buildHistory, type RecordingHistory } from '../../core/history/history';
import { type TimeFormat, timeFormatFor } from '../../core/history/timeFormat';
import type { SessionSnapshot } from '../../core/session/snapshot';
import { runHeader } from '../../core/timeline/jsonl';
import type { TimelineStore } from '../../core/timeline/store';

/** What explaining a session's containers reads of it (a `ProbingSession` is one). */
export interface ExplainableSession {
  readonly kind: 'local' | 'simulated' | 'cluster';
  /** `t` is virtual seconds (a simulation), else seconds since `startedAt`. */
  readonly isVirtual: boolean;
  /** Wall-clock time of t = 0 (epoch ms). */
  readonly startedAt: number;
  readonly events: TimelineStore;
  /** The snapshot the views show. */
  readonly state: SessionSnapshot;
}

interface Indexed {
  readonly version: number;
  readonly history: RecordingHistory;
  /** The moment it explains: its snapshot's (or its newest line's, if later). */
  readonly at: number;
  readonly time: TimeFormat;
  /** When it was built (`performance.now()`), and how long that took. */
  readonly builtAt: number;
  readonly buildMs: number;
  /** By `pod\u0000container`: what was asked of this index. */
  readonly explained: Map<string, Explanation | undefined>;
}

/** How old an answer may be: `0` (a hover), the snapshot now; a Probes view row, a few seconds. */
export interface ExplainOptions {
  readonly maxAgeMs?: number;
}

/**
 * Why each container of a running session is in its state, as of its published snapshot. The
 * session's history is indexed at most once per snapshot version, however many hovers and rows
 * ask. A view that redraws with every snapshot may take an answer up to `maxAgeMs` old (and
 * older while indexing is slow): its row is then redrawn for a new why at most that often — a
 * redraw closes the row's tooltip — and indexing a long session takes a small share of the time.
 */
export class SessionExplanations {
  private readonly indexed = new WeakMap<ExplainableSession, Indexed>();

  explain(session: ExplainableSession, pod: string, container: string, options: ExplainOptions = {}): Explanation | undefined {
    // An ended session's last snapshot is its last word: never answered from an older one.
    const indexed = this.historyOf(session, session.state.endedAt !== undefined ? 0 : (options.maxAgeMs ?? 0));
    // Rows ask again with every snapshot: the answer is kept as long as its index is.
    const key = `${pod}\u0000${container}`;
    if (!indexed.explained.has(key)) indexed.explained.set(key, explainContainer(indexed.history, pod, container, indexed.at, indexed.time));
    return indexed.explained.get(key);
  }

  private historyOf(session: ExplainableSession, maxAgeMs: number): Indexed {
    const known = this.indexed.get(session);
    const version = session.state.version;
    if (known && (known.version === version || (maxAgeMs > 0 && performance.now() - known.builtAt < Math.max(maxAgeMs, 20 * known.buildMs)))) return known;
    const started = performance.now();
    const header = runHeader({ mode: 'session', kind: session.kind, ...(session.isVirtual ? {} : { startedAt: new Date(session.startedAt).toISOString() }) });
    const history = buildHistory(header, session.events.events());
    const built: Indexed = { version, history, at: Math.max(session.state.t, history.end), time: timeFormatFor(history.startedAtMs), builtAt: performance.now(), buildMs: performance.now() - started, explained: new Map() };
    this.indexed.set(session, built);
    return built;
  }
}
