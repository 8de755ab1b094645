/**
 * Probe attempts as marks: bars rising from a common baseline, the worse the outcome the taller.
 * While rows are drawn, a lane's visible attempts are bucketed by pixel column — at most one mark
 * per column, the worst outcome winning, so a zoomed-out day stays honest about its failures — and
 * collected as rectangles per colour; `flush` fills each colour in one path. An attempt that
 * failed because a debugger held the app is collected apart and drawn hatched (`pauses.ts`). The
 * run counts (`2/3`) are written beside marks that have room. Nothing big is allocated per frame.
 */
import { MARK_OUTCOMES } from '../../../core/timeline/columns';
import type { ProbeLane } from '../../../core/timeline/viewModel';
import { markSeverity, PROBE_ROW } from '../model/layout';
import { MARK_HEIGHTS, markSpacing, markWidthFor } from './markGeometry';
import type { Paint } from './paint';
import { fillPausedMark } from './pauses';
import { RectList } from './rectList';

const OUTCOME_COUNT = MARK_OUTCOMES.length;
const ERROR_CODE = MARK_OUTCOMES.indexOf('error');
const FAILURE_CODE = MARK_OUTCOMES.indexOf('failure');
const UNKNOWN_CODE = MARK_OUTCOMES.indexOf('unknown');
const SUCCESS_CODE = MARK_OUTCOMES.indexOf('success');
const WARNING_CODE = MARK_OUTCOMES.indexOf('warning');
/** What a column is drawn as, beside the outcome codes: a failure the pause caused. */
const PAUSED_CLASS = OUTCOME_COUNT;
/** Marks at least this far apart (CSS px) get their run count (`2/3`) written beside them. */
const RUN_LABEL_SPACING = 30;
/**
 * High contrast outlines marks at least this wide (CSS px). A narrower mark would be all outline:
 * its colour, which says the outcome, would be gone.
 */
const OUTLINE_MIN_WIDTH = 4;
/** Columns kept left of the canvas, for marks half off its left edge. */
const LEFT_MARGIN = 8;

export class AttemptMarks {
  /** Per pixel column of the lane being collected: the winning attempt's severity (-1: none), its index and how it is drawn (an outcome code or `PAUSED_CLASS`). */
  private columnSeverity = new Float32Array(0);
  private columnIndex = new Int32Array(0);
  private columnClass = new Uint8Array(0);
  /** Filled marks by outcome code; prober errors (when wide enough to see) are hollow, stroked. */
  private readonly filled: RectList[] = MARK_OUTCOMES.map(() => new RectList());
  private readonly hollow = new RectList();
  /** Failures a debugger's pause caused: hatched. */
  private readonly paused = new RectList();

  clear(): void {
    for (const list of this.filled) list.length = 0;
    this.hollow.length = 0;
    this.paused.length = 0;
  }

  /** Buckets `lane`'s visible attempts (row top at `top`) by pixel column and collects their marks; writes run counts where there is room. */
  collect(p: Paint, lane: ProbeLane, top: number): void {
    const a = lane.attempts;
    if (a.length === 0) return;
    const frame = p.frame;
    const v = frame.viewport;
    const width = p.width;
    const columns = width + 2 * LEFT_MARGIN;
    if (this.columnSeverity.length < columns) {
      this.columnSeverity = new Float32Array(columns * 2);
      this.columnIndex = new Int32Array(columns * 2);
      this.columnClass = new Uint8Array(columns * 2);
    }
    const severity = this.columnSeverity;
    const index = this.columnIndex;
    const drawnAs = this.columnClass;
    severity.fill(-1, 0, columns);
    const hidden = frame.hiddenOutcomes;
    const hiddenMask = hidden.size === 0 ? 0 : MARK_OUTCOMES.reduce((mask, o, i) => (hidden.has(o) ? mask | (1 << i) : mask), 0);
    const pxPerSecond = v.pxPerSecond;
    const spacing = markSpacing(lane, pxPerSecond);
    const markWidth = markWidthFor(spacing);
    const half = Math.floor(markWidth / 2);
    const from = a.lowerBound(v.start - (markWidth + LEFT_MARGIN) / pxPerSecond);
    const start = v.start;
    const times = a.t;
    const outcomes = a.outcome;
    const paused = a.paused;
    // Column c holds x = c - LEFT_MARGIN.
    let maxColumn = -1;
    for (let i = from; i < a.length; i++) {
      const x = Math.floor(((times[i] as number) - start) * pxPerSecond);
      if (x >= width + LEFT_MARGIN) break;
      const code = outcomes[i] as number;
      if (hiddenMask !== 0 && (hiddenMask & (1 << code)) !== 0) continue;
      const c = x + LEFT_MARGIN;
      if (c < 0) continue;
      const blamed = paused[i] === 1 && (code === FAILURE_CODE || code === UNKNOWN_CODE);
      const s = markSeverity(code, blamed);
      if (s > (severity[c] as number)) {
        severity[c] = s;
        index[c] = i;
        drawnAs[c] = blamed ? PAUSED_CLASS : code;
      }
      if (c > maxColumn) maxColumn = c;
    }
    const base = top + PROBE_ROW.markTop + PROBE_ROW.markHeight;
    const labels = spacing >= RUN_LABEL_SPACING && lane.spec !== undefined;
    if (labels) p.ctx.fillStyle = frame.palette.foreground;
    let c = 0;
    while (c <= maxColumn) {
      if ((severity[c] as number) < 0) {
        c++;
        continue;
      }
      const i = index[c] as number;
      const code = outcomes[i] as number;
      const cls = drawnAs[c] as number;
      // Neighbouring 1-px columns drawn alike become one rectangle.
      let run = 1;
      if (markWidth === 1) while (c + run <= maxColumn && (severity[c + run] as number) >= 0 && drawnAs[c + run] === cls && outcomes[index[c + run] as number] === code) run++;
      const x = c - LEFT_MARGIN - half;
      const h = MARK_HEIGHTS[code] as number;
      if (cls === PAUSED_CLASS) this.paused.push(x, base - h, markWidth * run, h);
      else if (code === ERROR_CODE && markWidth >= 4) this.hollow.push(x, base - h, markWidth, h);
      else (this.filled[code] as RectList).push(x, base - h, markWidth * run, h);
      if (labels) runLabel(p, lane, i, code, c - LEFT_MARGIN + markWidth - half + 2, base - PROBE_ROW.markHeight / 2);
      c += run;
    }
  }

