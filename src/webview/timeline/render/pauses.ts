/**
 * A debugger's pauses (issue 12 §4), drawn on the pod's lane: the stretch tinted and edged in the
 * pause colour across the row, named (`paused by debugger api (launch)`) where it leaves room —
 * and, on the probes' lanes, the attempts that failed because of it (`attemptMarks.ts`), hatched
 * in the same colour so they read as the pause's, not the app's.
 */
import type { PodLane } from '../../../core/timeline/viewModel';
import { POD_ROW, ROW_HEIGHT } from '../model/layout';
import type { Palette } from './theme';
import { eachSpan, fillEdgedStretch, writeOnPlate } from './bands';
import type { LabelSpace } from './labelSpace';
import type { Paint } from './paint';

export function pauseName(debugSession: string): string {
  return `paused by debugger ${debugSession}`;
}

/** Each pause in view: tinted across the row, edged top and bottom, a rule where it starts; its name on a plate where there is room. */
export function drawPauses(p: Paint, lane: PodLane, top: number, labels: LabelSpace): void {
  if (lane.pauses.length === 0) return;
  const { ctx } = p;
  const palette = p.frame.palette;
  const y = top + 2;
  const h = ROW_HEIGHT.pod - 4;
  const textY = top + POD_ROW.bandTop + POD_ROW.bandHeight / 2;
  eachSpan(p, lane.pauses, (debugSession, x0, x1) => {
    fillPause(ctx, palette, x0, y, x1 - x0, h);
    const words = [`‖ ${pauseName(debugSession)}`, '‖ paused by debugger', '‖ paused', '‖'];
    const room = { from: Math.max(x0, 0), to: Math.min(x1, p.width) };
    for (const text of words) {
      const width = p.textWidth(text);
      const left = labels.place(room.from, room.to, width + 4, p.width);
      if (left === undefined) continue;
      writeOnPlate(p, text, left + 2, textY);
      labels.take(left, left + width + 4);
      break;
    }
  });
}

/**
 * A pause's stretch (and its legend swatch): the pause colour, faint, under upright bars (`‖`),
 * edged top and bottom — a stretch of its own beside the hatched ones (back-off, tunnel down,
 * dropped), and no box that could pass for the keyboard's focus.
 */
export function fillPause(ctx: CanvasRenderingContext2D, palette: Palette, x: number, y: number, w: number, h: number): void {
  fillEdgedStretch(ctx, palette.pause, palette.stripesPause, { tint: 0.16, pattern: 0.55 }, x, y, w, h);
  if (palette.highContrast && palette.contrast) {
    ctx.strokeStyle = palette.contrast;
    ctx.lineWidth = 1;
    ctx.strokeRect(x + 0.5, y + 0.5, Math.max(0, w - 1), h - 1);
  }
}

/**
 * An attempt that failed because of a pause: hatched in the pause colour over a faint tint and
 * outlined, at its outcome's height — hollow where an app's failure is solid red. A mark too narrow
 * for a hatch to show is filled with the pause colour.
 */
export function fillPausedMark(ctx: CanvasRenderingContext2D, palette: Palette, x: number, y: number, w: number, h: number): void {
  if (w < 3) {
    ctx.fillStyle = palette.pause;
    ctx.fillRect(x, y, w, h);
    return;
  }
  ctx.fillStyle = palette.hatchPause;
  ctx.fillRect(x, y, w, h);
  ctx.strokeStyle = palette.pause;
  ctx.lineWidth = 1;
  ctx.strokeRect(x + 0.5, y + 0.5, w - 1, h - 1);
}
