/**
 * How the timeline says a moment: on a virtual clock as the time elapsed since the run began
 * (`1m30s`), on the wall clock as the local time of day. The webview's axis and tooltips and the
 * host's answer to *why* (its sentence, and the buttons of the lines it cites) say it alike, so a
 * time read in one is found in the others. Pure: the webview and the extension host both use it.
 */
/** How `t` reads on the axis: virtual seconds, or wall-clock time from `startedAtMs` (epoch ms). */
export type TimelineClock = { readonly kind: 'virtual' } | { readonly kind: 'wall'; readonly startedAtMs: number };

/** How many decimals a time shown at `step` seconds' precision needs. */
export function decimalsFor(step: number): number {
  if (step >= 1) return 0;
  if (step >= 0.1) return 1;
  if (step >= 0.01) return 2;
  return 3;
}

/**
 * Elapsed virtual time, as the axis and tooltips say it: `0s`, `30s`, `1m`, `1m30s`, `2h`,
 * `1h5m`, `12.5s`. `step` says how precise (an axis at 0.5 s steps shows one decimal).
 */
export function formatElapsed(t: number, step = 1): string {
  const decimals = decimalsFor(step);
  const negative = t < 0;
  let rest = Math.abs(t);
  // Round once, at the precision shown, so 59.999 reads 1m and not 60s.
  const unit = 10 ** decimals;
  rest = Math.round(rest * unit) / unit;
  const hours = Math.floor(rest / 3600);
  rest -= hours * 3600;
  const minutes = Math.floor(rest / 60);
  rest -= minutes * 60;
  const seconds = Math.round(rest * unit) / unit;
  let text = '';
  if (hours > 0) text += `${hours}h`;
  if (minutes > 0) text += `${minutes}m`;
  if (seconds > 0 || text === '') text += `${seconds.toFixed(decimals)}s`;
  return negative && text !== '0s' && !/^0\.0+s$/.test(text) ? `-${text}` : text;
}

/** `12:03:40`: the time of day of an instant (epoch ms) in the local time zone (tests pin it with TZ=UTC). */
export function timeOfDay(epochMs: number): string {
  const date = new Date(epochMs);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

/**
 * A moment to the second, as the axis says it: `1m10s` on a virtual clock (the second it falls
 * in), the time of day on the wall clock — the clock's own second, to the millisecond.
 */
export function momentText(clock: TimelineClock): (t: number) => string {
  if (clock.kind === 'virtual') return (t) => formatElapsed(Math.floor(t));
  const { startedAtMs } = clock;
  return (t) => timeOfDay(startedAtMs + Math.round(t * 1000));
}
