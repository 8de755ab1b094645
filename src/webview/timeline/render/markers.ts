/**
 * The kubelet's events as markers: on a probe lane small triangles (`Unhealthy`, `ProbeWarning`),
 * on a container lane kills as tall triangles with a dashed guide down to the probe whose failures
 * caused them, back-offs as diamonds, on a pod lane small diamonds.
 */
import { MARK_OUTCOMES } from '../../../core/timeline/columns';
import { probeLaneKey } from '../../../core/timeline/laneKeys';
import type { ContainerLane, Marker } from '../../../core/timeline/viewModel';
import { lowerBoundByT } from '../model/hitTest';
import { CONTAINER_ROW, PROBE_ROW } from '../model/layout';
import type { Paint } from './paint';
import { RectList } from './rectList';

export type MarkerStyle = 'pod' | 'container' | 'probe';

const FAILURE_CODE = MARK_OUTCOMES.indexOf('failure');
const WARNING_CODE = MARK_OUTCOMES.indexOf('warning');
/** Markers this close to the view's edges (CSS px) are still drawn: their shapes reach into it. */
export const MARKER_REACH = 6;

/** Kill markers' guides, collected while rows are drawn and stroked over all of them at the end. */
export class KillGuides {
  /** x, y from, 1, length. */
  private readonly list = new RectList();

  clear(): void {
    this.list.length = 0;
  }

  add(x: number, from: number, length: number): void {
    this.list.push(x, from, 1, length);
  }

  /** Dashed, over the rows they cross. */
  draw(p: Paint): void {
    const list = this.list;
    if (list.length === 0) return;
    const { ctx } = p;
    ctx.strokeStyle = p.frame.palette.kill;
    ctx.lineWidth = 1;
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    const d = list.data;
    for (let i = 0; i < list.length * 4; i += 4) {
      const x = (d[i] as number) + 0.5;
      ctx.moveTo(x, d[i + 1] as number);
      ctx.lineTo(x, (d[i + 1] as number) + (d[i + 3] as number));
    }
    ctx.stroke();
    ctx.setLineDash([]);
  }
}

/**
 * Calls `draw(marker, x)` for each marker in view (or near enough that its shape reaches into it),
 * in time order; markers that fall on one pixel with the same reason are drawn once.
 */
export function eachMarkerInView<M extends { readonly t: number; readonly reason: string }>(p: Paint, markers: readonly M[], draw: (marker: M, x: number) => void): void {
  const v = p.frame.viewport;
  const reach = MARKER_REACH / v.pxPerSecond;
  let lastX = Number.NaN;
  let lastReason = '';
  for (let i = lowerBoundByT(markers, v.start - reach); i < markers.length; i++) {
    const m = markers[i] as M;
    if (m.t > v.end + reach) break;
    const x = Math.round(v.toX(m.t));
    if (x === lastX && m.reason === lastReason) continue;
    lastX = x;
    lastReason = m.reason;
    draw(m, x);
  }
}

/**
 * The `markers` of a lane whose markers' line is at `top`, in `style`. `container` (its lane, for
 * `container` style) finds the probe row a kill's guide goes down to.
 */
export function drawMarkers(p: Paint, markers: readonly Marker[], top: number, style: MarkerStyle, container: ContainerLane | undefined, guides: KillGuides): void {
  if (markers.length === 0) return;
  const { ctx, frame } = p;
  const palette = frame.palette;
  eachMarkerInView(p, markers, (m, x) => {
    if (style === 'container' && m.reason === 'Killing') {
      ctx.fillStyle = palette.kill;
      triangle(ctx, x, top, 5, 8);
      const stripBottom = top + CONTAINER_ROW.readyTop + CONTAINER_ROW.readyHeight;
      ctx.fillRect(x - 0.5, top + 8, 1, stripBottom - top - 8);
      // The kill lines up with the last failed mark of the probe that caused it.
      const probeRow = container && m.probe ? frame.layout.byId.get(probeLaneKey(container.pod, container.name, m.probe)) : undefined;
      if (probeRow) guides.add(x, stripBottom, probeRow.y - frame.scrollTop + PROBE_ROW.markTop - stripBottom);
      return;
    }
    if (m.reason === 'BackOff') {
      ctx.fillStyle = palette.backOff;
      diamond(ctx, x, top + 3, 3.5);
      return;
    }
    ctx.fillStyle = m.reason === 'Unhealthy' ? (palette.outcomes[FAILURE_CODE] as string) : m.reason === 'ProbeWarning' || m.warning ? (palette.outcomes[WARNING_CODE] as string) : palette.eventMarker;
    if (style === 'probe') triangle(ctx, x, top, 3, 5);
    else diamond(ctx, x, top + 3, 3);
  });
}

/** A downward triangle's path, its flat top at `top` (the cluster's hollow markers stroke it too). */
export function trianglePath(ctx: CanvasRenderingContext2D, x: number, top: number, half: number, height: number): void {
  ctx.beginPath();
  ctx.moveTo(x - half, top);
  ctx.lineTo(x + half, top);
  ctx.lineTo(x, top + height);
  ctx.closePath();
}

function triangle(ctx: CanvasRenderingContext2D, x: number, top: number, half: number, height: number): void {
  trianglePath(ctx, x, top, half, height);
  ctx.fill();
}

function diamond(ctx: CanvasRenderingContext2D, x: number, y: number, r: number): void {
  ctx.beginPath();
  ctx.moveTo(x, y - r);
  ctx.lineTo(x + r, y);
  ctx.lineTo(x, y + r);
  ctx.lineTo(x - r, y);
  ctx.closePath();
  ctx.fill();
}
