/**
 * The legend's "Debugger" group: what the canvas draws of a debugger's pauses, shown only once the
 * model holds one (or an attempt a pause failed). Its swatches are small canvases painted by the
 * same functions as the lanes (`render/pauses.ts`), again when the theme changes.
 */
import { h } from './dom';
import { fillPause, fillPausedMark } from './render/pauses';
import type { Palette } from './theme';

type SwatchPainter = (ctx: CanvasRenderingContext2D, palette: Palette) => void;

const WIDTH = 18;
const HEIGHT = 12;

const SWATCHES: readonly (readonly [string, SwatchPainter])[] = [
  ['paused by a debugger (on the pod)', (ctx, p) => fillPause(ctx, p, 0, 0, WIDTH, HEIGHT)],
  ["failed while paused: the pause's failure, not the app's", (ctx, p) => fillPausedMark(ctx, p, 6, 0, 6, HEIGHT)],
];

export class PauseLegend {
  readonly element: HTMLSpanElement;
  private readonly canvases: HTMLCanvasElement[] = [];
  private painted: Palette | undefined;

  /** `legend`: the legend it is put in while shown (out of it otherwise). */
  constructor(private readonly legend: HTMLElement) {
    const items = SWATCHES.map(([text]) => {
      const canvas = h('canvas', { className: 'tl-swatch', attrs: { 'aria-hidden': 'true' } });
      canvas.style.width = `${WIDTH}px`;
      canvas.style.height = `${HEIGHT}px`;
      this.canvases.push(canvas);
      return h('span', { className: 'tl-legend-item' }, [canvas, h('span', { text })]);
    });
    this.element = h('span', { className: 'tl-legend-group', id: 'timeline-legend-debugger' }, [h('span', { className: 'tl-legend-title', text: 'Debugger' }), ...items]);
  }

  /** Shown while the model holds a pause; painted in `palette` (again only when it changed). */
  update(shown: boolean, palette: Palette): void {
    if (!shown) {
      this.element.remove();
      return;
    }
    if (!this.element.isConnected) this.legend.append(this.element);
    if (palette === this.painted) return;
    this.painted = palette;
    const dpr = window.devicePixelRatio || 1;
    SWATCHES.forEach(([, paint], i) => {
      const canvas = this.canvases[i] as HTMLCanvasElement;
      canvas.width = Math.round(WIDTH * dpr);
      canvas.height = Math.round(HEIGHT * dpr);
      const ctx = canvas.getContext('2d');
      if (!ctx) return;
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, WIDTH, HEIGHT);
      paint(ctx, palette);
    });
  }
}