  /** Fills the collected marks, one path per outcome colour (outlined in high contrast), then strokes the hollow ones and hatches the pause's. */
  flush(p: Paint): void {
    const { ctx } = p;
    const palette = p.frame.palette;
    for (let code = 0; code < OUTCOME_COUNT; code++) {
      const list = this.filled[code] as RectList;
      if (list.length === 0) continue;
      ctx.fillStyle = palette.outcomes[code] as string;
      ctx.beginPath();
      const d = list.data;
      for (let i = 0; i < list.length * 4; i += 4) ctx.rect(d[i] as number, d[i + 1] as number, d[i + 2] as number, d[i + 3] as number);
      ctx.fill();
      if (palette.highContrast && palette.contrast && code !== ERROR_CODE) outlineWide(ctx, list, palette.contrast);
    }
    if (this.hollow.length > 0) {
      ctx.strokeStyle = palette.outcomes[ERROR_CODE] as string;
      ctx.lineWidth = 1;
      ctx.beginPath();
      const d = this.hollow.data;
      for (let i = 0; i < this.hollow.length * 4; i += 4) ctx.rect((d[i] as number) + 0.5, (d[i + 1] as number) + 0.5, (d[i + 2] as number) - 1, (d[i + 3] as number) - 1);
      ctx.stroke();
    }
    const d = this.paused.data;
    for (let i = 0; i < this.paused.length * 4; i += 4) fillPausedMark(ctx, palette, d[i] as number, d[i + 1] as number, d[i + 2] as number, d[i + 3] as number);
  }
}

/** Strokes, in `colour`, the rectangles of `list` wide enough to keep their fill visible inside the line. */
function outlineWide(ctx: CanvasRenderingContext2D, list: RectList, colour: string): void {
  ctx.strokeStyle = colour;
  ctx.lineWidth = 1;
  ctx.beginPath();
  const d = list.data;
  for (let i = 0; i < list.length * 4; i += 4) {
    const w = d[i + 2] as number;
    if (w >= OUTLINE_MIN_WIDTH) ctx.rect(d[i] as number, d[i + 1] as number, w, d[i + 3] as number);
  }
  ctx.stroke();
}

/**
 * Attempt `i`'s place in its run toward a threshold (`2/3` failures toward failureThreshold,
 * successes toward a successThreshold above 1), bold when it reaches it: the run that led to a
 * kill reads off the lane. Nothing past the threshold, or without one.
 */
function runLabel(p: Paint, lane: ProbeLane, i: number, code: number, x: number, y: number): void {
  const spec = lane.spec;
  if (!spec || x > p.width) return;
  const run = lane.attempts.run[i] as number;
  let threshold = 0;
  if (code === FAILURE_CODE || code === UNKNOWN_CODE) threshold = spec.failureThreshold;
  else if ((code === SUCCESS_CODE || code === WARNING_CODE) && spec.successThreshold > 1) threshold = spec.successThreshold;
  if (threshold === 0 || run > threshold || run === 0) return;
  const { ctx } = p;
  const reached = run === threshold;
  if (reached) ctx.font = p.boldFont;
  ctx.fillText(`${run}/${threshold}`, x, y);
  if (reached) ctx.font = p.font;
}
