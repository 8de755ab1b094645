import type { ClusterEventRecord, ContainerSnapshot, DisagreementView, KubeletView, PodSnapshot } from './snapshot';

/**
 * What a cluster session says of the cluster's own verdicts beside ours, in the words every view
 * uses (the Probes view, the lenses, the hovers, the diagnostics). Pure: tested in node.
 */

/** `kubelet: ready`, `kubelet: not ready`, `kubelet: not started`: the cluster's word on a container, short (the tooltip says the rest). */
export function kubeletWords(view: KubeletView): string {
  if (view.ready) return 'kubelet: ready';
  return view.started === false ? 'kubelet: not started' : 'kubelet: not ready';
}

/**
 * The cluster's word on a container as a lens or a row shows it beside ours: plain when the two
 * agree, flagged (`$(warning)`) when they have disagreed long enough to say so; `undefined`
 * before the cluster reported anything (and outside cluster sessions).
 */
export function kubeletSuffix(container: ContainerSnapshot, icons: boolean): string | undefined {
  if (!container.kubelet) return undefined;
  const words = kubeletWords(container.kubelet);
  if (!container.disagreement) return words;
  return icons ? `$(warning) ${words}` : `${words} (disagrees)`;
}

/** A disagreement's likeliest cause first, after the container's name: what the Problems panel has room for. */
const CAUSE_HEADLINES: Readonly<Record<string, string>> = {
  'loopback-only': "likely listens on 127.0.0.1 only: the kubelet's readiness probe is refused, ours passes",
  'pod-ip-only': "likely listens on the pod IP only: our readiness probe is refused, the kubelet's passes",
  'host-or-source': "likely decides on the source address or a header: our readiness probe gets an HTTP error, the kubelet's passes",
  'kubelet-timeout': "likely answers the kubelet slower than timeoutSeconds: its readiness probe times out, ours passes",
};

/** `web likely listens on 127.0.0.1 only: …`, then the whole explanation on a line of its own. */
export function disagreementDiagnostic(container: string, disagreement: DisagreementView): string {
  const cause = CAUSE_HEADLINES[disagreement.cause];
  const headline = cause ? `${container} ${cause}` : `${container}: the cluster's kubelet says ${disagreement.kubelet ? 'Ready' : 'not Ready'}, our probes ${disagreement.ours ? 'Ready' : 'not Ready'}`;
  return `${headline}\n${disagreementSentence(disagreement.message)}`;
}

/** The kubelet's view of a container in a sentence, with its restart count: for tooltips. */
export function kubeletSentence(view: KubeletView): string {
  const state = view.ready ? 'Ready' : view.started === false ? 'not started' : view.started === true ? 'started, not Ready' : 'not Ready';
  return `The cluster's kubelet says: ${state}${view.restartCount !== undefined ? ` · restartCount ${view.restartCount}` : ''}.`;
}

/** A disagreement's explanation as a sentence of its own (its message is written to follow a colon). */
export function disagreementSentence(message: string): string {
  const sentence = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** `Probed through web-5d4f8b7c9-x2k4q (10.244.1.5) in shop.` */
export function clusterPodSentence(pod: PodSnapshot): string | undefined {
  const ref = pod.clusterPod;
  if (!ref) return undefined;
  return `Probed through pod ${ref.name}${ref.podIP ? ` (${ref.podIP})` : ''} in namespace ${ref.namespace}.`;
}

/** `Warning Unhealthy ×12 (web): Readiness probe failed: …`: one of the cluster's events, on one line. */
export function clusterEventLine(event: ClusterEventRecord): string {
  const count = event.count > 1 ? ` ×${event.count}` : '';
  const container = event.container !== undefined ? ` (${event.container})` : '';
  return `${event.eventType} ${event.reason}${count}${container}: ${event.message.replace(/\s+/g, ' ').trim()}`;
}

/** The pod's Ready condition as the cluster reports it, beside ours: `kubelet: Ready`; `undefined` outside cluster sessions. */
export function podKubeletWords(pod: PodSnapshot): string | undefined {
  if (pod.kubeletReady === undefined) return undefined;
  return `kubelet: ${pod.kubeletReady ? 'Ready' : 'NotReady'}`;
}

/**
 * The pods a manifest's pod is probed as: itself, or — probing every pod of a workload in a
 * cluster (`--all-pods`) — each cluster pod probed for it, under its own name.
 */
export function podsFor(pods: ReadonlyMap<string, PodSnapshot>, manifestPod: string): PodSnapshot[] {
  const own = pods.get(manifestPod);
  if (own) return [own];
  return [...pods.values()].filter((pod) => pod.clusterPod?.manifestPod === manifestPod);
}
