import * as vscode from 'vscode';
import { escapeMarkdown } from '../../core/text/markdown';
import { clockText, type Headline, type Severity, sessionHeadline } from '../../core/session/headline';
import { virtualTime } from '../../core/text/durations';
import type { PauseCountdowns } from '../debug/pauseCountdowns';
import { pausedStatus } from '../debug/pauseStatus';
import type { ProbingSession } from '../sessions/probingSession';
import type { Sessions } from '../sessions/sessions';

const ICONS: Readonly<Record<Severity, string>> = { error: '$(error)', warning: '$(warning)', pending: '$(loading~spin)', ok: '$(pulse)' };

/**
 * The probing state at a glance, from the sessions' published snapshots: hidden without a
 * running session; otherwise the worst thing in them, `$(error) web: CrashLoopBackOff · 7
 * restarts (liveness)`, `$(pulse) pod web-0 Ready`, a simulation's virtual time after it
 * (`· t+00:03:20`, or `$(debug-pause) t+00:03:20` while paused), a cluster's context and namespace
 * (`· $(cloud) prod · shop`). A click focuses the Probes view. While a debugger holds a probed
 * program, the breakpoint guard's countdown leads instead (`showPauses`).
 */
export class ProbingStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('probeLens.probing', vscode.StatusBarAlignment.Left, 10);
  private readonly subscription: vscode.Disposable;
  private visible = false;
  /** Per session id: the snapshot version the item was last drawn from. */
  private readonly versions = new Map<string, number>();
  /** The breakpoint guard's countdowns, once shown. */
  private pauses: PauseCountdowns | undefined;

  constructor(private readonly sessions: Sessions) {
    this.item.name = 'Probe Lens';
    this.item.command = 'probeLens.probes.focus';
    this.subscription = sessions.onDidChange(() => this.update());
    this.update();
  }

  /** The text shown now (`undefined` when hidden), for tests. */
  get text(): string | undefined {
    return this.visible ? this.item.text : undefined;
  }

  /** The version of the session snapshot the item shows (`undefined`: not shown), for tests. */
  renderedVersion(session: ProbingSession): number | undefined {
    return this.versions.get(session.id);
  }

  /** Leads with the countdowns while a debugger holds a probed program, until disposed. */
  showPauses(pauses: PauseCountdowns): vscode.Disposable {
    this.pauses = pauses;
    const subscription = pauses.onDidChange(() => this.update());
    this.update();
    return new vscode.Disposable(() => {
      subscription.dispose();
      if (this.pauses === pauses) this.pauses = undefined;
    });
  }

  update(): void {
    const running = this.sessions.all.filter((s) => !s.isStopped);
    this.versions.clear();
    if (running.length === 0) {
      this.item.hide();
      this.visible = false;
      return;
    }
    for (const session of running) this.versions.set(session.id, session.state.version);
    const state = statusOf(running);
    const paused = this.pauses && pausedStatus(this.pauses.all());
    this.item.text = paused?.text ?? state.text;
    this.item.tooltip = paused?.tooltip ?? state.tooltip;
    this.item.backgroundColor = paused ? paused.backgroundColor : state.severity === 'error' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.show();
    this.visible = true;
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}

function statusOf(sessions: readonly ProbingSession[]): { text: string; tooltip: vscode.MarkdownString; severity: Severity } {
  let worst: { session: ProbingSession; headline: Headline } | undefined;
  const lines: string[] = [];
  for (const session of sessions) {
    const headline = sessionHeadline(session.state);
    if (!worst || headline.rank > worst.headline.rank) worst = { session, headline };
    const clock = clockText(session.state.clock, session.state.t);
    const kind = session.kind === 'cluster' ? `cluster ${session.options.detail}` : session.kind;
    lines.push(`- **${escapeMarkdown(session.label)}** (${escapeMarkdown(kind)}): ${escapeMarkdown(headline.text)}${clock ? ` · ${clock}` : ''}`);
  }
  const { session, headline } = worst as { session: ProbingSession; headline: Headline };
  const state = session.state;
  const paused = state.clock.kind === 'virtual' && state.clock.paused;
  const time = state.clock.kind === 'virtual' ? virtualTime(state.t) : undefined;
  // In a cluster, where: the context and namespace (`$(cloud) prod · shop`).
  const where = session.kind === 'cluster' ? ` · $(cloud) ${session.options.detail}` : '';
  const text = `${paused ? '$(debug-pause)' : ICONS[headline.severity]} ${headline.text}${time ? ` · ${time}` : ''}${where}`;
  const tooltip = new vscode.MarkdownString([`Probe Lens`, '', ...lines, '', 'Click to show the Probes view.'].join('\n'));
  return { text, tooltip, severity: headline.severity };
}
