/**
 * How times, durations and counts read in the timeline (axis, tooltips, notes). Pure: no DOM, so
 * node tests import it. Virtual clocks read as elapsed time (`1m30s`); wall clocks as the local
 * time of day (`14:03:20`) from the session's start.
 */
import { decimalsFor, formatElapsed } from '../../../core/timeline/clockText';
import type { TimelineClock } from '../../../shared/protocol';
import { formatDuration } from '../../../core/text/durations';

export { formatElapsed };

export interface Tick {
  /** Seconds since the run began (the model's `t`). */
  readonly t: number;
  readonly label: string;
}

/** Steps the axis may use, in seconds: each a "nice" multiple a reader can add up in their head. */
const NICE_STEPS = [
  0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800, 1209600, 2592000,
];

/** The smallest nice step whose labels are at least `minPx` apart at `pxPerSecond`. */
export function tickStep(pxPerSecond: number, minPx: number): number {
  if (!(pxPerSecond > 0)) return NICE_STEPS[NICE_STEPS.length - 1] as number;
  for (const step of NICE_STEPS) if (step * pxPerSecond >= minPx) return step;
  return NICE_STEPS[NICE_STEPS.length - 1] as number;
}

/**
 * The axis ticks between `start` and `end` (seconds) over `widthPx`, labels at least `minLabelPx`
 * apart. On a wall clock they fall on round local times (every 30 s: :00 and :30), not on round
 * offsets from a start at 14:03:17.
 */
export function axisTicks(start: number, end: number, widthPx: number, clock: TimelineClock, minLabelPx = 84, timeZoneOffsetMinutes?: number): Tick[] {
  if (!(end > start) || !(widthPx > 0)) return [];
  const step = tickStep(widthPx / (end - start), minLabelPx);
  const ticks: Tick[] = [];
  // Wall clock: align local time (epoch seconds shifted by the zone) to the step.
  let shift = 0;
  if (clock.kind === 'wall') {
    const offset = timeZoneOffsetMinutes ?? new Date(clock.startedAtMs).getTimezoneOffset();
    shift = clock.startedAtMs / 1000 - offset * 60;
  }
  const first = Math.ceil((start + shift) / step - 1e-9) * step - shift;
  for (let i = 0; ; i++) {
    // Multiply rather than add up: 0.1 added 30 times is not 3.
    const t = first + i * step;
    if (t > end + 1e-9) break;
    const label = clock.kind === 'wall' ? formatWallClock(clock.startedAtMs + t * 1000, step, timeZoneOffsetMinutes) : formatElapsed(roundTo(t, step), step);
    ticks.push({ t, label });
    if (i > 1000) break;
  }
  return ticks;
}

function roundTo(t: number, step: number): number {
  return Math.round(t / step) * step;
}

/** Local time of day, `HH:MM:SS` (with tenths or hundredths for finer steps). */
export function formatWallClock(epochMs: number, step = 1, timeZoneOffsetMinutes?: number): string {
  const offset = timeZoneOffsetMinutes ?? new Date(epochMs).getTimezoneOffset();
  const decimals = decimalsFor(step);
  const unit = 10 ** decimals;
  const localMs = Math.round(((epochMs - offset * 60_000) / 1000) * unit) * (1000 / unit);
  const date = new Date(localMs);
  const base = `${pad2(date.getUTCHours())}:${pad2(date.getUTCMinutes())}:${pad2(date.getUTCSeconds())}`;
  if (decimals === 0) return base;
  return `${base}.${String(Math.floor(date.getUTCMilliseconds() / (1000 / unit))).padStart(decimals, '0')}`;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** A point in time for a tooltip: precise to 10 ms; on a wall clock, the time of day with ms. */
export function formatInstant(t: number, clock: TimelineClock, timeZoneOffsetMinutes?: number): string {
  if (clock.kind === 'wall') return formatWallClock(clock.startedAtMs + t * 1000, 0.001, timeZoneOffsetMinutes);
  return formatElapsed(t, 0.01).replace(/\.00s$/, 's');
}

/** A point in time for the axis precision and notes: `3h12m` (virtual) or `14:03:20` (wall). */
export function formatPoint(t: number, clock: TimelineClock, timeZoneOffsetMinutes?: number): string {
  if (clock.kind === 'wall') return formatWallClock(clock.startedAtMs + t * 1000, 1, timeZoneOffsetMinutes);
  return formatDuration(t);
}


/** A probe attempt's duration (milliseconds in the events): `12 ms`, `1.20 s`. */
export function formatMillis(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/** A count with its thousands grouped by spaces, as the notes say them: `600 000`. */
export function formatCount(n: number): string {
  const whole = Math.round(n);
  const digits = String(Math.abs(whole));
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ' ';
    out += digits[i];
  }
  return whole < 0 ? `-${out}` : out;
}

/** `1 attempt`, `3 attempts`. */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${formatCount(n)} ${n === 1 ? word : many}`;
}
