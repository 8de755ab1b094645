import * as vscode from 'vscode';
import type { ProbeModel, ProbeType } from '../../core/manifest';
import type { ProbingSession } from '../sessions/probingSession';
import type { Sessions } from '../sessions/sessions';
import { DebugHolds, debugFolders, type HoldChangeEvent } from './debugHolds';
import { byUrgency, type ContainerCountdown, type PauseCountdowns, sessionCountdowns } from './pauseCountdowns';
import { PauseLedger } from './pauseLedger';
import { sessionsHeldBy } from './pauseTargets';

export const GUARD_SETTING = 'probeLens.breakpointGuard.enabled';
/** The countdown redraws this often while a program is held. */
const COUNTDOWN_TICK_MS = 1000;

/**
 * A debugger paused the program a session probes: liveness is where it bites, since in a
 * cluster a breakpoint held past the liveness window gets the container restarted. While a debug
 * session holds its program, each probing session it holds (local and cluster ones: a simulation
 * probes no program) gets `pause` lines, one per pod, its attempts that ran meanwhile are marked
 * `paused: true`, and a countdown to the restart shows in the status bar and the container's
 * lens, redrawn every second. `probeLens.breakpointGuard.enabled` turns all of it off.
 */
export class BreakpointGuard implements PauseCountdowns, vscode.Disposable {
  /** The probing sessions followed: from their start (the countdown needs their ticks and runs from before the pause). */
  private readonly guarded = new Map<ProbingSession, { readonly ledger: PauseLedger; readonly subscription: vscode.Disposable }>();
  private readonly changes = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[];
  private ticker: NodeJS.Timeout | undefined;
  private enabled: boolean;

  readonly onDidChange = this.changes.event;

  constructor(
    private readonly sessions: Sessions,
    private readonly holds: DebugHolds = new DebugHolds(),
  ) {
    this.enabled = readEnabled();
    this.subscriptions = [
      this.changes,
      holds,
      holds.onDidChange((change) => this.onHoldChange(change)),
      sessions.onDidChange(() => this.followSessions()),
      vscode.workspace.onDidChangeConfiguration((change) => change.affectsConfiguration(GUARD_SETTING) && this.setEnabled(readEnabled())),
    ];
    this.followSessions();
  }

  /** Every container of every held session, the most urgent first. */
  all(): readonly ContainerCountdown[] {
    const countdowns: ContainerCountdown[] = [];
    for (const [session, { ledger }] of this.guarded) {
      const hold = ledger.hold;
      if (hold && !session.isStopped) countdowns.push(...sessionCountdowns(session, ledger, hold));
    }
    return countdowns.sort(byUrgency);
  }

  forContainer(uri: vscode.Uri, pod: string, container: string): ContainerCountdown | undefined {
    const key = uri.toString();
    return this.all().find((c) => c.session.uri.toString() === key && c.pod === pod && c.container === container);
  }

  dispose(): void {
    this.stopTicker();
    for (const session of [...this.guarded.keys()]) this.unguard(session);
    this.subscriptions.forEach((s) => s.dispose());
  }

  /** Starts following the local and cluster sessions that started; forgets those that stopped. */
  private followSessions(): void {
    for (const session of [...this.guarded.keys()]) if (session.isStopped) this.unguard(session);
    if (!this.enabled) return;
    const fresh = this.sessions.all.filter((s) => !s.isStopped && s.kind !== 'simulated' && !this.guarded.has(s));
    for (const session of fresh) this.guard(session);
    // A program held before the session started holds it from now.
    if (fresh.length > 0) for (const debugSession of this.holds.held) this.onHoldChange({ session: debugSession, change: 'paused' });
  }

  private guard(session: ProbingSession): void {
    const ledger = new PauseLedger(
      () => podsOf(session),
      (pod, container, probe) => manifestProbe(session, pod, container, probe)?.effective.failureThreshold,
    );
    // Its probes so far, from what it recorded: its first worker lines come before the registry has
    // it, and before its snapshot (published at most every 250 ms) shows them.
    for (const event of session.events.events()) ledger.follow(event);
    this.guarded.set(session, { ledger, subscription: session.markEvents((event) => ledger.mark(event)) });
  }

  private unguard(session: ProbingSession): void {
    const entry = this.guarded.get(session);
    if (!entry) return;
    this.guarded.delete(session);
    write(session, entry.ledger.releaseAll(session.elapsedSeconds));
    entry.subscription.dispose();
    this.refresh();
  }

  private onHoldChange({ session: debugSession, change }: HoldChangeEvent): void {
    if (!this.enabled) return;
    if (change === 'paused') {
      const running = [...this.guarded.keys()].filter((s) => !s.isStopped).map((s) => ({ session: s, manifestPath: s.uri.fsPath }));
      for (const { session } of sessionsHeldBy(running, debugFolders(debugSession))) {
        const ledger = this.guarded.get(session)?.ledger;
        if (ledger) write(session, ledger.paused({ id: debugSession.id, name: debugSession.name }, session.elapsedSeconds));
      }
    } else {
      // Wherever it held a program, it lets go (a ledger it did not hold says nothing).
      for (const [session, { ledger }] of this.guarded) write(session, ledger.continued(debugSession.id, session.elapsedSeconds));
    }
    this.refresh();
  }

  /** Off: every hold is released (its spans end here) and nothing is followed or marked any more. On: follows the running sessions. */
  private setEnabled(enabled: boolean): void {
    if (enabled === this.enabled) return;
    this.enabled = enabled;
    if (enabled) this.followSessions();
    else for (const session of [...this.guarded.keys()]) this.unguard(session);
    this.refresh();
  }

  /** Views redraw now, and every second while anything is held. */
  private refresh(): void {
    const held = [...this.guarded.values()].some(({ ledger }) => ledger.hold !== undefined);
    if (held && !this.ticker) this.ticker = setInterval(() => this.changes.fire(), COUNTDOWN_TICK_MS);
    if (!held) this.stopTicker();
    this.changes.fire();
  }

  private stopTicker(): void {
    clearInterval(this.ticker);
    this.ticker = undefined;
  }
}

function readEnabled(): boolean {
  return vscode.workspace.getConfiguration().get<boolean>(GUARD_SETTING, true);
}

function write(session: ProbingSession, lines: ReturnType<PauseLedger['paused']>): void {
  for (const line of lines) session.note(line);
}

/** A probe of a pod of the session as the manifest last synced writes it (a cluster pod: its manifest pod's). */
function manifestProbe(session: ProbingSession, pod: string, container: string, probe: ProbeType): ProbeModel | undefined {
  const manifestPod = session.state.pods.get(pod)?.clusterPod?.manifestPod ?? pod;
  return session.placement(manifestPod)?.spec.containers.find((c) => c.name === container)?.probe(probe);
}

/** The pods the session reports (cluster pods under `--all-pods`), else the pods it was given. */
function podsOf(session: ProbingSession): string[] {
  const reported = [...session.state.pods.keys()];
  return reported.length > 0 ? reported : session.pods.map((p) => p.identity.name);
}
