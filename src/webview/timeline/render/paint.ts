/**
 * What one redraw knows: the `Frame` (what to draw, from the app) and the `Paint` (where: the
 * canvas context and its size), shared by the drawing steps in this folder.
 */
import type { MarkOutcome } from '../../../core/timeline/columns';
import type { ContainerLane } from '../../../core/timeline/viewModel';
import type { Tick } from '../words/format';
import type { Hit } from '../model/hitTest';
import type { Layout } from '../model/layout';
import type { Palette } from './theme';
import type { Viewport } from '../model/viewport';

export interface Frame {
  readonly layout: Layout;
  readonly viewport: Viewport;
  /** CSS pixels of rows scrolled above the canvas's top. */
  readonly scrollTop: number;
  readonly now: number;
  /** A live session's current time (a line is drawn there), if live. */
  readonly liveEdge: number | undefined;
  /** Replay's playhead, if replaying. */
  readonly playhead: number | undefined;
  readonly ticks: readonly Tick[];
  readonly hiddenOutcomes: ReadonlySet<MarkOutcome>;
  readonly palette: Palette;
  readonly hover: Hit | undefined;
  /** The mark (or other item) the keyboard is on. */
  readonly focus: Hit | undefined;
  /** The moment selected on a container's lane (its *why* is shown), if any. */
  readonly selection?: { readonly lane: ContainerLane; readonly t: number };
}

/** Widths kept at most: restart labels name container ids, each its own text. */
const WIDTH_CACHE_LIMIT = 4096;

/** The canvas as a redraw sees it: its context, its size in CSS pixels, the frame being drawn, the label font. */
export class Paint {
  frame!: Frame;
  width = 1;
  height = 1;
  font = '';
  boldFont = '';
  private readonly widths = new Map<string, number>();

  constructor(readonly ctx: CanvasRenderingContext2D) {}

  /** Starts a redraw of `frame`: the label font follows the palette's. */
  begin(frame: Frame): void {
    this.frame = frame;
    const p = frame.palette;
    const font = `${Math.max(9, p.fontSize - 2)}px ${p.font}`;
    if (font !== this.font) {
      this.font = font;
      this.boldFont = `bold ${font}`;
      this.widths.clear();
    }
    this.ctx.font = font;
    this.ctx.textBaseline = 'middle';
  }

  /** The width of `text` in the label font (regular weight), measured once per font: the same names are written on every row and frame. */
  textWidth(text: string): number {
    let width = this.widths.get(text);
    if (width === undefined) {
      if (this.widths.size >= WIDTH_CACHE_LIMIT) this.widths.clear();
      width = this.ctx.measureText(text).width;
      this.widths.set(text, width);
    }
    return width;
  }

  /** An outline inside a box, for high-contrast themes: bands read as shapes, not only as colour. */
  strokeBox(x: number, y: number, w: number, h: number, colour: string): void {
    const { ctx } = this;
    ctx.strokeStyle = colour;
    ctx.lineWidth = 1;
    ctx.strokeRect(x + 0.5, y + 0.5, Math.max(0, w - 1), h - 1);
  }
}
