/**
 * What is drawn over the bands: restarts (a rule and `↻2 <container id>`), cluster tunnels down
 * (cross-hatched, named), stretches a lane dropped events from (hatched, `incomplete before`), and
 * the live edge and replay playhead across all rows.
 */
import type { ContainerLane, PodLane } from '../../../core/timeline/viewModel';
import { shortContainerId } from '../words/describe';
import { lowerBoundByT } from '../model/hitTest';
import { CONTAINER_ROW, POD_ROW, ROW_HEIGHT, type Row } from '../model/layout';
import { eachSpan } from './bands';
import type { LabelSpace } from './labelSpace';
import type { Paint } from './paint';

/** A restart is labelled only with at least this much room before the next one (CSS px). */
const RESTART_LABEL_MIN_ROOM = 30;

/**
 * Each restart in view: a rule through the state band and ready strip, and its count and new
 * container id when there is room before the next restart (only the count when the id does not
 * fit). What is written is taken in `labels`, so the state names go around it.
 */
export function drawRestarts(p: Paint, lane: ContainerLane, top: number, labels: LabelSpace): void {
  const { ctx } = p;
  const v = p.frame.viewport;
  const restarts = lane.restarts;
  const textY = top + CONTAINER_ROW.bandTop + CONTAINER_ROW.bandHeight / 2;
  let labelEnd = -Infinity;
  let lastX = -Infinity;
  ctx.fillStyle = p.frame.palette.foreground;
  for (let i = lowerBoundByT(restarts, v.start - 1 / v.pxPerSecond); i < restarts.length; i++) {
    const r = restarts[i] as (typeof restarts)[number];
    if (r.t > v.end) break;
    const x = Math.round(v.toX(r.t));
    if (x === lastX) continue;
    lastX = x;
    ctx.fillRect(x - 1, top + 3, 2, CONTAINER_ROW.readyTop + CONTAINER_ROW.readyHeight - 3);
    const next = restarts[i + 1];
    const room = (next ? v.toX(next.t) : p.width) - x - 8;
    if (x + 4 <= labelEnd || room <= RESTART_LABEL_MIN_ROOM) continue;
    const full = `↻${r.restartCount} ${shortContainerId(r.containerId)}`;
    const text = p.textWidth(full) <= room ? full : `↻${r.restartCount}`;
    const width = p.textWidth(text);
    if (width > room) continue;
    ctx.fillText(text, x + 4, textY);
    labelEnd = x + 4 + width;
    labels.take(x, labelEnd);
  }
}

/** A pod's port-forward tunnels while down: cross-hatched across the row, edged, named when there is room. */
export function drawTunnelsDown(p: Paint, lane: PodLane, top: number, labels: LabelSpace): void {
  const { ctx } = p;
  const palette = p.frame.palette;
  const y = top + POD_ROW.bandTop;
  const h = POD_ROW.bandHeight;
  eachSpan(p, lane.tunnelsDown, (which, x0, x1) => {
    ctx.fillStyle = palette.hatchTunnel;
    ctx.fillRect(x0, top + 2, x1 - x0, ROW_HEIGHT.pod - 4);
    ctx.fillStyle = palette.tunnel;
    ctx.fillRect(x0, top + 2, x1 - x0, 2);
    ctx.fillRect(x0, y + h + 2, x1 - x0, 2);
    const text = `tunnel down ${which}`;
    const width = p.textWidth(text);
    if (width + 8 <= Math.min(x1, p.width) - Math.max(x0, 0)) {
      // On a plate of background: the hatch would make the words hard to read.
      ctx.fillStyle = palette.background;
      ctx.fillRect(Math.max(x0, 0) + 2, y + 1, width + 4, h - 2);
      ctx.fillStyle = palette.foreground;
      ctx.fillText(text, Math.max(x0, 0) + 4, y + h / 2);
    }
    labels.take(x0, x1);
  });
}

/** A lane whose oldest events the store dropped: hatched up to where it is complete again, with a rule and a word there. */
export function drawDropped(p: Paint, row: Row, top: number): void {
  const dropped = row.lane.dropped;
  if (!dropped) return;
  const x1 = Math.min(p.width, p.frame.viewport.toX(dropped.throughT));
  if (x1 <= 0) return;
  const { ctx } = p;
  const palette = p.frame.palette;
  ctx.globalAlpha = 0.55;
  ctx.fillStyle = palette.hatchDropped;
  ctx.fillRect(0, top + 1, x1, row.height - 2);
  ctx.globalAlpha = 1;
  ctx.fillStyle = palette.muted;
  ctx.fillRect(Math.round(x1) - 1, top + 1, 2, row.height - 2);
  const text = 'incomplete before';
  const w = p.textWidth(text);
  if (x1 - w - 6 > 0) {
    ctx.fillStyle = palette.background;
    ctx.fillRect(x1 - w - 8, top + 2, w + 6, 12);
    ctx.fillStyle = palette.muted;
    ctx.fillText(text, x1 - w - 5, top + 8);
  }
}

/** The live edge (thin) and the replay playhead (thicker), top to bottom. */
export function drawTimeLines(p: Paint): void {
  const { ctx, frame } = p;
  const palette = frame.palette;
  const v = frame.viewport;
  if (frame.liveEdge !== undefined) {
    const x = Math.round(v.toX(frame.liveEdge));
    if (x >= 0 && x <= p.width) {
      ctx.fillStyle = palette.now;
      ctx.globalAlpha = 0.8;
      ctx.fillRect(x, 0, 1, p.height);
      ctx.globalAlpha = 1;
    }
  }
  if (frame.playhead !== undefined) {
    const x = Math.round(v.toX(frame.playhead));
    if (x >= 0 && x <= p.width) {
      ctx.fillStyle = palette.now;
      ctx.fillRect(x - 1, 0, 2, p.height);
    }
  }
}
