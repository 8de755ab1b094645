/**
 * A live session's time between the host's messages. The host sends `now` with each batch (at
 * most ~10 a second, and a heartbeat every second when there is nothing to send); in between, the
 * clock runs on at the session's rate so the live edge and open spans move smoothly. Pure: the
 * caller passes the real time (`performance.now()`, ms), so tests drive it by hand.
 */

/**
 * How long (real ms) the clock runs on past the last message. Twice the host's heartbeat: one late
 * beat is bridged, but a host that stopped sending (stalled, suspended, gone) does not have the
 * timeline race ahead of anything it said — at most this long × `rate` past its last `now`.
 */
export const MAX_RUN_ON_MS = 2000;

/** Redraws for a moving `now` come at least this far apart (about 30 a second)… */
const MIN_FRAME_GAP_MS = 33;
/** …and at most this far apart, however slowly `now` crosses the pixels. */
const MAX_FRAME_GAP_MS = 1000;

export class LiveClock {
  /** The last `now` the host sent, and the real time it came. */
  private anchorNow = 0;
  private anchorAt = 0;
  private shownNow = 0;

  /** Virtual seconds per real second (the source's `rate`). */
  constructor(private rate = 1) {}

  /** A new source: its time starts at `now`, and nothing has been shown yet. */
  reset(now: number, rate: number, at: number): void {
    this.rate = rate;
    this.anchorNow = now;
    this.anchorAt = at;
    this.shownNow = 0;
  }

  /** The host said `now` at real time `at`, and how fast time runs from there (a paused simulation: 0). */
  sync(now: number, at: number, rate = this.rate): void {
    this.anchorNow = now;
    this.anchorAt = at;
    this.rate = rate;
  }

  /** The host's last word (the session ended): what is shown is corrected to it, even backwards. */
  settle(now: number): void {
    this.shownNow = now;
  }

  /**
   * The time at real time `at`: the last `now` run on at `rate` (for at most `MAX_RUN_ON_MS`), and
   * never before `floor` (the newest event may be later than the last `now`) or what was shown
   * already (the live edge does not step back when a message's `now` lags the run-on guess).
   */
  read(at: number, floor: number): number {
    const runOn = Math.min(MAX_RUN_ON_MS, Math.max(0, at - this.anchorAt));
    this.shownNow = Math.max(this.shownNow, floor, this.anchorNow + (runOn / 1000) * this.rate);
    return this.shownNow;
  }

  /** The time last read (0 before any): where the extent ends while live. */
  get shown(): number {
    return this.shownNow;
  }

  /** Whether the clock still moves at `at` (it stops `MAX_RUN_ON_MS` after the last message). */
  runningAt(at: number): boolean {
    return this.rate > 0 && at - this.anchorAt < MAX_RUN_ON_MS;
  }
}

/** How long until a moving `now` has crossed about a pixel: `pxPerVirtualSecond` × `rate` px each real second. */
export function liveFrameDelay(rate: number, pxPerVirtualSecond: number): number {
  const pxPerRealSecond = rate * pxPerVirtualSecond;
  return Math.min(MAX_FRAME_GAP_MS, Math.max(MIN_FRAME_GAP_MS, 1000 / Math.max(pxPerRealSecond, 0.001)));
}
