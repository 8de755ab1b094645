/**
 * The timeline's words for what the cluster says (cluster sessions): tooltips for the kubelet's
 * Ready band, the cluster's events, disagreements, predicted kills and the cluster pod probed;
 * what the lane list adds to a lane's summary; the test hooks' view. Pure (node tests import it);
 * event text is returned as plain strings, for `textContent`.
 */
import type { Disagreement } from '../../../core/timeline/clusterLanes';
import type { Span } from '../../../core/timeline/spans';
import type { ContainerLane, PodLane } from '../../../core/timeline/viewModel';
import type { TimelineClock } from '../../../shared/protocol';
import type { Tooltip } from './tooltipText';
import { formatCount, formatInstant, plural } from './format';
import { formatDuration } from '../../../core/text/durations';
import type { Hit } from '../model/hitTest';

/** What the words are made with: the clock, and describe.ts's ways of cutting text and saying a stretch. */
export interface ClusterDescribeContext {
  readonly clock: TimelineClock;
  readonly excerpt: (text: string, max?: number) => string;
  readonly between: (span: Span<unknown>) => string;
}

type ClusterHit = Extract<Hit, { kind: 'kubelet' | 'disagreement' | 'clusterEvent' | 'prediction' | 'target' }>;

/** Where the pointer is on the cluster's part of a lane: what it is, the cluster's words, and what it means beside ours. */
export function describeClusterHit(hit: ClusterHit, where: string, context: ClusterDescribeContext): Tooltip {
  const at = (t: number) => formatInstant(t, context.clock);
  switch (hit.kind) {
    case 'kubelet': {
      const v = hit.span.value;
      const lines = [context.between(hit.span)];
      const facts = [v.started === undefined ? '' : v.started ? 'started' : 'not started', v.restartCount === undefined ? '' : `restartCount ${v.restartCount}`].filter((f) => f !== '');
      if (facts.length > 0) lines.push(facts.join(', '));
      lines.push(hit.lane.kind === 'pod' ? "the pod's Ready condition as the cluster reports it; ours is the band above" : "what the cluster's own kubelet reports; our probes' ready is the strip above");
      return { title: `${v.ready ? 'Ready' : 'Not ready'} by the cluster's kubelet · ${where}`, lines };
    }
    case 'disagreement': {
      const v = hit.span.value;
      const lines = [context.between(hit.span), `our probes: ${readyWord(v.ours)} · the kubelet: ${readyWord(v.kubelet)}`, v.cause === 'unexplained' ? 'no likely cause found in the evidence' : `likely cause: ${v.cause}`, context.excerpt(v.message, 600)];
      if (v.resolution !== undefined) lines.push(`then: ${context.excerpt(v.resolution)}`);
      return { title: `Our probes and the kubelet disagree · ${where}`, lines };
    }
    case 'clusterEvent': {
      const e = hit.event;
      const seen = e.count === 1 ? 'seen once by the cluster' : `seen ${formatCount(e.count)} times by the cluster`;
      return { title: `${e.reason}${e.warning ? ' (Warning)' : ''} · the cluster's event · ${where}`, lines: [at(e.t), context.excerpt(e.message, 600), seen, 'from the cluster (kubectl get events), not from our probes'] };
    }
    case 'prediction': {
      const p = hit.prediction;
      const lines = [at(p.t), context.excerpt(p.message)];
      if (p.state === 'pending') {
        if (p.settled) lines.push(`then ${p.settled.state} at ${at(p.settled.t)}: ${context.excerpt(p.settled.message)}`);
        else lines.push('waiting: confirmed if the cluster stops the container within its grace period and a probe period');
        lines.push("the cluster's kubelet owns the containers: ours only says where it would kill");
      } else if (p.predictedAt !== undefined) {
        lines.push(`predicted at ${at(p.predictedAt)} (${formatDuration(p.t - p.predictedAt)} before)`);
      }
      lines.push(`container ${p.containerId}`);
      const title = p.state === 'pending' ? `Predicted kill (${p.probe})` : `Prediction ${p.state} (${p.probe})`;
      return { title: `${title} · ${where}`, lines };
    }
    case 'target': {
      const g = hit.target;
      const lines = [at(g.t), `namespace ${g.namespace}${g.podIP !== undefined ? `, pod IP ${g.podIP}` : ''}`];
      lines.push(g.previous !== undefined ? `was ${g.previous}: the cluster replaced the pod (a rollout), and probing follows the new one` : `the cluster pod ${where} is probed through`);
      return { title: `Probing ${g.clusterPod} · ${where}`, lines };
    }
  }
}

