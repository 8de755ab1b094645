/**
 * The time axis's labels: DOM text over the canvas's gridlines (crisp at any zoom, selectable,
 * themed by CSS). A small pool of elements, moved with a transform each frame.
 */
import { h } from './dom';
import type { Tick } from '../words/format';
import type { Viewport } from '../model/viewport';

/** A label starts this far right of its gridline, as in a profiler: left-aligned beside it. */
const LABEL_OFFSET = 3;
/** Kept free between a label's end and the axis's right edge. */
const RIGHT_MARGIN = 2;

export class AxisLabels {
  readonly element: HTMLDivElement;
  private readonly pool: HTMLSpanElement[] = [];
  private width = 0;
  private readonly measure = new LabelWidths();

  constructor() {
    this.element = h('div', { className: 'tl-axis', id: 'timeline-axis', attrs: { 'aria-hidden': 'true' } });
  }

  setWidth(width: number): void {
    if (width === this.width) return;
    this.width = width;
    this.element.style.width = `${width}px`;
  }

  /** The theme (and so perhaps the font) changed: widths are measured again. */
  themeChanged(): void {
    this.measure.reset();
  }

  update(ticks: readonly Tick[], viewport: Viewport): void {
    let used = 0;
    for (const tick of ticks) {
      const left = Math.round(viewport.toX(tick.t)) + LABEL_OFFSET;
      // A label that would be cut by either edge is left out: a cut `1h2` reads as another time.
      if (left < 0 || left + this.measure.of(tick.label, this.element) + RIGHT_MARGIN > this.width) continue;
      let label = this.pool[used];
      if (!label) {
        label = h('span', { className: 'tl-tick' });
        this.pool.push(label);
        this.element.append(label);
      }
      if (label.textContent !== tick.label) label.textContent = tick.label;
      label.style.transform = `translateX(${left}px)`;
      label.hidden = false;
      used++;
    }
    for (let i = used; i < this.pool.length; i++) (this.pool[i] as HTMLSpanElement).hidden = true;
  }
}

/**
 * Label widths in the axis's font, measured on a canvas (no layout is forced mid-frame) and kept
 * per text. The axis sets its digits tabular: each is measured as a `0`, the width tabular digits
 * usually share.
 */
class LabelWidths {
  private readonly widths = new Map<string, number>();
  private ctx: CanvasRenderingContext2D | null | undefined;

  reset(): void {
    this.widths.clear();
    this.ctx = undefined;
  }

  of(text: string, element: HTMLElement): number {
    let width = this.widths.get(text);
    if (width !== undefined) return width;
    if (this.ctx === undefined) {
      this.ctx = document.createElement('canvas').getContext('2d');
      const style = getComputedStyle(element);
      // Not `style.font`: the shorthand is empty when a longhand it cannot say (tabular-nums) is set.
      if (this.ctx) this.ctx.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    }
    // No canvas: a generous guess, so a label is rather left out than cut.
    width = this.ctx ? Math.ceil(this.ctx.measureText(text.replace(/[0-9]/g, '0')).width) : 8 * text.length;
    if (this.widths.size > 512) this.widths.clear();
    this.widths.set(text, width);
    return width;
  }
}
