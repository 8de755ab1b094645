/**
 * The legend's "Cluster" group: what the canvas draws of the cluster's verdict, shown only once a
 * cluster session's lines are in the model. Its swatches are painted with the palette the lanes
 * are drawn with.
 */
import { LegendGroup, type Swatch, SWATCH_HEIGHT as HEIGHT, SWATCH_WIDTH as WIDTH } from './legendGroup';
import { fillDisagreement } from '../render/cluster';
import { trianglePath } from '../render/markers';

const SWATCHES: readonly Swatch[] = [
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

/** The group, put in `legend` while the model holds a cluster session's lines. */
export function clusterLegend(legend: HTMLElement): LegendGroup {
  return new LegendGroup(legend, 'timeline-legend-cluster', 'Cluster', SWATCHES);
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
