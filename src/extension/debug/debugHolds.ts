import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { ThreadStops } from './threadStops';

/** A debug session stopped its program, or let it go on (a `continued`, a resuming request, its end). */
export interface HoldChangeEvent {
  readonly session: vscode.DebugSession;
  readonly change: 'paused' | 'continued';
}

/**
 * Which debug sessions hold their program now, from the messages between VS Code and every debug
 * adapter (a tracker for every debug type). The program a session runs may be a child session's
 * (js-debug launches one per process): each session is followed on its own.
 */
export class DebugHolds implements vscode.Disposable {
  private readonly stops = new Map<string, { readonly session: vscode.DebugSession; readonly threads: ThreadStops }>();
  private readonly changes = new vscode.EventEmitter<HoldChangeEvent>();
  private readonly subscriptions: vscode.Disposable[];

  readonly onDidChange = this.changes.event;

  constructor() {
    this.subscriptions = [
      this.changes,
      vscode.debug.registerDebugAdapterTrackerFactory('*', { createDebugAdapterTracker: (session) => this.track(session) }),
      vscode.debug.onDidTerminateDebugSession((session) => this.end(session)),
    ];
  }

  /** The debug sessions holding their program now. */
  get held(): readonly vscode.DebugSession[] {
    return [...this.stops.values()].filter((s) => s.threads.isHeld).map((s) => s.session);
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    this.stops.clear();
  }

  private track(session: vscode.DebugSession): vscode.DebugAdapterTracker {
    const threads = new ThreadStops();
    this.stops.set(session.id, { session, threads });
    const report = (change: 'paused' | 'continued' | undefined) => {
      if (change) this.changes.fire({ session, change });
    };
    return {
      onWillReceiveMessage: (message) => report(threads.toAdapter(message)),
      onDidSendMessage: (message) => report(threads.fromAdapter(message)),
      onWillStopSession: () => report(threads.ended()),
      onExit: () => report(threads.ended()),
    };
  }

  /** The session is over: it holds nothing any more, and is forgotten. */
  private end(session: vscode.DebugSession): void {
    const entry = this.stops.get(session.id);
    if (!entry) return;
    this.stops.delete(session.id);
    const change = entry.threads.ended();
    if (change) this.changes.fire({ session, change });
  }
}

/**
 * The folders a debug session's program runs in: its configuration's `cwd`, the folder of its
 * `program`, its workspace folder, and the same of the sessions that launched it.
 */
export function debugFolders(session: vscode.DebugSession | undefined): string[] {
  const folders: string[] = [];
  for (let s = session; s; s = s.parentSession) {
    const { cwd, program } = s.configuration as { cwd?: unknown; program?: unknown };
    if (typeof cwd === 'string') folders.push(cwd);
    if (typeof program === 'string') folders.push(dirname(program));
    if (s.workspaceFolder) folders.push(s.workspaceFolder.uri.fsPath);
  }
  return folders;
}
