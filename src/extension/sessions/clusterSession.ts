import { ClusterProbing, type ClusterNotice } from '../../core/cluster/clusterProbing';
import type { ClusterConnection } from '../../core/cluster/connect';
import { RealClock } from '../../core/base/clock';
import type { ProbeTarget } from '../../core/engine/target';
import { EXEC_NOT_ALLOWED } from '../../core/cluster/clusterTarget';
import { ExecGate } from '../safety/execGate';
import { ProbingSession, type SessionOptions } from './probingSession';

export interface ClusterSession {
  readonly session: ProbingSession;
  /** Which exec command lines may run (through the API's exec); the consent guard opens it. */
  readonly gate: ExecGate;
  readonly probing: ClusterProbing;
}

/**
 * A cluster session: the real clock, the manifest's pods followed live in the cluster through
 * `connection` (one `kubectl proxy`), probed through the API server, exec probes behind the same
 * consent gate as local ones. The cluster's kubelet owns the containers: restarts are predicted,
 * then confirmed or not. Not yet synced: the caller syncs it with its first snapshot.
 */
export function createClusterSession(
  options: Omit<SessionOptions, 'kind'>,
  connection: ClusterConnection,
  settings: { readonly minorVersion: number | undefined; readonly allPods: boolean },
  onNotice: (notice: ClusterNotice) => void,
): ClusterSession {
  const clock = new RealClock();
  const epoch = clock.now();
  let gate: ExecGate | undefined;
  let probing: ClusterProbing | undefined;
  const session = new ProbingSession(
    { ...options, kind: 'cluster' },
    {
      clock,
      epoch,
      owned: [connection],
      driver: (emit) =>
        (probing = new ClusterProbing({
          api: connection.api,
          clock,
          epoch,
          epochWall: Date.now(),
          emit,
          pods: [],
          namespace: connection.namespace,
          allPods: settings.allPods,
          allowExec: true,
          minorVersion: settings.minorVersion ?? connection.version.minor,
          wrapTarget: (target) => {
            const guarded: ProbeTarget = {
              attempt: (request, done) => (request.probe.handler?.type === 'exec' ? done({ result: 'unknown', output: '', error: EXEC_NOT_ALLOWED }) : target.attempt(request, done)),
              dispose: () => target.dispose(),
            };
            return (gate = new ExecGate(target, guarded));
          },
          onNotice,
        })),
    },
  );
  return { session, gate: gate as ExecGate, probing: probing as ClusterProbing };
}

/** `prod · shop`: the context and namespace, shown next to the session's kind. */
export function clusterDetail(connection: ClusterConnection): string {
  return `${connection.context} · ${connection.namespace}`;
}
