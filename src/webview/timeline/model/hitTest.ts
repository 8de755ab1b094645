/**
 * What is drawn at a point: an attempt mark, a kubelet event marker, a restart, or a band — and in
 * a cluster session the cluster's band (its kubelet's Ready, its events, a disagreement), a
 * predicted kill, or the cluster pod probed; a debugger's pause on a pod. Pure (node tests import it); it reads the same rows
 * and geometry the renderer draws with, so what the pointer finds is what the user sees there.
 */
import { MARK_OUTCOMES, type MarkOutcome } from '../../../core/timeline/columns';
import type { AttemptColumns } from '../../../core/timeline/columns';
import { blamedOnPause } from '../../../core/timeline/pauseLanes';
import type { CachedResult } from '../../../core/engine/results';
import type { ClusterMarker, Disagreement, KubeletVerdict, PredictionMark, TargetMark } from '../../../core/timeline/clusterLanes';
import type { ContainerLane, ContainerStateValue, Lane, Marker, PodLane, ProbeLane, RestartMark, Span } from '../../../core/timeline/viewModel';
import { CLUSTER_CONTAINER_ROW, CLUSTER_POD_ROW, CONTAINER_ROW, type Layout, markSeverity, PROBE_ROW, type Row, rowAt, showsCluster } from './layout';

export type Hit =
  | { readonly kind: 'mark'; readonly row: Row; readonly lane: ProbeLane; readonly index: number }
  | { readonly kind: 'marker'; readonly row: Row; readonly lane: Lane; readonly marker: Marker }
  | { readonly kind: 'restart'; readonly row: Row; readonly lane: ContainerLane; readonly restart: RestartMark }
  | { readonly kind: 'result'; readonly row: Row; readonly lane: ProbeLane; readonly span: Span<CachedResult> }
  | { readonly kind: 'state'; readonly row: Row; readonly lane: ContainerLane; readonly span: Span<ContainerStateValue> }
  | { readonly kind: 'ready'; readonly row: Row; readonly lane: PodLane | ContainerLane; readonly span: Span<boolean> }
  | { readonly kind: 'tunnel'; readonly row: Row; readonly lane: PodLane; readonly span: Span<string> }
  /** A debugger held the pod's program (the span's value: the debug session's name). */
  | { readonly kind: 'pause'; readonly row: Row; readonly lane: PodLane; readonly span: Span<string> }
  | { readonly kind: 'kubelet'; readonly row: Row; readonly lane: PodLane | ContainerLane; readonly span: Span<KubeletVerdict> }
  | { readonly kind: 'disagreement'; readonly row: Row; readonly lane: ContainerLane; readonly span: Span<Disagreement> }
  | { readonly kind: 'clusterEvent'; readonly row: Row; readonly lane: PodLane | ContainerLane; readonly event: ClusterMarker }
  | { readonly kind: 'prediction'; readonly row: Row; readonly lane: ContainerLane; readonly prediction: PredictionMark }
  | { readonly kind: 'target'; readonly row: Row; readonly lane: PodLane; readonly target: TargetMark }
  | { readonly kind: 'dropped'; readonly row: Row; readonly lane: Lane }
  | { readonly kind: 'lane'; readonly row: Row; readonly lane: Lane };

/** The time axis as the hit test needs it (a `Viewport`). */
export interface TimeScale {
  toX(t: number): number;
  toT(x: number): number;
  readonly pxPerSecond: number;
}

export interface HitOptions {
  readonly hiddenOutcomes: ReadonlySet<MarkOutcome>;
  /** Open spans reach here. */
  readonly now: number;
  /** How near (CSS pixels) a mark or marker must be. */
  readonly tolerance?: number;
}

/** At most this many attempts are looked at around the pointer (a fully zoomed-out day is dense). */
const SCAN_LIMIT = 4096;

