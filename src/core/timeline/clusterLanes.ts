import type { EngineEvent } from '../engine/events';
import { changeSpan, type Span } from './spans';

/**
 * Cluster sessions: what the cluster says beside what our probes conclude — the kubelet's own
 * Ready, the cluster's events, our predicted kills and whether the cluster made them, the
 * stretches where our readiness and the kubelet's differ, and the cluster pod a manifest pod is
 * probed through. The parts of the timeline's model (`viewModel.ts`) those lines fill; a local or
 * simulated session has none of them, and its lanes stay as they were.
 */

/** What the cluster's kubelet reports (its `kubelet` line): Ready, and for a container its `started` and `restartCount` when said. */
export interface KubeletVerdict {
  readonly ready: boolean;
  readonly started?: boolean;
  readonly restartCount?: number;
}

/** An event the cluster recorded (`Unhealthy`, `Killing`, `BackOff` …), as the cluster reported it last. */
export interface ClusterMarker {
  readonly t: number;
  readonly reason: string;
  readonly message: string;
  readonly warning: boolean;
  /** How many times the cluster has seen it (its `count`) by then. */
  readonly count: number;
  /** Index of the event in `TimelineModel.events`. */
  readonly source: number;
}

/**
 * One `prediction` line: where our engine would have killed (`pending`), and how that ended —
 * the cluster stopped the container (`confirmed`) or did not (`missed`).
 */
export interface PredictionMark {
  readonly t: number;
  readonly probe: 'liveness' | 'startup';
  readonly containerId: string;
  readonly state: 'pending' | 'confirmed' | 'missed';
  readonly message: string;
  readonly source: number;
  /** A pending one: how it ended, once it has. */
  settled?: { readonly t: number; readonly state: 'confirmed' | 'missed'; readonly message: string };
  /** A confirmed or missed one: when it was predicted, if that line is in the model. */
  readonly predictedAt?: number;
}

/** Our readiness and the kubelet's differ: what each said, and the likely cause the engine found. */
export interface Disagreement {
  readonly ours: boolean;
  readonly kubelet: boolean;
  /** `loopback-only`, `pod-ip-only`, `host-or-source`, `kubelet-timeout` or `unexplained`. */
  readonly cause: string;
  readonly message: string;
  readonly source: number;
  /** Once they agree again: the `resolved` line's words. */
  resolution?: string;
}

/** The cluster pod a manifest pod is probed through from `t` (a `target` line that changed it). */
export interface TargetMark {
  readonly t: number;
  readonly clusterPod: string;
  readonly namespace: string;
  readonly podIP?: string;
  /** The cluster pod probed before (a rollout replaced it); none for the first. */
  readonly previous?: string;
  readonly source: number;
}

/** What a container lane holds of the cluster. */
export interface ContainerClusterParts {
  readonly kubelet: Span<KubeletVerdict>[];
  readonly clusterEvents: ClusterMarker[];
  readonly predictions: PredictionMark[];
  readonly disagreements: Span<Disagreement>[];
}

/** What a pod lane holds of the cluster. */
export interface PodClusterParts {
  /** The pod's Ready condition as the cluster's kubelet reports it. */
  readonly kubelet: Span<KubeletVerdict>[];
  readonly clusterEvents: ClusterMarker[];
  readonly targets: TargetMark[];
}

export function emptyContainerClusterParts(): ContainerClusterParts {
  return { kubelet: [], clusterEvents: [], predictions: [], disagreements: [] };
}

export function emptyPodClusterParts(): PodClusterParts {
  return { kubelet: [], clusterEvents: [], targets: [] };
}

/**
 * Whether a lane has the cluster's band to draw (its kubelet's Ready, the cluster's events, a
 * disagreement): only lanes of a cluster session do, so other sessions' lanes keep their height.
 */
