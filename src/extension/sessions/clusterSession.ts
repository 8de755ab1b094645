import { RealClock } from '../../core/engine/clock';
import type { DesiredPod } from '../../core/engine/manager';
import type { ProbeTarget } from '../../core/engine/target';
import { findClusterPod, type KubectlConfig } from '../../core/k8s/kubectl';
import { type ClusterPodBinding, ClusterTarget, EXEC_NOT_ALLOWED } from '../../core/targets/cluster';
import { ObservedProcesses } from '../../core/targets/local';
import type { TunnelChange } from '../../core/targets/portForward';
import { ExecGate } from '../safety/execGate';
import type { ProbeLensSettings } from '../settings';
import type { Outcome } from './launcher';
import { ProbingSession, type SessionOptions } from './probingSession';

/** As in local sessions and `probe-lens run`: no start-up jitter (W4) for a session the user just started. */
const KUBELET_UP_MS = 3_600_000;

export interface ClusterPods {
  readonly bindings: readonly ClusterPodBinding[];
  /** Pods of the manifest with no Running pod in the cluster: why, for the log. */
  readonly missing: readonly string[];
}

/**
 * The cluster pod of each manifest pod (a Pod by name, a workload by its labels; the manifest's
 * namespace, else kubectl's current one). Fails when kubectl cannot run or no pod is found at all.
 * The engine keeps the manifest's pod names, so lenses and the tree read as for a local session.
 */
export async function findClusterPods(kubectl: KubectlConfig, pods: readonly DesiredPod[]): Promise<Outcome<ClusterPods>> {
  const bindings: ClusterPodBinding[] = [];
  const missing: string[] = [];
  for (const desired of pods) {
    if (!desired.spec.containers.some((c) => c.probes.length > 0)) continue;
    const found = await findClusterPod(kubectl, desired.spec, undefined);
    if (!found.ok && found.kubectlMissing) return { ok: false, reason: found.error };
    if (!found.ok) missing.push(found.error);
    else bindings.push({ identity: desired.identity, spec: desired.spec, pod: found.pod });
  }
  if (bindings.length === 0) return { ok: false, reason: missing.join('; ') || 'no container of this manifest has a probe' };
  return { ok: true, value: { bindings, missing } };
}

export interface ClusterSession {
  readonly session: ProbingSession;
  /** Which exec command lines may run (through `kubectl exec`); the consent guard opens it. */
  readonly gate: ExecGate;
  readonly target: ClusterTarget;
}

/**
 * A cluster session: the real clock, probes through a `kubectl port-forward` per pod and exec
 * probes through `kubectl exec` behind the same consent gate as local ones. The pods are the
 * cluster's: only observed, so kills and restarts are the kubelet's decisions, reported, never
 * carried out. Not yet synced: the caller syncs it with its first snapshot.
 */
export function createClusterSession(
  options: Omit<SessionOptions, 'kind'>,
  settings: ProbeLensSettings,
  bindings: readonly ClusterPodBinding[],
  onTunnelChange: (pod: string, change: TunnelChange) => void,
): ClusterSession {
  const clock = new RealClock();
  const epoch = clock.now();
  const target = new ClusterTarget({
    kubectl: { path: settings.kubectlPath, env: process.env },
    pods: bindings,
    allowExec: true,
    minorVersion: settings.minorVersion,
    clock,
    epoch,
    // The session's event log has no tunnel lane yet: changes go to the output channel instead.
    emit: () => undefined,
    onTunnelChange: (pod, change) => onTunnelChange(pod.name, change),
  });
  const guarded: ProbeTarget = {
    attempt: (request, done) => (request.probe.handler?.type === 'exec' ? done({ result: 'unknown', output: '', error: EXEC_NOT_ALLOWED }) : target.attempt(request, done)),
    dispose: () => target.dispose(),
  };
  const gate = new ExecGate(target, guarded);
  const session = new ProbingSession(
    { ...options, kind: 'cluster' },
    { clock, epoch, kubeletStartedAt: epoch - KUBELET_UP_MS, random: Math.random, target: gate, processes: new ObservedProcesses(), idScheme: 'cluster', owned: [] },
  );
  return { session, gate, target };
}

/** `shop/web-7d9c-x2x`, `3 pods`: shown next to the session's kind. */
export function clusterDetail(bindings: readonly ClusterPodBinding[]): string {
  const first = bindings[0]?.pod;
  return bindings.length === 1 && first ? `${first.namespace}/${first.name}` : `${bindings.length} pods`;
}

/** For the output channel. */
export function tunnelText(pod: string, change: TunnelChange): string {
  const ports = [...change.ports].map(([remote, local]) => (local ? `127.0.0.1:${local} → ${remote}` : `${remote}`)).join(', ');
  return change.state === 'up' ? `port-forward to pod ${pod} up: ${ports}` : `port-forward to pod ${pod} down (${change.reason}); its probes are errors, not failures, until it is back`;
}
