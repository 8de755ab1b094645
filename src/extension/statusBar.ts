import * as vscode from 'vscode';
import { PROBING_CONTAINERS } from '../core/manifest';
import type { ProbingSession } from './sessions/probingSession';
import type { Sessions } from './sessions/sessions';

/**
 * The probing state at a glance: hidden without a session; `$(pulse) 2 ready / 3` while all is
 * well, `$(error) web: liveness failing` when a probe's result is Failure (the first one found);
 * a click focuses the Probes view.
 */
export class ProbingStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('probeLens.probing', vscode.StatusBarAlignment.Left, 10);
  private readonly subscription: vscode.Disposable;
  private visible = false;

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

  update(): void {
    const running = this.sessions.all.filter((s) => !s.isStopped);
    if (running.length === 0) {
      this.item.hide();
      this.visible = false;
      return;
    }
    const state = statusOf(running);
    this.item.text = state.text;
    this.item.tooltip = state.tooltip;
    this.item.backgroundColor = state.failing ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.show();
    this.visible = true;
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}

function statusOf(sessions: readonly ProbingSession[]): { text: string; tooltip: string; failing: boolean } {
  let ready = 0;
  let total = 0;
  let failing: string | undefined;
  for (const session of sessions) {
    for (const pod of session.pods) {
      const summary = session.summary.pods.get(pod.identity.name);
      for (const container of pod.spec.containers) {
        if (!PROBING_CONTAINERS.includes(container.kind)) continue;
        total++;
        const state = summary?.containers.get(container.name);
        if (state?.ready) ready++;
        if (failing) continue;
        for (const [type, probe] of state?.probes ?? []) {
          // Readiness starts as Failure (W2): only a failure actually seen counts.
          if (probe.result === 'Failure' && probe.recent[probe.recent.length - 1] === 'failure') {
            failing = `${container.name}: ${type} failing`;
            break;
          }
        }
      }
    }
  }
  const names = sessions.map((s) => `${s.label} (${s.kind}${s.kind === 'simulated' ? ` ${s.options.detail}` : ''})`).join(', ');
  const tooltip = `Probe Lens: ${ready} of ${total} containers ready in ${names}. Click to show the Probes view.`;
  if (failing) return { text: `$(error) ${failing}`, tooltip, failing: true };
  return { text: `$(pulse) ${ready} ready / ${total}`, tooltip, failing: false };
}
