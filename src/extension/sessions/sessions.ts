import * as vscode from 'vscode';
import type { ProbeType } from '../../core/manifest';
import type { ContainerSummary, ProbeSummary } from '../../core/session/summary';
import type { LiveState } from '../editor/liveState';
import type { ProbingSession, SessionKind } from './probingSession';

/**
 * The running sessions, at most one per manifest: starting another on the same manifest stops the
 * one before. `onDidChange` fires when a session starts or stops and, throttled by each session,
 * while they run: the tree, the status bar, live diagnostics and the editor's lenses redraw on it.
 */
export class Sessions implements LiveState, vscode.Disposable {
  private readonly sessions = new Map<string, { session: ProbingSession; subscriptions: vscode.Disposable[] }>();
  private readonly changes = new vscode.EventEmitter<void>();
  private counter = 0;

  readonly onDidChange = this.changes.event;

  get all(): readonly ProbingSession[] {
    return [...this.sessions.values()].map((s) => s.session);
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
    this.changes.fire();
  }

  stopAll(): void {
    for (const { session } of [...this.sessions.values()]) session.dispose();
  }

  isProbing(uri: vscode.Uri): boolean {
    return this.forDocument(uri) !== undefined;
  }

  container(uri: vscode.Uri, pod: string, container: string): ContainerSummary | undefined {
    return this.forDocument(uri)?.summary.pods.get(pod)?.containers.get(container);
  }

  probe(uri: vscode.Uri, pod: string, container: string, type: ProbeType): ProbeSummary | undefined {
    return this.container(uri, pod, container)?.probes.get(type);
  }

  dispose(): void {
    this.stopAll();
    this.changes.dispose();
  }

  private remove(session: ProbingSession): void {
    const entry = this.sessions.get(session.id);
    if (!entry || entry.session !== session) return;
    this.sessions.delete(session.id);
    entry.subscriptions.forEach((s) => s.dispose());
    this.changes.fire();
  }
}
