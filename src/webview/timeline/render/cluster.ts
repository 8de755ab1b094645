/**
 * What the cluster says, drawn under and over our bands (cluster sessions): the kubelet's own
 * Ready as an outlined band under ours, the cluster's events as hollow markers over it (ours are
 * filled), disagreements as a hatched stretch across both verdicts, our predicted kills (hollow,
 * then filled where the cluster did kill, crossed where it did not), and the cluster pod probed.
 */
import type { ClusterMarker, KubeletVerdict, PredictionMark } from '../../../core/timeline/clusterLanes';
import { MARK_OUTCOMES } from '../../../core/timeline/columns';
import type { Span } from '../../../core/timeline/spans';
import type { ContainerLane, PodLane } from '../../../core/timeline/viewModel';
import { lowerBoundByT } from '../model/hitTest';
import { CLUSTER_CONTAINER_ROW, CONTAINER_ROW, POD_ROW } from '../model/layout';
import type { Palette } from './theme';
import { eachSpan, fillEdgedStretch, writeOnPlate } from './bands';
import type { LabelSpace } from './labelSpace';
import { eachMarkerInView, MARKER_REACH, trianglePath } from './markers';
import type { Paint } from './paint';

const FAILURE_CODE = MARK_OUTCOMES.indexOf('failure');

/** The kubelet's Ready: a lighter fill than ours, edged top and bottom, so it reads as another's verdict. */
export function fillKubelet(p: Paint, spans: readonly Span<KubeletVerdict>[], y: number, h: number): void {
  const { ctx } = p;
  const palette = p.frame.palette;
  eachSpan(p, spans, (v, x0, x1) => {
    const colour = v.ready ? palette.kubeletReady : palette.kubeletNotReady;
    ctx.fillStyle = colour;
    ctx.globalAlpha = v.ready ? 0.22 : 0.12;
    ctx.fillRect(x0, y, x1 - x0, h);
    ctx.globalAlpha = v.ready ? 0.9 : 0.6;
    ctx.fillRect(x0, y, x1 - x0, 1);
    ctx.fillRect(x0, y + h - 1, x1 - x0, 1);
    ctx.globalAlpha = 1;
    if (palette.highContrast && palette.contrast) p.strokeBox(x0, y, x1 - x0, h, palette.contrast);
  });
}

export function kubeletName(v: KubeletVerdict): string {
  return v.ready ? 'kubelet: Ready' : 'kubelet: not ready';
}

/**
 * Where ours and the kubelet's readiness differ: hatched in the warning colour from our ready
 * strip down through the kubelet's band, edged, and named in the band where it leaves room.
 */
export function drawDisagreements(p: Paint, lane: ContainerLane, top: number, labels: LabelSpace): void {
  if (lane.disagreements.length === 0) return;
  const { ctx } = p;
  const palette = p.frame.palette;
  const y0 = top + CONTAINER_ROW.readyTop - 2;
  const y1 = top + CLUSTER_CONTAINER_ROW.kubeletTop + CLUSTER_CONTAINER_ROW.kubeletHeight + 1;
  const textY = top + CLUSTER_CONTAINER_ROW.kubeletTop + CLUSTER_CONTAINER_ROW.kubeletHeight / 2;
  eachSpan(p, lane.disagreements, (v, x0, x1) => {
    fillDisagreement(ctx, palette, x0, y0, x1 - x0, y1 - y0);
    if (v.ours !== v.kubelet) ctx.fillRect(x1 - 1, y0, 1, y1 - y0);
    const words = [`ours ${v.ours ? 'Ready' : 'not ready'} ≠ kubelet · ${v.cause}`, `≠ ${v.cause}`, '≠'];
    const left = Math.max(x0, 0) + 5;
    const room = Math.min(x1, p.width) - left - 4;
    const text = words.find((w) => p.textWidth(w) + 4 <= room);
    if (text === undefined) return;
    writeOnPlate(p, text, left, textY);
    labels.take(x0, left + p.textWidth(text) + 2);
  });
}

/**
 * A disagreement's stretch (and its legend swatch): the warning colour, faint, hatched over, edged
 * top, bottom and at its start. Leaves the fill style the edge's colour.
 */
export function fillDisagreement(ctx: CanvasRenderingContext2D, palette: Palette, x: number, y: number, w: number, h: number): void {
  fillEdgedStretch(ctx, palette.disagreement, palette.hatchDisagreement, { tint: 0.14, pattern: 0.7 }, x, y, w, h);
  ctx.fillRect(x, y, 2, h);
}