/** What is at `x` (CSS pixels from the plot's left) and `y` (from the top of all rows). */
export function hitTest(layout: Layout, scale: TimeScale, x: number, y: number, options: HitOptions): Hit | undefined {
  const row = rowAt(layout, y);
  if (!row) return undefined;
  const tolerance = options.tolerance ?? 5;
  const t = scale.toT(x);
  const tol = tolerance / scale.pxPerSecond;
  const inRow = y - row.y;
  const lane = row.lane;
  const dropped = lane.dropped && t < lane.dropped.throughT ? ({ kind: 'dropped', row, lane } as const) : undefined;
  switch (lane.kind) {
    case 'probe': {
      const marker = () => {
        const m = markerNear(lane.markers, t, tol);
        return m ? ({ kind: 'marker', row, lane, marker: m } as const) : undefined;
      };
      const mark = () => {
        const index = attemptNear(lane.attempts, scale, x, tolerance, options.hiddenOutcomes);
        return index >= 0 ? ({ kind: 'mark', row, lane, index } as const) : undefined;
      };
      if (inRow >= PROBE_ROW.bandTop - 1) {
        const span = spanAt(lane.results, t, options.now);
        return mark() ?? (span ? { kind: 'result', row, lane, span } : (dropped ?? { kind: 'lane', row, lane }));
      }
      const first = inRow < PROBE_ROW.markTop - 1 ? marker() ?? mark() : mark() ?? marker();
      if (first) return first;
      const span = spanAt(lane.results, t, options.now);
      return dropped ?? (span ? { kind: 'result', row, lane, span } : { kind: 'lane', row, lane });
    }
    case 'container': {
      if (inRow >= CLUSTER_CONTAINER_ROW.eventTop - 1 && showsCluster(lane)) return clusterBandHit(row, lane, t, tol, options.now, inRow < CLUSTER_CONTAINER_ROW.kubeletTop) ?? dropped ?? { kind: 'lane', row, lane };
      if (inRow < CONTAINER_ROW.bandTop + 2) {
        const prediction = nearestBy(lane.predictions, t, tol);
        if (prediction) return { kind: 'prediction', row, lane, prediction };
      }
      const restart = nearestBy(lane.restarts, t, tol);
      if (restart) return { kind: 'restart', row, lane, restart };
      const m = markerNear(lane.markers, t, tol);
      if (m) return { kind: 'marker', row, lane, marker: m };
      if (dropped) return dropped;
      if (inRow >= CONTAINER_ROW.readyTop - 1) {
        const ready = spanAt(lane.ready, t, options.now);
        if (ready) return { kind: 'ready', row, lane, span: ready };
      }
      const state = spanAt(lane.states, t, options.now);
      return state ? { kind: 'state', row, lane, span: state } : { kind: 'lane', row, lane };
    }
    case 'pod': {
      if (inRow >= CLUSTER_POD_ROW.eventTop - 1 && showsCluster(lane)) return clusterBandHit(row, lane, t, tol, options.now, inRow < CLUSTER_POD_ROW.kubeletTop) ?? dropped ?? { kind: 'lane', row, lane };
      const m = markerNear(lane.markers, t, tol);
      if (m) return { kind: 'marker', row, lane, marker: m };
      const target = nearestBy(lane.targets, t, tol);
      if (target) return { kind: 'target', row, lane, target };
      if (dropped) return dropped;
      const tunnel = lane.tunnelsDown.find((s) => s.start <= t && t < (s.end ?? options.now));
      if (tunnel) return { kind: 'tunnel', row, lane, span: tunnel };
      const pause = spanAt(lane.pauses, t, options.now);
      if (pause) return { kind: 'pause', row, lane, span: pause };
      const ready = spanAt(lane.ready, t, options.now);
      return ready ? { kind: 'ready', row, lane, span: ready } : { kind: 'lane', row, lane };
    }
  }
}

/**
 * In the cluster's band (under ours): on the events' line the cluster's event at `t`; else — and
 * in the kubelet's band under it, so a stretch between frequent events can still be pointed at —
 * a disagreement (containers), else the kubelet's Ready.
 */
