/**
 * Draws the lanes on a canvas (Canvas 2D, device-pixel aware). One pass over the rows in view,
 * each drawn by its kind: bands first, then what is written or marked over them; attempt marks
 * and kill guides are only collected on the way and drawn at the end, over all rows. Hover and
 * keyboard focus are outlined last.
 */
import type { ContainerLane, PodLane, ProbeLane, Span } from '../../../core/timeline/viewModel';
import type { Hit } from '../model/hitTest';
import { CLUSTER_CONTAINER_ROW, CLUSTER_POD_ROW, CONTAINER_ROW, POD_ROW, PROBE_ROW, type Row, showsCluster, visibleRows } from '../model/layout';
import { itemTime } from '../model/markCursor';
import { AttemptMarks } from './attemptMarks';
import { containerStateName, fillContainerReady, fillContainerStates, fillPodReady, fillResults, nameSpans, podReadyName } from './bands';
import { drawClusterEvents, drawDisagreements, drawPredictions, drawTargets, fillKubelet, kubeletName } from './cluster';
import { drawGrid, drawRowBackground } from './grid';
import { LabelSpace } from './labelSpace';
import { markBox } from './markGeometry';
import { drawMarkers, KillGuides } from './markers';
import { drawDropped, drawRestarts, drawTimeLines, drawTunnelsDown } from './overlays';
import { type Frame, Paint } from './paint';
import { drawPauses } from './pauses';

/** The height of a row's part of our own items: all of it, or above the cluster's band where it has one (its items are boxed on their own). */
function oursHeight(row: Row): number {
  if (!showsCluster(row.lane)) return row.height - 2;
  return (row.lane.kind === 'pod' ? CLUSTER_POD_ROW.eventTop : CLUSTER_CONTAINER_ROW.eventTop) - 2;
}

/** A rectangle on the canvas, in CSS px. */
export interface Box {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

export class Renderer {
  private readonly paint: Paint;
  private dpr = 1;
  private drawn = false;
  private readonly marks = new AttemptMarks();
  private readonly guides = new KillGuides();
  /** What is written in the row being drawn, so band names go around it. */
  private readonly labels = new LabelSpace();
  /** The same for the cluster's band under ours (a line of its own). */
  private readonly clusterLabels = new LabelSpace();

  constructor(private readonly canvas: HTMLCanvasElement) {
    const ctx = canvas.getContext('2d', { alpha: false });
    if (!ctx) throw new Error('Canvas 2D is not available');
    this.paint = new Paint(ctx);
  }

  /** Sizes the backing store for `width`×`height` CSS pixels at the device's pixel ratio. */
  resize(width: number, height: number, dpr: number): void {
    const w = Math.max(1, Math.floor(width));
    const h = Math.max(1, Math.floor(height));
    const p = this.paint;
    if (w === p.width && h === p.height && dpr === this.dpr) return;
    p.width = w;
    p.height = h;
    this.dpr = dpr;
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(h * dpr);
    this.canvas.style.width = `${w}px`;
    this.canvas.style.height = `${h}px`;
  }

  /** CSS pixels. */
  get width(): number {
    return this.paint.width;
  }

  get height(): number {
    return this.paint.height;
  }

  draw(frame: Frame): void {
    const p = this.paint;
    const { ctx } = p;
    p.begin(frame);
    this.drawn = true;
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.globalAlpha = 1;
    ctx.fillStyle = frame.palette.background;
    ctx.fillRect(0, 0, p.width, p.height);
    drawGrid(p);
    this.marks.clear();
    this.guides.clear();
    const [first, end] = visibleRows(frame.layout, frame.scrollTop, frame.scrollTop + p.height);
    for (let i = first; i < end; i++) {
      const row = frame.layout.rows[i] as Row;
      const top = row.y - frame.scrollTop;
      drawRowBackground(p, row, top);
      switch (row.lane.kind) {
        case 'pod':
          this.drawPod(row.lane, top);
          break;
        case 'container':
          this.drawContainer(row.lane, top);
          break;
        case 'probe':
          this.drawProbe(row.lane, top);
          break;
      }
      drawDropped(p, row, top);
    }
    this.marks.flush(p);
    this.guides.draw(p);
    drawTimeLines(p);
    if (frame.selection) this.drawSelection(frame.selection, first, end);
    if (frame.hover) this.outline(frame.hover, 1, false);
    if (frame.focus) this.outline(frame.focus, 2, true);
  }

