import * as vscode from 'vscode';
import { podsFor } from '../../core/session/clusterText';
import type { ContainerSnapshot, SessionSnapshot } from '../../core/session/snapshot';
import type { LiveState } from './liveState';
import type { ProbingSession, SessionKind } from './probingSession';

/**
 * The running sessions, at most one per manifest: starting another on the same manifest stops the
 * one before. The last one to stop stays, ended, to be reviewed (its tree, its timeline) until
 * the next starts or the user clears it. `onDidChange` fires when a session starts or stops and
 * whenever one publishes a snapshot: the tree, the status bar, live diagnostics and the editor's
 * lenses redraw on it, from those snapshots.
 */
export class Sessions implements LiveState, vscode.Disposable {
  private readonly sessions = new Map<string, { session: ProbingSession; subscriptions: vscode.Disposable[] }>();
  private readonly changes = new vscode.EventEmitter<void>();
  private counter = 0;
  private endedSession: ProbingSession | undefined;

  readonly onDidChange = this.changes.event;

  /** The sessions running. */
  get all(): readonly ProbingSession[] {
    return [...this.sessions.values()].map((s) => s.session);
  }

  /** The last session that stopped, kept to be reviewed until another starts or `clearEnded`. */
  get ended(): ProbingSession | undefined {
    return this.endedSession;
  }

  /** What the Probes view lists: the running sessions, then the ended one. */
  get shown(): readonly ProbingSession[] {
    return this.endedSession ? [...this.all, this.endedSession] : this.all;
  }

  /** Lets go of the ended session; `false` when there was none. */
  clearEnded(): boolean {
    if (!this.endedSession) return false;
    this.endedSession = undefined;
    this.changes.fire();
    return true;
  }

  /** A fresh id: `local-1`, `simulated-2`. */
  nextId(kind: SessionKind): string {
    return `${kind}-${++this.counter}`;
  }

  byId(id: string): ProbingSession | undefined {
    return this.sessions.get(id)?.session;
  }

  forDocument(uri: vscode.Uri): ProbingSession | undefined {
    const key = uri.toString();
    for (const { session } of this.sessions.values()) if (session.uri.toString() === key) return session;
    return undefined;
  }

  /** Takes a started session in, replacing (stopping) the manifest's previous one. */
  add(session: ProbingSession): void {
    if (session.isStopped || this.sessions.has(session.id)) return;
    this.forDocument(session.uri)?.dispose();
    const subscriptions = [session.onDidChange(() => this.changes.fire()), session.onDidStop(() => this.remove(session))];
    this.sessions.set(session.id, { session, subscriptions });
    // A new session: the one ended before it is no longer what the user reviews.
    this.endedSession = undefined;
    this.changes.fire();
  }

  stopAll(): void {
    for (const { session } of [...this.sessions.values()]) session.dispose();
  }

  isProbing(uri: vscode.Uri): boolean {
    return this.forDocument(uri) !== undefined;
  }

  snapshot(uri: vscode.Uri): SessionSnapshot | undefined {
    return this.forDocument(uri)?.state;
  }

  /** A container of the manifest's running session, as last published. */
  container(uri: vscode.Uri, pod: string, container: string): ContainerSnapshot | undefined {
    const snapshot = this.snapshot(uri);
    return snapshot && podsFor(snapshot.pods, pod)[0]?.containers.get(container);
  }

  dispose(): void {
    this.stopAll();
    this.endedSession = undefined;
    this.changes.dispose();
  }

  private remove(session: ProbingSession): void {
    const entry = this.sessions.get(session.id);
    if (!entry || entry.session !== session) return;
    this.sessions.delete(session.id);
    entry.subscriptions.forEach((s) => s.dispose());
    this.endedSession = session;
    this.changes.fire();
  }
}