function clusterBandHit(row: Row, lane: PodLane | ContainerLane, t: number, tol: number, now: number, onEventLine: boolean): Hit | undefined {
  const event = onEventLine ? markerNear(lane.clusterEvents, t, tol) : undefined;
  if (event) return { kind: 'clusterEvent', row, lane, event };
  if (lane.kind === 'container') {
    const disagreement = spanAt(lane.disagreements, t, now);
    if (disagreement) return { kind: 'disagreement', row, lane, span: disagreement };
  }
  const kubelet = spanAt(lane.kubelet, t, now);
  return kubelet ? { kind: 'kubelet', row, lane, span: kubelet } : undefined;
}

/**
 * The attempt drawn at `x`: in the pointer's own pixel column (±1) the worst outcome wins, as it
 * does when drawn; otherwise the nearest within `tolerance` pixels. -1 if none (or all filtered).
 */
export function attemptNear(attempts: AttemptColumns, scale: TimeScale, x: number, tolerance: number, hidden: ReadonlySet<MarkOutcome>): number {
  const from = attempts.lowerBound(scale.toT(x - tolerance));
  const to = Math.min(attempts.length, from + SCAN_LIMIT);
  let best = -1;
  let bestSeverity = -1;
  let nearest = -1;
  let nearestDistance = Infinity;
  for (let i = from; i < to; i++) {
    const ax = scale.toX(attempts.t[i] as number);
    if (ax > x + tolerance) break;
    const code = attempts.outcome[i] as number;
    const outcome = MARK_OUTCOMES[code] as MarkOutcome;
    if (hidden.size > 0 && hidden.has(outcome)) continue;
    const distance = Math.abs(ax - x);
    if (distance <= 1.5) {
      const severity = markSeverity(code, blamedOnPause(outcome, attempts.paused[i] === 1));
      if (severity > bestSeverity) {
        bestSeverity = severity;
        best = i;
      }
    }
    if (distance < nearestDistance) {
      nearestDistance = distance;
      nearest = i;
    }
  }
  return best >= 0 ? best : nearest;
}

/** The span that holds `t`, by binary search (spans are in time order); an open span lasts until `now`. */
export function spanAt<V>(spans: readonly Span<V>[], t: number, now: number): Span<V> | undefined {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((spans[mid] as Span<V>).start <= t) lo = mid + 1;
    else hi = mid;
  }
  const span = spans[lo - 1];
  if (!span) return undefined;
  const end = span.end ?? Math.max(now, span.start);
  return t <= end ? span : undefined;
}

/** The first index whose `t` is at or after `t` (items in time order). */
export function lowerBoundByT(items: readonly { readonly t: number }[], t: number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((items[mid] as { t: number }).t < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The item nearest to `t` within `tolerance` seconds, if any. */
export function nearestBy<T extends { readonly t: number }>(items: readonly T[], t: number, tolerance: number): T | undefined {
  const i = lowerBoundByT(items, t - tolerance);
  let best: T | undefined;
  for (let j = i; j < items.length; j++) {
    const item = items[j] as T;
    if (item.t > t + tolerance) break;
    if (!best || Math.abs(item.t - t) < Math.abs(best.t - t)) best = item;
  }
  return best;
}

/** An event marker (ours or the cluster's) near `t`; a warning beats a normal event at the same place. */
export function markerNear<M extends { readonly t: number; readonly warning: boolean }>(markers: readonly M[], t: number, tolerance: number): M | undefined {
  const i = lowerBoundByT(markers, t - tolerance);
  let best: M | undefined;
  for (let j = i; j < markers.length; j++) {
    const marker = markers[j] as M;
    if (marker.t > t + tolerance) break;
    if (!best || Math.abs(marker.t - t) < Math.abs(best.t - t) - 1e-9 || (marker.warning && !best.warning)) best = marker;
  }
  return best;
}

/** The marker on a lane that goes with an attempt at `t` (the kubelet emits it on the same tick). */
export function markerFor(markers: readonly Marker[], t: number, tolerance = 0.5): Marker | undefined {
  return nearestBy(markers, t, tolerance);
}