  /** The Ready band, tunnels down and a debugger's pauses over it, the cluster pod probed, its name where they leave room, the pod's events; the cluster's band under it. */
  private drawPod(lane: PodLane, top: number): void {
    const p = this.paint;
    const labels = this.labels;
    labels.clear();
    fillPodReady(p, lane, top);
    drawTunnelsDown(p, lane, top, labels);
    drawPauses(p, lane, top, labels);
    drawTargets(p, lane, top, labels);
    nameSpans(p, lane.ready, podReadyName, top + POD_ROW.bandTop + POD_ROW.bandHeight / 2, labels);
    drawMarkers(p, lane.markers, top + 1, 'pod', undefined, this.guides);
    if (!showsCluster(lane)) return;
    const row = CLUSTER_POD_ROW;
    this.clusterLabels.clear();
    fillKubelet(p, lane.kubelet, top + row.kubeletTop, row.kubeletHeight);
    nameSpans(p, lane.kubelet, kubeletName, top + row.kubeletTop + row.kubeletHeight / 2, this.clusterLabels);
    drawClusterEvents(p, lane.clusterEvents, top + row.eventTop);
  }

  /** The state band, restarts over it (labelled first: the state names go where they leave room), the ready strip, kills and back-offs. */
  private drawContainer(lane: ContainerLane, top: number): void {
    const p = this.paint;
    const labels = this.labels;
    labels.clear();
    fillContainerStates(p, lane, top);
    drawRestarts(p, lane, top, labels);
    nameSpans(p, lane.states, containerStateName, top + CONTAINER_ROW.bandTop + CONTAINER_ROW.bandHeight / 2, labels);
    fillContainerReady(p, lane, top);
    if (showsCluster(lane)) this.drawContainerCluster(lane, top);
    drawPredictions(p, lane, top + 1);
    drawMarkers(p, lane.markers, top + 1, 'container', lane, this.guides);
  }

  /** Under our ready strip: the kubelet's Ready, disagreements across both (named first), the cluster's events. */
  private drawContainerCluster(lane: ContainerLane, top: number): void {
    const p = this.paint;
    const row = CLUSTER_CONTAINER_ROW;
    const labels = this.clusterLabels;
    labels.clear();
    fillKubelet(p, lane.kubelet, top + row.kubeletTop, row.kubeletHeight);
    drawDisagreements(p, lane, top, labels);
    nameSpans(p, lane.kubelet, kubeletName, top + row.kubeletTop + row.kubeletHeight / 2, labels);
    drawClusterEvents(p, lane.clusterEvents, top + row.eventTop);
  }

  /** The cached result under the marks, the kubelet's events above them, the marks (collected, drawn at the end). */
  private drawProbe(lane: ProbeLane, top: number): void {
    const p = this.paint;
    fillResults(p, lane, top);
    drawMarkers(p, lane.markers, top + PROBE_ROW.markerTop, 'probe', undefined, this.guides);
    this.marks.collect(p, lane, top);
  }