/** The cluster's events: hollow downward triangles with their flat top at `y`, coloured by what they say (one per pixel and reason, as ours). */
export function drawClusterEvents(p: Paint, events: readonly ClusterMarker[], y: number): void {
  if (events.length === 0) return;
  const { ctx } = p;
  const palette = p.frame.palette;
  ctx.lineWidth = 1.5;
  eachMarkerInView(p, events, (e, x) => {
    ctx.strokeStyle = e.reason === 'Killing' ? palette.kill : e.reason === 'BackOff' ? palette.backOff : e.reason === 'Unhealthy' ? (palette.outcomes[FAILURE_CODE] as string) : e.warning ? palette.disagreement : palette.clusterEvent;
    ctx.fillStyle = palette.background;
    trianglePath(ctx, x + 0.5, y + 0.75, 3.5, 5);
    ctx.fill();
    ctx.stroke();
  });
}

/**
 * Our predicted kills, on the markers' line: a hollow triangle where our engine would have killed,
 * a dashed line on to how it ended (to now while pending), and there a filled triangle (the
 * cluster did kill) or a cross (it did not).
 */
export function drawPredictions(p: Paint, lane: ContainerLane, top: number): void {
  const predictions = lane.predictions;
  if (predictions.length === 0) return;
  const { ctx, frame } = p;
  const v = frame.viewport;
  const palette = frame.palette;
  const reach = MARKER_REACH / v.pxPerSecond;
  // A pending prediction's line reaches on to its outcome: every one is looked at (one per container instance killed).
  ctx.lineWidth = 1.5;
  for (let i = 0; i < predictions.length; i++) {
    const m = predictions[i] as PredictionMark;
    if (m.t > v.end + reach) break;
    const x = Math.round(v.toX(m.t));
    if (m.state === 'pending') {
      const end = m.settled?.t ?? frame.now;
      if (v.toX(end) < -MARKER_REACH) continue;
      ctx.strokeStyle = palette.prediction;
      ctx.setLineDash([2, 3]);
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(x + 5, top + 3.5);
      ctx.lineTo(Math.round(v.toX(end)) - 4, top + 3.5);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.lineWidth = 1.5;
      ctx.fillStyle = palette.background;
      trianglePath(ctx, x + 0.5, top + 0.75, 4.5, 7);
      ctx.fill();
      ctx.stroke();
    } else if (m.t >= v.start - reach) {
      if (m.state === 'confirmed') {
        ctx.fillStyle = palette.prediction;
        trianglePath(ctx, x, top, 5, 8);
        ctx.fill();
      } else {
        ctx.strokeStyle = palette.disagreement;
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.moveTo(x - 3.5, top + 0.5);
        ctx.lineTo(x + 3.5, top + 7.5);
        ctx.moveTo(x + 3.5, top + 0.5);
        ctx.lineTo(x - 3.5, top + 7.5);
        ctx.stroke();
        ctx.lineWidth = 1.5;
      }
    }
  }
}

/**
 * Where the cluster pod a pod is probed through changed (and where probing began): a rule through
 * our Ready band and `→ web-7d9f-abc` after it when there is room before the next. What is
 * written is taken in `labels`, so the band's names go around it.
 */
export function drawTargets(p: Paint, lane: PodLane, top: number, labels: LabelSpace): void {
  const targets = lane.targets;
  if (targets.length === 0) return;
  const { ctx } = p;
  const v = p.frame.viewport;
  const palette = p.frame.palette;
  const textY = top + POD_ROW.bandTop + POD_ROW.bandHeight / 2;
  // The one in force at the view's start is named too (at the edge), so the pod probed is always said.
  for (let i = Math.max(0, lowerBoundByT(targets, v.start) - 1); i < targets.length; i++) {
    const g = targets[i] as (typeof targets)[number];
    if (g.t > v.end) break;
    const x = Math.round(v.toX(g.t));
    ctx.fillStyle = palette.target;
    if (x >= 0) ctx.fillRect(x - 1, top + 2, 2, POD_ROW.bandTop + POD_ROW.bandHeight);
    const next = targets[i + 1];
    const end = next ? v.toX(next.t) : p.width;
    const full = `→ ${g.clusterPod}${g.podIP !== undefined ? ` (${g.podIP})` : ''}`;
    // Narrower: the name, then its last part (a ReplicaSet's pods differ in their suffix).
    const suffix = `→ …${g.clusterPod.slice(g.clusterPod.lastIndexOf('-') + 1)}`;
    for (const text of [full, `→ ${g.clusterPod}`, suffix]) {
      const width = p.textWidth(text);
      // Around what is written already (a tunnel down's note).
      const left = labels.place(x, end, width, p.width);
      if (left === undefined) continue;
      ctx.fillStyle = palette.foreground;
      ctx.fillText(text, left, textY);
      labels.take(Math.max(x, 0), left + width);
      break;
    }
  }
}
