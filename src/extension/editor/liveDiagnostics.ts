import * as vscode from 'vscode';
import { attemptMessage } from '../../core/engine/attempt';
import { probeTypeTitle } from '../../core/engine/events';
import { PROBING_CONTAINERS, type ProbeType } from '../../core/manifest';
import { disagreementDiagnostic, podsFor } from '../../core/session/clusterText';
import type { ContainerSnapshot, PodSnapshot } from '../../core/session/snapshot';
import { DIAGNOSTIC_SOURCE } from './diagnostics';
import { toVsRange } from '../documents/positions';
import type { AttemptEvent, ProbingSession } from '../sessions/probingSession';
import type { Sessions } from '../sessions/sessions';

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
  const state = session.state;
  for (const pod of session.pods) {
    const placed = session.placement(pod.identity.name);
    if (!placed) continue;
    // Probed as several cluster pods (`--all-pods`), each speaks for itself, named.
    const members = podsFor(state.pods, pod.identity.name);
    for (const member of members) {
      const prefix = members.length > 1 || member.name !== pod.identity.name ? `${member.name}: ` : '';
      for (const container of pod.spec.containers) {
        if (!PROBING_CONTAINERS.includes(container.kind)) continue;
        const live = member.containers.get(container.name);
        // First: the worst of what the cluster's kubelet says beside ours (a hover lists them in this order).
        const disagreement = live?.disagreement;
        if (disagreement) {
          const readiness = container.probe('readiness');
          const range = readiness ? toVsRange(readiness.keyRange, placed) : toVsRange(container.range, placed).with({ end: undefined });
          diagnostics.push(diagnostic(new vscode.Range(range.start, readiness ? range.end : range.start.translate(0, 1)), `${prefix}${disagreementDiagnostic(container.name, disagreement)}`, vscode.DiagnosticSeverity.Warning));
        }
        for (const probe of container.probes) {
          const snapshot = live?.probes.get(probe.type);
          const range = toVsRange(probe.keyRange, placed);
          const shown = snapshot?.newest && liveProblem(snapshot.newest, snapshot.result === 'Failure');
          if (shown) diagnostics.push(diagnostic(range, `${prefix}${shown.message}`, shown.severity));
          const theirs = live && clusterWord(member, live, probe.type, state.t);
          if (theirs) diagnostics.push(diagnostic(range, `${prefix}${theirs}`, vscode.DiagnosticSeverity.Information));
        }
      }
    }
  }
  return diagnostics;
}

function diagnostic(range: vscode.Range, message: string, severity: vscode.DiagnosticSeverity): vscode.Diagnostic {
  const made = new vscode.Diagnostic(range, message, severity);
  made.source = DIAGNOSTIC_SOURCE;
  return made;
}

/** How recent the cluster's liveness or startup failure must be to stand beside ours (its readiness failures stand while it says not ready). */
const CLUSTER_FAILURE_SHOWN_S = 60;

/**
 * The cluster's own word on a probe, beside ours: its newest `Unhealthy` event for the probe,
 * while it still holds — a readiness failure while the kubelet says not ready, a liveness or
 * startup failure for a minute.
 */
function clusterWord(pod: PodSnapshot, container: ContainerSnapshot, type: ProbeType, now: number): string | undefined {
  const prefix = `${probeTypeTitle(type)} probe failed:`;
  const event = [...pod.clusterEvents].reverse().find((e) => e.reason === 'Unhealthy' && e.container === container.name && e.message.startsWith(prefix));
  if (!event) return undefined;
  const holds = type === 'readiness' ? container.kubelet?.ready === false : now - event.t <= CLUSTER_FAILURE_SHOWN_S;
  return holds ? `The cluster's kubelet: ${event.message}${event.count > 1 ? ` (×${event.count})` : ''}` : undefined;
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
