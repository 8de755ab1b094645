import { virtualTime } from '../text/durations';
import { momentText, type TimelineClock } from '../timeline/clockText';

/**
 * How an explanation writes a moment of its recording: the wall clock (`12:03:40`, in the local
 * time zone) when the recording knows when it began, else virtual time since the start
 * (`t+00:03:40`). A run of moments shortens the minute it repeats: `12:03:20, :30, :40`.
 */
export interface TimeFormat {
  /** `12:03:40`, `t+00:03:40`. */
  at(t: number): string;
  /** `12:03:20, :30, :40`, `t+00:03:50, 12:04:00`: each moment, its hour and minute only where they change. */
  series(ts: readonly number[]): string;
}

/** Wall-clock time when `startedAtMs` (epoch ms of t = 0) is known, virtual time otherwise. */
export function timeFormatFor(startedAtMs: number | undefined): TimeFormat {
  return startedAtMs === undefined ? VIRTUAL : wallClock(startedAtMs);
}

const VIRTUAL: TimeFormat = {
  at: virtualTime,
  series: (ts) => shortened(ts.map(virtualTime)),
};

function wallClock(startedAtMs: number): TimeFormat {
  // The clock's own second, as the timeline's ruler reads it (a start at 12:00:00.6 puts t = 1 at
  // 12:00:01); to the millisecond, so `--at 12:00:01` read back as t = 0.4 says 12:00:01 again.
  const at = momentText({ kind: 'wall', startedAtMs });
  return { at, series: (ts) => shortened(ts.map(at)) };
}

/** Each time after the first keeps only its seconds (`:30`) when everything before them is the previous one's. */
function shortened(times: readonly string[]): string {
  let previousPrefix: string | undefined;
  return times
    .map((time) => {
      const cut = time.lastIndexOf(':');
      const prefix = time.slice(0, cut);
      const shown = prefix === previousPrefix ? time.slice(cut) : time;
      previousPrefix = prefix;
      return shown;
    })
    .join(', ');
}


/**
 * The times of an explanation shown in the timeline, to the second, as its axis says them:
 * `1m10s` on a virtual clock (not the `t+00:01:10` of the editor and the CLI, which have no axis
 * to match), the time of day on the wall clock.
 */
export function timelineTimeFormat(clock: TimelineClock): TimeFormat {
  if (clock.kind === 'wall') return timeFormatFor(clock.startedAtMs);
  const at = momentText(clock);
  return { at, series: (ts) => ts.map(at).join(', ') };
}