  /** The selected moment (the *why* explains it): a rule at its time through the container's row and its probes' rows in view. */
  private drawSelection(selection: NonNullable<Frame['selection']>, first: number, end: number): void {
    const p = this.paint;
    const frame = p.frame;
    const x = Math.round(frame.viewport.toX(selection.t));
    if (x < -2 || x > p.width + 2) return;
    const { ctx } = p;
    ctx.fillStyle = frame.palette.focus;
    for (let i = first; i < end; i++) {
      const row = frame.layout.rows[i] as Row;
      const lane = row.lane;
      if (lane !== selection.lane && !(lane.kind === 'probe' && selection.lane.probes.includes(lane))) continue;
      const top = row.y - frame.scrollTop;
      ctx.fillRect(x - 1, top, 2, row.height);
      // A notch at the container row's top: the rule is a moment picked, not the live edge.
      if (lane === selection.lane) ctx.fillRect(x - 4, top, 8, 2);
    }
  }

  /** Where a hit is drawn in the last frame, as a box (CSS pixels on the canvas), for outlines and the test hooks. */
  boxOf(hit: Hit): Box | undefined {
    if (!this.drawn) return undefined;
    const p = this.paint;
    const frame = p.frame;
    const v = frame.viewport;
    const top = hit.row.y - frame.scrollTop;
    switch (hit.kind) {
      case 'mark':
        return markBox(hit.lane, hit.index, v.toX(hit.lane.attempts.t[hit.index] as number), top, v.pxPerSecond);
      case 'marker':
      case 'restart':
      case 'prediction':
      case 'target':
        // A prediction is on the markers' line only (the state band under it is another item).
        return { x: Math.round(v.toX(itemTime(hit))) - 4, y: top + 1, w: 8, h: hit.kind === 'prediction' ? CONTAINER_ROW.bandTop + 1 : oursHeight(hit.row) };
      case 'clusterEvent':
      case 'kubelet':
      case 'disagreement':
        return this.clusterBox(hit, top);
      case 'lane':
      case 'dropped':
        return { x: 0, y: top, w: p.width, h: hit.row.height };
      default: {
        const span = hit.span as Span<unknown>;
        const x0 = Math.max(0, v.toX(span.start));
        const x1 = Math.min(p.width, v.toX(span.end ?? frame.now));
        return { x: x0, y: top + 1, w: Math.max(1, x1 - x0), h: oursHeight(hit.row) };
      }
    }
  }

  /** Where an item of the cluster's band is drawn: its events' line, the kubelet's band (a disagreement also covers our ready strip). */
  private clusterBox(hit: Extract<Hit, { kind: 'clusterEvent' | 'kubelet' | 'disagreement' }>, top: number): Box {
    const p = this.paint;
    const frame = p.frame;
    const v = frame.viewport;
    const row = hit.lane.kind === 'pod' ? CLUSTER_POD_ROW : CLUSTER_CONTAINER_ROW;
    const bottom = top + row.kubeletTop + row.kubeletHeight + 1;
    // An event is on its line, over the kubelet's band (which is pointed at as the band).
    if (hit.kind === 'clusterEvent') return { x: Math.round(v.toX(hit.event.t)) - 4, y: top + row.eventTop - 1, w: 8, h: row.eventHeight + 1 };
    const y = hit.kind === 'disagreement' ? top + CONTAINER_ROW.readyTop - 2 : top + row.kubeletTop;
    const x0 = Math.max(0, v.toX(hit.span.start));
    const x1 = Math.min(p.width, v.toX(hit.span.end ?? frame.now));
    return { x: x0, y, w: Math.max(1, x1 - x0), h: bottom - y };
  }

  /** A rectangle around what the pointer is on (thin) or the keyboard is on (thick, focus colour). */
  private outline(hit: Hit, width: number, focus: boolean): void {
    const box = this.boxOf(hit);
    if (!box) return;
    const { ctx } = this.paint;
    const palette = this.paint.frame.palette;
    ctx.strokeStyle = focus ? palette.focus : palette.foreground;
    ctx.lineWidth = width;
    const pad = hit.kind === 'mark' ? 2 : 0;
    ctx.strokeRect(box.x - pad - width / 2, box.y - pad - width / 2, box.w + 2 * pad + width, box.h + 2 * pad + width);
  }
}
