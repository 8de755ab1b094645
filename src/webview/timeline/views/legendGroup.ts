/**
 * A group of the legend that is shown only while the model holds what it explains (the cluster's
 * verdict, a debugger's pauses): a title, then one swatch per item. The swatches are small
 * canvases painted by the same functions as the lanes (outlined, hatched and hollow shapes have
 * no CSS equivalent), painted again when the theme changes.
 */
import { h } from './dom';
import type { Palette } from '../render/theme';

/** Paints one swatch, `SWATCH_WIDTH` × `SWATCH_HEIGHT` CSS pixels from the origin. */
export type SwatchPainter = (ctx: CanvasRenderingContext2D, palette: Palette) => void;

/** An item of a group: what it says, and how its swatch is painted. */
export type Swatch = readonly [text: string, paint: SwatchPainter];

export const SWATCH_WIDTH = 18;
export const SWATCH_HEIGHT = 12;

export class LegendGroup {
  readonly element: HTMLSpanElement;
  private readonly canvases: HTMLCanvasElement[] = [];
  private painted: Palette | undefined;

  /** `legend`: the legend it is put in while shown (out of it otherwise: a group's `display` would beat `hidden`). */
  constructor(
    private readonly legend: HTMLElement,
    id: string,
    title: string,
    private readonly swatches: readonly Swatch[],
  ) {
    const items = swatches.map(([text]) => {
      const canvas = h('canvas', { className: 'tl-swatch', attrs: { 'aria-hidden': 'true' } });
      canvas.style.width = `${SWATCH_WIDTH}px`;
      canvas.style.height = `${SWATCH_HEIGHT}px`;
      this.canvases.push(canvas);
      return h('span', { className: 'tl-legend-item' }, [canvas, h('span', { text })]);
    });
    this.element = h('span', { className: 'tl-legend-group', id }, [h('span', { className: 'tl-legend-title', text: title }), ...items]);
  }

  /** Shown while `shown`; painted in `palette` (again only when it changed). */
  update(shown: boolean, palette: Palette): void {
    if (!shown) {
      this.element.remove();
      return;
    }
    if (!this.element.isConnected) this.legend.append(this.element);
    if (palette === this.painted) return;
    this.painted = palette;
    const dpr = window.devicePixelRatio || 1;
    this.swatches.forEach(([, paint], i) => {
      const canvas = this.canvases[i] as HTMLCanvasElement;
      canvas.width = Math.round(SWATCH_WIDTH * dpr);
      canvas.height = Math.round(SWATCH_HEIGHT * dpr);
      const ctx = canvas.getContext('2d');
      if (!ctx) return;
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, SWATCH_WIDTH, SWATCH_HEIGHT);
      paint(ctx, palette);
    });
  }
}