export function hasClusterBand(lane: { readonly kubelet: readonly unknown[]; readonly clusterEvents: readonly unknown[]; readonly disagreements?: readonly unknown[] }): boolean {
  return lane.kubelet.length > 0 || lane.clusterEvents.length > 0 || (lane.disagreements?.length ?? 0) > 0;
}

/** A `kubelet` line: the band changes only when what the kubelet says does. */
export function onKubelet(parts: { readonly kubelet: Span<KubeletVerdict>[] }, event: Extract<EngineEvent, { type: 'kubelet' }>): void {
  const verdict: KubeletVerdict = {
    ready: event.ready,
    ...(event.started !== undefined ? { started: event.started } : {}),
    ...(event.restartCount !== undefined ? { restartCount: event.restartCount } : {}),
  };
  changeSpan(parts.kubelet, event.t, verdict, (a, b) => a.ready === b.ready && a.started === b.started && a.restartCount === b.restartCount);
}

/**
 * A `clusterEvent` line. Events listed when the watch starts carry the cluster's own time, which
 * may be before lines already seen: each goes in its place, so markers stay in time order.
 */
export function onClusterEvent(parts: { readonly clusterEvents: ClusterMarker[] }, event: Extract<EngineEvent, { type: 'clusterEvent' }>, source: number): void {
  const marker: ClusterMarker = { t: event.t, reason: event.reason, message: event.message, warning: event.eventType === 'Warning', count: event.count, source };
  const list = parts.clusterEvents;
  let at = list.length;
  while (at > 0 && (list[at - 1] as ClusterMarker).t > event.t) at--;
  list.splice(at, 0, marker);
}

/** A `prediction` line: a pending one is a new mark; a confirmed or missed one settles the pending one of its container instance. */
export function onPrediction(parts: ContainerClusterParts, event: Extract<EngineEvent, { type: 'prediction' }>, source: number): void {
  const base = { t: event.t, probe: event.probe, containerId: event.containerId, state: event.state, message: event.message, source };
  if (event.state === 'pending') {
    parts.predictions.push(base);
    return;
  }
  let pending: PredictionMark | undefined;
  for (let i = parts.predictions.length - 1; i >= 0 && !pending; i--) {
    const p = parts.predictions[i] as PredictionMark;
    if (p.state === 'pending' && p.settled === undefined && p.containerId === event.containerId && p.probe === event.probe) pending = p;
  }
  if (pending) pending.settled = { t: event.t, state: event.state, message: event.message };
  parts.predictions.push(pending ? { ...base, predictedAt: pending.t } : base);
}

/** A `disagreement` line: `open` starts a stretch (unless one is open), `resolved` ends it. */
export function onDisagreement(parts: ContainerClusterParts, event: Extract<EngineEvent, { type: 'disagreement' }>, source: number): void {
  const last = parts.disagreements[parts.disagreements.length - 1];
  const open = last && last.end === undefined ? last : undefined;
  if (event.state === 'open') {
    if (!open) parts.disagreements.push({ start: event.t, end: undefined, value: { ours: event.ours, kubelet: event.kubelet, cause: event.cause, message: event.message, source } });
    return;
  }
  if (!open) return;
  open.end = event.t;
  open.value.resolution = event.message;
}

/** A `target` line: marked only when the cluster pod (or its IP) changed. Returns whether it replaced another cluster pod (a rollout). */
export function onTarget(parts: PodClusterParts, event: Extract<EngineEvent, { type: 'target' }>, source: number): boolean {
  const last = parts.targets[parts.targets.length - 1];
  if (last && last.clusterPod === event.clusterPod && last.podIP === event.podIP && last.namespace === event.namespace) return false;
  parts.targets.push({
    t: event.t,
    clusterPod: event.clusterPod,
    namespace: event.namespace,
    ...(event.podIP !== undefined ? { podIP: event.podIP } : {}),
    ...(last && last.clusterPod !== event.clusterPod ? { previous: last.clusterPod } : {}),
    source,
  });
  return last !== undefined && last.clusterPod !== event.clusterPod;
}
