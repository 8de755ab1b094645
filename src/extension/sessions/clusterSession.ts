import { RealClock } from '../../core/engine/clock';
import { KUBELET_UP_MS } from '../../core/engine/podRuntime';
import type { ProbeTarget } from '../../core/engine/target';
import { type ClusterPodBinding, ClusterTarget, EXEC_NOT_ALLOWED } from '../../core/targets/cluster';
import { ObservedProcesses } from '../../core/targets/local';
import type { TunnelChange } from '../../core/targets/portForward';
import { ExecGate } from '../safety/execGate';
import type { ProbeLensSettings } from '../settings';
import { KUBECTL_NAMED_BY } from './notices';
import { ProbingSession, type SessionOptions } from './probingSession';

export { type ClusterPods, findClusterPods } from '../../core/targets/cluster';
export { tunnelText } from '../../core/targets/portForward';

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
    kubectl: { path: settings.kubectlPath, env: process.env, namedBy: KUBECTL_NAMED_BY },
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
