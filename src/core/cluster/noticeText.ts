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
  }
}
