/**
 * The legend's "Cluster" group: what the canvas draws of the cluster's verdict, shown only once a
 * cluster session's lines are in the model. Its swatches are small canvases painted with the
 * palette the lanes are drawn with (outlined and hollow shapes have no CSS equivalent), painted
 * again when the theme changes.
 */
import { h } from './dom';
import { fillDisagreement } from './render/cluster';
import { trianglePath } from './render/markers';
import type { Palette } from './theme';

type SwatchPainter = (ctx: CanvasRenderingContext2D, palette: Palette) => void;

const WIDTH = 18;
const HEIGHT = 12;

const SWATCHES: readonly (readonly [string, SwatchPainter])[] = [
  ['kubelet: Ready (the cluster\'s own verdict)', (ctx, p) => outlinedBand(ctx, p.kubeletReady, 0.22)],
  ['kubelet: not ready', (ctx, p) => outlinedBand(ctx, p.kubeletNotReady, 0.12)],
  ['the cluster\'s event (hollow; ours are filled)', (ctx, p) => triangle(ctx, p.outcomes[2] as string, p.background, false)],
  ['our probes and the kubelet disagree', (ctx, p) => fillDisagreement(ctx, p, 0, 0, WIDTH, HEIGHT)],
  ['predicted kill', (ctx, p) => triangle(ctx, p.prediction, p.background, false)],
  ['confirmed by the cluster', (ctx, p) => triangle(ctx, p.prediction, p.prediction, true)],
  [
    'missed',
    (ctx, p) => {
      ctx.strokeStyle = p.disagreement;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(5.5, 2);
      ctx.lineTo(12.5, 9);
      ctx.moveTo(12.5, 2);
      ctx.lineTo(5.5, 9);
      ctx.stroke();
    },
  ],
  [
    'cluster pod probed (→ name)',
    (ctx, p) => {
      ctx.fillStyle = p.target;
      ctx.fillRect(8, 0, 2, HEIGHT);
    },
  ],
];

export class ClusterLegend {
  readonly element: HTMLSpanElement;
  private readonly canvases: HTMLCanvasElement[] = [];
  private painted: Palette | undefined;

  /** `legend`: the legend it is put in while shown (out of it otherwise: a group's `display` would beat `hidden`). */
  constructor(private readonly legend: HTMLElement) {
    const items = SWATCHES.map(([text]) => {
      const canvas = h('canvas', { className: 'tl-swatch', attrs: { 'aria-hidden': 'true' } });
      canvas.style.width = `${WIDTH}px`;
      canvas.style.height = `${HEIGHT}px`;
      this.canvases.push(canvas);
      return h('span', { className: 'tl-legend-item' }, [canvas, h('span', { text })]);
    });
    this.element = h('span', { className: 'tl-legend-group', id: 'timeline-legend-cluster' }, [h('span', { className: 'tl-legend-title', text: 'Cluster' }), ...items]);
  }

  /** Shown while the model holds a cluster session's lines; painted in `palette` (again only when it changed). */
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

function outlinedBand(ctx: CanvasRenderingContext2D, colour: string, alpha: number): void {
  ctx.fillStyle = colour;
  ctx.globalAlpha = alpha;
  ctx.fillRect(0, 2, WIDTH, HEIGHT - 4);
  ctx.globalAlpha = 1;
  ctx.fillRect(0, 2, WIDTH, 1);
  ctx.fillRect(0, HEIGHT - 3, WIDTH, 1);
}

function triangle(ctx: CanvasRenderingContext2D, stroke: string, fill: string, filled: boolean): void {
  trianglePath(ctx, 9, 1.5, 5, 8.5);
  ctx.fillStyle = fill;
  ctx.fill();
  if (filled) return;
  ctx.strokeStyle = stroke;
  ctx.lineWidth = 1.5;
  ctx.stroke();
}
