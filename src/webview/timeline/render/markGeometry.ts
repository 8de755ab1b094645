/**
 * How big an attempt mark is drawn, shared by the renderer and what it reports (outlines, the test
 * hooks' `markAt`). Pure: node tests import it.
 */
import type { AttemptColumns } from '../../../core/timeline/columns';
import type { ProbeLane } from '../../../core/timeline/viewModel';
import { MARK_HEIGHT, PROBE_ROW } from '../model/layout';
import { MARK_OUTCOMES } from '../../../core/timeline/columns';

/** Bar heights by outcome code (`MARK_OUTCOMES` index). */
export const MARK_HEIGHTS: readonly number[] = MARK_OUTCOMES.map((o) => MARK_HEIGHT[o]);

/** Without a probe spec (older recordings have no `worker` line): the typical gap between attempts, in seconds. */
export function estimatePeriod(times: Float64Array, length: number): number {
  if (length < 2) return 10;
  return Math.max(0.01, ((times[length - 1] as number) - (times[0] as number)) / (length - 1));
}

/** CSS pixels between a lane's attempts at `pxPerSecond`: its period, or the typical gap. */
export function markSpacing(lane: ProbeLane, pxPerSecond: number): number {
  const a: AttemptColumns = lane.attempts;
  return (lane.spec?.periodSeconds ?? estimatePeriod(a.t, a.length)) * pxPerSecond;
}

/** A mark's width for attempts `spacing` CSS px apart: 1 px when dense (a column each), up to 5 px when apart. */
export function markWidthFor(spacing: number): number {
  return spacing >= 5 ? Math.max(2, Math.min(5, Math.round(spacing * 0.4))) : 1;
}

/** The box attempt `index` of `lane` is drawn in, at `x` (its time on the canvas) in a row whose top is `top`. */
export function markBox(lane: ProbeLane, index: number, x: number, top: number, pxPerSecond: number): { x: number; y: number; w: number; h: number } {
  const w = markWidthFor(markSpacing(lane, pxPerSecond));
  const h = MARK_HEIGHTS[lane.attempts.outcome[index] as number] as number;
  const base = top + PROBE_ROW.markTop + PROBE_ROW.markHeight;
  return { x: Math.floor(x) - Math.floor(w / 2), y: base - h, w, h };
}
