import * as vscode from 'vscode';
import { attemptMessage } from '../core/engine/attempt';
import { PROBING_CONTAINERS } from '../core/manifest';
import { DIAGNOSTIC_SOURCE } from './diagnostics';
import { toVsRange } from './documents/positions';
import type { AttemptEvent, ProbingSession } from './sessions/probingSession';
import type { Sessions } from './sessions/sessions';

/**
 * A running session's failing probes as diagnostics on their keys, with the kubelet's event text
 * (`Readiness probe failed: HTTP probe failed with statuscode: 503`): an Error once the failures
 * reach failureThreshold (the kubelet acts: unready, or a kill), a Warning before, and for prober
 * errors; an Information for a warning (a redirect elsewhere). Cleared when the probe's next
 * attempt succeeds, when it is edited, and when the session stops. Own collection, so the checker's
 * findings and these never overwrite each other.
 */
export class LiveDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('probe-lens-live');
  private readonly subscription: vscode.Disposable;
  /** Per manifest URI, what was last published (unchanged diagnostics are not sent again). */
  private published = new Map<string, string>();

  constructor(private readonly sessions: Sessions) {
    this.subscription = sessions.onDidChange(() => this.update());
  }

  /** What is published for a manifest now (tests read it without waiting for the Problems panel). */
  diagnostics(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }

  update(): void {
    const next = new Map<string, string>();
    for (const session of this.sessions.all) {
      if (session.isStopped) continue;
      const key = session.uri.toString();
      const diagnostics = diagnosticsOf(session);
      const signature = diagnostics.map((d) => `${d.range.start.line}:${d.range.start.character}:${d.severity}:${d.message}`).join('\n');
      next.set(key, signature);
      if (this.published.get(key) !== signature) this.collection.set(session.uri, diagnostics);
    }
    for (const key of this.published.keys()) if (!next.has(key)) this.collection.delete(vscode.Uri.parse(key));
    this.published = next;
  }

  dispose(): void {
    this.subscription.dispose();
    this.collection.dispose();
  }
}

function diagnosticsOf(session: ProbingSession): vscode.Diagnostic[] {
  const diagnostics: vscode.Diagnostic[] = [];
  for (const pod of session.pods) {
    const placed = session.placement(pod.identity.name);
    if (!placed) continue;
    for (const container of pod.spec.containers) {
      if (!PROBING_CONTAINERS.includes(container.kind)) continue;
      for (const probe of container.probes) {
        const last = session.lastAttempt(pod.identity.name, container.name, probe.type);
        const result = session.state.pods.get(pod.identity.name)?.containers.get(container.name)?.probes.get(probe.type)?.result;
        const shown = last && liveProblem(last, result === 'Failure');
        if (!shown) continue;
        const diagnostic = new vscode.Diagnostic(toVsRange(probe.keyRange, placed), shown.message, shown.severity);
        diagnostic.source = DIAGNOSTIC_SOURCE;
        diagnostics.push(diagnostic);
      }
    }
  }
  return diagnostics;
}

/** One decision: what an attempt shows in the editor, if anything. */
function liveProblem(last: AttemptEvent, thresholdReached: boolean): { message: string; severity: vscode.DiagnosticSeverity } | undefined {
  if (last.outcome === 'success' && last.error === undefined) return undefined;
  const outcome = last.error !== undefined ? { result: last.outcome, output: last.output, error: last.error } : { result: last.outcome, output: last.output };
  // Past the early return, an outcome without an event is `unknown`: the message says "failed".
  const message = attemptMessage(last.probe, outcome);
  if (last.error !== undefined) return { message, severity: vscode.DiagnosticSeverity.Warning };
  if (last.outcome === 'warning') return { message, severity: vscode.DiagnosticSeverity.Information };
  return { message, severity: thresholdReached ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning };
}
