/**
 * The legend's "Debugger" group: what the canvas draws of a debugger's pauses, shown only once the
 * model holds one (or an attempt a pause failed). Its swatches are painted by the same functions
 * as the lanes (`render/pauses.ts`).
 */
import { LegendGroup, type Swatch, SWATCH_HEIGHT, SWATCH_WIDTH } from './legendGroup';
import { fillPause, fillPausedMark } from '../render/pauses';

const SWATCHES: readonly Swatch[] = [
  ['paused by a debugger (on the pod)', (ctx, p) => fillPause(ctx, p, 0, 0, SWATCH_WIDTH, SWATCH_HEIGHT)],
  ["failed while paused: the pause's failure, not the app's", (ctx, p) => fillPausedMark(ctx, p, 6, 0, 6, SWATCH_HEIGHT)],
];

/** The group, put in `legend` while the model holds a pause. */
export function pauseLegend(legend: HTMLElement): LegendGroup {
  return new LegendGroup(legend, 'timeline-legend-debugger', 'Debugger', SWATCHES);
}
