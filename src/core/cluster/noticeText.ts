import type { DesiredPod } from '../engine/manager';
import type { ProxyFailure, ProxyState } from '../kubeclient/kubectlProxy';
import type { ClusterNotice } from './clusterProbing';

/** A cluster notice in one line: the CLI's stderr, the extension's log. */
export function noticeText(notice: ClusterNotice): string {
  switch (notice.kind) {
    case 'bound': {
      const pod = `${notice.pod.namespace}/${notice.pod.name}${notice.pod.podIP ? ` (${notice.pod.podIP})` : ''}`;
      if (notice.replaced) return `${notice.what}: pod ${notice.replaced} was replaced; now probing ${pod}`;
      return `${notice.what} → pod ${pod}; a restart shown is what our kubelet would do, then whether the cluster's did: Probe Lens never touches the pod`;
    }
    case 'no-pod':
      return `note: ${notice.why}; not probed`;
    case 'watch-failed':
      return `watching the cluster failed, retrying: ${notice.error.sentence}`;
    case 'watch-recovered':
      return 'watching the cluster works again';
    case 'forbidden':
    case 'events-forbidden':
      return notice.sentence;
  }
}

/**
 * Where a session looks for the manifest's pods, for its first line: the namespaces the manifest
 * names, and the default one (`--namespace`, the setting, or the context's) for pods it does not.
 * `shop (the manifest's)`, `default (the context's)`, `shop (the manifest's) and default (--namespace)`.
 */
export function namespacesText(pods: readonly DesiredPod[], defaultNamespace: string, defaultFrom: string): string {
  const named = new Set<string>();
  let defaulted = false;
  for (const pod of pods) {
    if (!pod.spec.containers.some((c) => c.probes.length > 0)) continue;
    if (pod.spec.objectNamespace) named.add(pod.spec.objectNamespace);
    else defaulted = true;
  }
  const parts = [...(named.size > 0 ? [`${[...named].sort().join(', ')} (the manifest's)`] : []), ...(defaulted || named.size === 0 ? [`${defaultNamespace} (${defaultFrom})`] : [])];
  return `namespace${named.size + (defaulted ? 1 : 0) > 1 ? 's' : ''} ${parts.join(' and ')}`;
}

/**
 * Says when the session's kubectl proxy stops and when it serves again, once it has served: its
 * first start is the connection's own, and a failure then is why the session does not start.
 * `down`: true for the stop (a warning), false for the recovery.
 */
export function proxyStateTeller(say: (text: string, down: boolean) => void): (state: ProxyState, failure?: ProxyFailure) => void {
  let served = false;
  let down = false;
  return (state, failure) => {
    if (state === 'up') {
      if (served && down) say('kubectl proxy serves again: probing goes on', false);
      served = true;
      down = false;
    } else if (state === 'down' && served && !down) {
      down = true;
      // Its own words (`kubectl proxy exited (signal SIGKILL)`, kubectl's last line), not advice for a first start.
      const why = failure?.error.detail || 'kubectl proxy stopped';
      say(`${why.startsWith('kubectl proxy') ? why : `kubectl proxy stopped: ${why}`}; Probe Lens starts it again, and until then each attempt is an error, never counted`, true);
    }
  };
}
