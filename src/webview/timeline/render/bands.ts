/**
 * Bands: a pod's Ready condition, a container's state and ready strip, a probe's cached result.
 * Spans are filled first; their names (`running`, `Ready`) are written afterwards where the row's
 * `LabelSpace` leaves room.
 */
import type { CachedResult } from '../../../core/engine/results';
import type { ContainerLane, ContainerStateValue, PodLane, ProbeLane, Span } from '../../../core/timeline/viewModel';
import { CONTAINER_ROW, POD_ROW, PROBE_ROW } from '../model/layout';
import type { LabelSpace } from './labelSpace';
import type { Paint } from './paint';

/** Calls `draw(value, x0, x1)` for the spans in view, clipped to the canvas (±2 px), at least 1 px wide; an open span reaches `now`. */
export function eachSpan<V>(p: Paint, spans: readonly Span<V>[], draw: (value: V, x0: number, x1: number) => void): void {
  const v = p.frame.viewport;
  // Spans are in time order and do not overlap: the one holding the view's start, then on.
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((spans[mid] as Span<V>).start <= v.start) lo = mid + 1;
    else hi = mid;
  }
  for (let i = Math.max(0, lo - 1); i < spans.length; i++) {
    const span = spans[i] as Span<V>;
    if (span.start > v.end) break;
    const end = span.end ?? Math.max(p.frame.now, span.start);
    if (end < v.start) continue;
    const x0 = Math.max(-2, v.toX(span.start));
    const x1 = Math.min(p.width + 2, v.toX(end));
    draw(span.value, x0, Math.max(x1, x0 + 1));
  }
}

/**
 * A stretch drawn over the bands that must read as something else than a state (a debugger's
 * pause, a disagreement with the kubelet), and its legend swatch: `colour` at `alpha.tint` under
 * `pattern` at `alpha.pattern`, edged top and bottom in `colour`. Leaves the fill style `colour`.
 */
export function fillEdgedStretch(
  ctx: CanvasRenderingContext2D,
  colour: string,
  pattern: CanvasPattern | string,
  alpha: { readonly tint: number; readonly pattern: number },
  x: number,
  y: number,
  w: number,
  h: number,
): void {
  ctx.fillStyle = colour;
  ctx.globalAlpha = alpha.tint;
  ctx.fillRect(x, y, w, h);
  ctx.globalAlpha = alpha.pattern;
  ctx.fillStyle = pattern;
  ctx.fillRect(x, y, w, h);
  ctx.globalAlpha = 1;
  ctx.fillStyle = colour;
  ctx.fillRect(x, y, w, 1);
  ctx.fillRect(x, y + h - 1, w, 1);
}

/** `text` at `x` on the line at `y`, on a plate of background: a band or hatch under it would make the words hard to read. */
export function writeOnPlate(p: Paint, text: string, x: number, y: number): void {
  const { ctx } = p;
  const palette = p.frame.palette;
  const width = p.textWidth(text);
  ctx.fillStyle = palette.background;
  ctx.fillRect(x - 2, y - 6, width + 4, 12);
  ctx.fillStyle = palette.foreground;
  ctx.fillText(text, x, y);
}

/** Writes each span's name where `labels` leaves room in it, on the line at `y`. */
export function nameSpans<V>(p: Paint, spans: readonly Span<V>[], name: (value: V) => string, y: number, labels: LabelSpace): void {
  const { ctx } = p;
  eachSpan(p, spans, (value, x0, x1) => {
    const text = name(value);
    const left = labels.place(x0, x1, p.textWidth(text), p.width);
    if (left === undefined) return;
    ctx.fillStyle = p.frame.palette.foreground;
    ctx.fillText(text, left, y);
  });
}

/** The pod's Ready condition: ready strong, not ready faint. */
export function fillPodReady(p: Paint, lane: PodLane, top: number): void {
  const { ctx } = p;
  const palette = p.frame.palette;
  const y = top + POD_ROW.bandTop;
  const h = POD_ROW.bandHeight;
  eachSpan(p, lane.ready, (ready, x0, x1) => {
    ctx.fillStyle = ready ? palette.ready : palette.notReady;
    ctx.globalAlpha = ready ? 0.45 : 0.22;
    ctx.fillRect(x0, y, x1 - x0, h);
    ctx.globalAlpha = 1;
    if (palette.highContrast && palette.contrast) p.strokeBox(x0, y, x1 - x0, h, palette.contrast);
  });
}

export function podReadyName(ready: boolean): string {
  return ready ? 'Ready' : 'Not ready';
}

/** The container's state: running, waiting, terminated; a CrashLoopBackOff wait hatched, so it reads without colour. */
export function fillContainerStates(p: Paint, lane: ContainerLane, top: number): void {
  const { ctx } = p;
  const palette = p.frame.palette;
  const y = top + CONTAINER_ROW.bandTop;
  const h = CONTAINER_ROW.bandHeight;
  eachSpan(p, lane.states, (value, x0, x1) => {
    if (value.state === 'waiting' && value.reason === 'CrashLoopBackOff') {
      ctx.fillStyle = palette.backOff;
      ctx.globalAlpha = 0.18;
      ctx.fillRect(x0, y, x1 - x0, h);
      ctx.globalAlpha = 1;
      ctx.fillStyle = palette.hatchBackOff;
      ctx.fillRect(x0, y, x1 - x0, h);
    } else {
      ctx.fillStyle = value.state === 'running' ? palette.running : value.state === 'waiting' ? palette.waiting : value.reason === 'Completed' ? palette.muted : palette.terminated;
      ctx.globalAlpha = value.state === 'running' ? 0.4 : 0.3;
      ctx.fillRect(x0, y, x1 - x0, h);
      ctx.globalAlpha = 1;
    }
    if (palette.highContrast && palette.contrast) p.strokeBox(x0, y, x1 - x0, h, palette.contrast);
  });
}

export function containerStateName(value: ContainerStateValue): string {
  return value.reason ? `${value.state} · ${value.reason}` : value.state;
}

/** The thin strip under a container's state: its ready flag. */
export function fillContainerReady(p: Paint, lane: ContainerLane, top: number): void {
  const { ctx } = p;
  const palette = p.frame.palette;
  const y = top + CONTAINER_ROW.readyTop;
  eachSpan(p, lane.ready, (ready, x0, x1) => {
    ctx.fillStyle = ready ? palette.ready : palette.notReady;
    ctx.globalAlpha = ready ? 0.9 : 0.35;
    ctx.fillRect(x0, y, x1 - x0, CONTAINER_ROW.readyHeight);
    ctx.globalAlpha = 1;
  });
}

/** The probe's cached result, the band under its marks. */
export function fillResults(p: Paint, lane: ProbeLane, top: number): void {
  const { ctx } = p;
  const palette = p.frame.palette;
  const y = top + PROBE_ROW.bandTop;
  eachSpan(p, lane.results, (value: CachedResult, x0, x1) => {
    ctx.fillStyle = value === 'Success' ? palette.resultSuccess : value === 'Failure' ? palette.resultFailure : palette.resultUnknown;
    ctx.globalAlpha = value === 'Unknown' ? 0.45 : 0.6;
    ctx.fillRect(x0, y, x1 - x0, PROBE_ROW.bandHeight);
    ctx.globalAlpha = 1;
    if (palette.highContrast && palette.contrast) p.strokeBox(x0, y, x1 - x0, PROBE_ROW.bandHeight, palette.contrast);
  });
}
