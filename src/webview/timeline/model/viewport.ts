/**
 * The visible time range and how user input moves it. Pure: no DOM (node tests import it).
 *
 * Three ways the range is decided, in this order:
 * - `follow` (a live session or a playing replay): the right edge stays at `now`. With no
 *   `followSpan` the view shows everything from the start (fit-all that grows); with one, the
 *   last `followSpan` seconds. Keyboard zoom while following keeps following (it sets the span);
 *   any pan, drag or wheel turns following off — the user went to look at something.
 * - `autoFit`: everything, refitted as the timeline grows (a file still loading).
 * - otherwise the range the user chose, kept as it is.
 */

/** The times there are events for: `[start, end]` in seconds. */
export interface Extent {
  readonly start: number;
  readonly end: number;
}

/** The narrowest view: 200 ms across the whole width (attempt times have 10 ms resolution). */
export const MIN_SPAN = 0.2;
/** Fit-all never shows less than this, so a timeline a second long does not fill the width with one mark. */
export const MIN_FIT_SPAN = 10;
/** A share of the span kept free on the right of `now` while following, so the newest mark is not on the edge. */
const FOLLOW_MARGIN = 0.03;
/** Fit-all leaves this share of the span free on each side. */
const FIT_PADDING = 0.015;

export class Viewport {
  start = 0;
  end = MIN_FIT_SPAN;
  /** CSS pixels the range is drawn across. */
  width = 1;
  follow = false;
  autoFit = true;
  followSpan: number | undefined;

  get span(): number {
    return this.end - this.start;
  }

  get pxPerSecond(): number {
    return this.width / this.span;
  }

  toX(t: number): number {
    return ((t - this.start) * this.width) / this.span;
  }

  toT(x: number): number {
    return this.start + (x * this.span) / this.width;
  }

  setWidth(width: number): void {
    this.width = Math.max(1, width);
  }

  /** Applies follow or auto-fit for the timeline as it is now; a user's own range is left alone. */
  update(extent: Extent, now: number): void {
    if (this.follow) {
      const right = Math.max(now, extent.start);
      if (this.followSpan === undefined) {
        const span = Math.max(MIN_FIT_SPAN, (right - extent.start) * (1 + FOLLOW_MARGIN + FIT_PADDING));
        this.end = extent.start + span - span * FIT_PADDING;
        this.start = this.end - span;
      } else {
        const span = this.followSpan;
        this.end = right + span * FOLLOW_MARGIN;
        this.start = this.end - span;
      }
      return;
    }
    if (this.autoFit) this.fitRange(extent);
  }

  /** Fit-all (`0`, Home, the button): everything, and it stays so as the timeline grows. */
  fitAll(extent: Extent, now: number): void {
    this.autoFit = true;
    this.followSpan = undefined;
    if (this.follow) this.update(extent, now);
    else this.fitRange(extent);
  }

  setFollow(on: boolean, extent: Extent, now: number): void {
    if (on && !this.follow) this.followSpan = this.autoFit ? undefined : this.span;
    this.follow = on;
    if (on) this.update(extent, now);
  }

  /** Wheel or pinch about the pointer at `x`: `factor` > 1 zooms in. A user's gesture: follow and auto-fit end. */
  zoomAt(x: number, factor: number, extent: Extent): void {
    this.takeOver();
    const anchor = this.toT(x);
    const span = this.clampSpan(this.span / factor, extent);
    const ratio = x / this.width;
    this.start = anchor - span * ratio;
    this.end = this.start + span;
    this.clamp(extent);
  }

  /**
   * `+`/`-`: about the middle, or while following about `now` (and following goes on, at the
   * new span): zooming in on the newest attempts is what a user watching a session wants.
   */
  zoomBy(factor: number, extent: Extent, now: number): void {
    if (this.follow) {
      this.followSpan = this.clampSpan(this.span / factor, extent);
      this.autoFit = false;
      this.update(extent, now);
      return;
    }
    this.zoomAt(this.width / 2, factor, extent);
  }

  /** Drag, shift+wheel, arrow keys: `dx` CSS pixels, positive moves the view later in time. */
  panBy(dx: number, extent: Extent): void {
    this.takeOver();
    const dt = dx / this.pxPerSecond;
    this.start += dt;
    this.end += dt;
    this.clamp(extent);
  }

  /** A saved range (a reloaded panel) or a test's. */
  setRange(start: number, end: number, extent: Extent): void {
    this.takeOver();
    if (!(end > start) || !Number.isFinite(start) || !Number.isFinite(end)) return;
    this.start = start;
    this.end = end;
    this.clamp(extent, false);
  }

  /** Keeps the span within bounds and some of the timeline in view. */
  clamp(extent: Extent, limitSpan = true): void {
    const span = limitSpan ? this.clampSpan(this.span, extent) : Math.max(MIN_SPAN, this.span);
    if (span !== this.span) {
      const mid = (this.start + this.end) / 2;
      this.start = mid - span / 2;
      this.end = mid + span / 2;
    }
    const lastEnd = Math.max(extent.end, extent.start) + span * 0.5;
    if (this.end > lastEnd) {
      this.start -= this.end - lastEnd;
      this.end = lastEnd;
    }
    const firstStart = extent.start - span * 0.5;
    if (this.start < firstStart) {
      this.end += firstStart - this.start;
      this.start = firstStart;
    }
  }

  private clampSpan(span: number, extent: Extent): number {
    const max = Math.max(MIN_FIT_SPAN * 6, (extent.end - extent.start) * 3);
    return Math.min(max, Math.max(MIN_SPAN, span));
  }

  private takeOver(): void {
    this.follow = false;
    this.autoFit = false;
    this.followSpan = undefined;
  }

  private fitRange(extent: Extent): void {
    const length = Math.max(0, extent.end - extent.start);
    if (length < MIN_FIT_SPAN) {
      this.start = extent.start - MIN_FIT_SPAN * FIT_PADDING;
      this.end = this.start + MIN_FIT_SPAN;
      return;
    }
    const pad = length * FIT_PADDING;
    this.start = extent.start - pad;
    this.end = extent.end + pad;
  }
}
