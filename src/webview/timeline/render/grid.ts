/** What lies under everything: the axis ticks' gridlines, row separators, highlighted rows. */
import type { Row } from '../model/layout';
import type { Paint } from './paint';

/** A faint vertical line at each axis tick. */
export function drawGrid(p: Paint): void {
  const { ctx, frame } = p;
  ctx.fillStyle = frame.palette.grid;
  ctx.globalAlpha = 0.22;
  for (const tick of frame.ticks) {
    const x = Math.round(frame.viewport.toX(tick.t));
    if (x >= 0 && x < p.width) ctx.fillRect(x, 0, 1, p.height);
  }
  ctx.globalAlpha = 1;
}

/** A row's separator (stronger above a pod), and its tint and edge bar when highlighted (the editor's or the tree's selection). */
export function drawRowBackground(p: Paint, row: Row, top: number): void {
  const { ctx } = p;
  const palette = p.frame.palette;
  if (row.highlighted) {
    ctx.fillStyle = palette.highlight;
    ctx.globalAlpha = 0.16;
    ctx.fillRect(0, top, p.width, row.height);
    ctx.globalAlpha = 1;
    ctx.fillStyle = palette.focus;
    ctx.fillRect(0, top, 3, row.height);
  }
  ctx.fillStyle = palette.grid;
  ctx.globalAlpha = row.depth === 0 ? 0.45 : 0.15;
  ctx.fillRect(0, row.depth === 0 ? top : top + row.height - 1, p.width, 1);
  ctx.globalAlpha = 1;
}