function readyWord(ready: boolean): string {
  return ready ? 'Ready' : 'not ready';
}

/** The cluster pod a pod lane is probed through now, if a cluster session said. */
export function currentClusterPod(lane: PodLane): string | undefined {
  return lane.targets[lane.targets.length - 1]?.clusterPod;
}

/** What the lane list adds to a pod's summary: the kubelet's Ready and the cluster pod probed. */
export function podClusterSummary(lane: PodLane): string[] {
  const parts: string[] = [];
  const kubelet = lane.kubelet[lane.kubelet.length - 1]?.value;
  if (kubelet) parts.push(`the kubelet: ${readyWord(kubelet.ready)}`);
  const clusterPod = currentClusterPod(lane);
  if (clusterPod !== undefined) parts.push(`probing ${clusterPod}`);
  if (lane.clusterEvents.length > 0) parts.push(plural(lane.clusterEvents.length, 'cluster event'));
  return parts;
}

/** What the lane list adds to a container's summary: the kubelet's ready, a disagreement open now, predicted kills, the cluster's events. */
export function containerClusterSummary(lane: ContainerLane): string[] {
  const parts: string[] = [];
  const kubelet = lane.kubelet[lane.kubelet.length - 1]?.value;
  if (kubelet) parts.push(`the kubelet: ${readyWord(kubelet.ready)}`);
  const open = openDisagreement(lane);
  if (open) parts.push(`disagrees with the kubelet (${open.value.cause})`);
  const pending = lane.predictions.filter((p) => p.state === 'pending');
  if (pending.length > 0) {
    const confirmed = lane.predictions.filter((p) => p.state === 'confirmed').length;
    const missed = lane.predictions.filter((p) => p.state === 'missed').length;
    parts.push(`${plural(pending.length, 'kill')} predicted, ${formatCount(confirmed)} confirmed, ${formatCount(missed)} missed`);
  }
  if (lane.clusterEvents.length > 0) parts.push(plural(lane.clusterEvents.length, 'cluster event'));
  return parts;
}

/** The disagreement open now on a container lane, if any. */
export function openDisagreement(lane: ContainerLane): Span<Disagreement> | undefined {
  const last = lane.disagreements[lane.disagreements.length - 1];
  return last && last.end === undefined ? last : undefined;
}

/** What the cluster said on a pod or container lane, as the test hooks show it (`undefined` if nothing). */
export interface ClusterFacts {
  /** The kubelet's Ready band's spans. */
  readonly kubelet: readonly { readonly start: number; readonly end: number | null; readonly ready: boolean }[];
  /** The cluster's event markers: `Unhealthy×3`. */
  readonly events: readonly string[];
  /** Predicted kills, one per line: `pending`, `confirmed`, `missed`. */
  readonly predictions: readonly string[];
  readonly disagreements: readonly { readonly start: number; readonly end: number | null; readonly cause: string }[];
  /** The cluster pods probed, in order. */
  readonly targets: readonly string[];
}

export function clusterFacts(lane: PodLane | ContainerLane): ClusterFacts | undefined {
  const predictions = lane.kind === 'container' ? lane.predictions : [];
  const disagreements = lane.kind === 'container' ? lane.disagreements : [];
  const targets = lane.kind === 'pod' ? lane.targets : [];
  if (lane.kubelet.length + lane.clusterEvents.length + predictions.length + disagreements.length + targets.length === 0) return undefined;
  return {
    kubelet: lane.kubelet.map((s) => ({ start: s.start, end: s.end ?? null, ready: s.value.ready })),
    events: lane.clusterEvents.map((e) => `${e.reason}×${e.count}`),
    predictions: predictions.map((p) => p.state),
    disagreements: disagreements.map((s) => ({ start: s.start, end: s.end ?? null, cause: s.value.cause })),
    targets: targets.map((g) => g.clusterPod),
  };
}
