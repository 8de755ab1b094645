import type { Clock } from '../base/clock';
import type { Disposable } from '../base/disposable';
import type { EventSink } from '../engine/events';
import type { ApiFailure, KubeApi } from '../kubeclient/kubeApi';
import { watchList } from '../kubeclient/watch';
import type { ClusterPod } from './clusterPod';

export interface PodEventsOptions {
  readonly api: KubeApi;
  readonly clock: Clock;
  /** Clock time of `t = 0`, and the wall time it stands for. */
  readonly epoch: number;
  readonly epochWall: number;
  readonly pod: ClusterPod;
  /** The engine's name for the pod (the manifest pod's, or the cluster pod's with `--all-pods`). */
  readonly podName: string;
  readonly emit: EventSink;
  /** Events seen this long before the session began are shown too (at t = 0). */
  readonly recentMs?: number;
  /** The user may not watch events there (403): the watch goes on trying, quietly. */
  readonly onForbidden?: (failure: ApiFailure) => void;
}

const RECENT_MS = 10 * 60_000;

interface ApiEvent {
  metadata?: { uid?: string; name?: string };
  reason?: string;
  message?: string;
  type?: string;
  count?: number;
  series?: { count?: number };
  lastTimestamp?: string;
  eventTime?: string;
  firstTimestamp?: string;
  involvedObject?: { fieldPath?: string };
}

/**
 * The cluster's own events for a pod (`kubectl get events --field-selector
 * involvedObject.name=POD`): what its kubelet said (`Unhealthy`, `Killing`, `BackOff`), put beside
 * ours as `clusterEvent` lines. An event the cluster repeats comes again with its new count.
 */
export function watchPodEvents(options: PodEventsOptions): Disposable {
  const counts = new Map<string, number>();
  let listed = false;
  const { pod } = options;
  const path = `/api/v1/namespaces/${encodeURIComponent(pod.namespace)}/events?fieldSelector=${encodeURIComponent(`involvedObject.name=${pod.name}`)}`;
  const see = (item: unknown, atStart: boolean) => {
    const event = item as ApiEvent | null;
    const key = event?.metadata?.uid ?? event?.metadata?.name;
    if (!event || !key || typeof event.reason !== 'string') return;
    const count = event.series?.count ?? event.count ?? 1;
    if ((counts.get(key) ?? 0) >= count) return;
    counts.set(key, count);
    const wall = Date.parse(event.lastTimestamp ?? event.eventTime ?? event.firstTimestamp ?? '');
    if (atStart && !(wall >= options.epochWall - (options.recentMs ?? RECENT_MS))) return;
    const t = atStart ? Math.max(0, (wall - options.epochWall) / 1000) : (options.clock.now() - options.epoch) / 1000;
    const container = /^spec\.(?:initC|c)ontainers\{(.+)\}$/.exec(event.involvedObject?.fieldPath ?? '')?.[1];
    options.emit({
      type: 'clusterEvent',
      t,
      pod: options.podName,
      ...(container !== undefined ? { container } : {}),
      reason: event.reason,
      message: event.message ?? '',
      eventType: event.type === 'Warning' ? 'Warning' : 'Normal',
      count,
    });
  };
  return watchList({
    api: options.api,
    clock: options.clock,
    path,
    onSync: (items) => {
      for (const item of items) see(item, !listed);
      listed = true;
    },
    onChange: (type, object) => {
      if (type !== 'DELETED') see(object, false);
    },
    // Events are context, not the probes: a failing watch of them is retried quietly, but a
    // refusal is said (once, by the caller): their absence must not pass for a quiet kubelet.
    onFailure: (failure) => {
      if (failure.status === 403) options.onForbidden?.(failure);
    },
  });
}
