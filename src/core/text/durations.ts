/**
 * Lengths of time in words, every form the surfaces use, in one place so two surfaces that show
 * the same length can be held to one form. Which form a surface uses is its decision; each says
 * where it belongs.
 */

/** To the millisecond: virtual clocks step by 0.1 s, which floats do not add exactly, and no figure here means more. */
export function roundSeconds(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/**
 * `125 s`, `45.4 s`, `0.021 s`: seconds in a sentence, to the precision a reader can use — whole
 * seconds from 100 s, tenths from 10 s, milliseconds below (a latency's figures need them).
 */
export function secondsText(seconds: number): string {
  const size = Math.abs(seconds);
  const rounded = size >= 100 ? Math.round(seconds) : size >= 10 ? Math.round(seconds * 10) / 10 : roundSeconds(seconds);
  return `${rounded} s`;
}

/**
 * `40 s`, `3 min 20 s`, `2 h 5 min`: a length of time in a sentence, to the second. Minutes from
 * 10 min on, where a count of seconds stops being readable; a countdown the user watches (the
 * breakpoint guard's) says minutes from the first (`1 min 5 s`).
 */
export function durationWords(seconds: number, { minutesFrom = 600 }: { readonly minutesFrom?: number } = {}): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < minutesFrom) return `${s} s`;
  if (s < 7200) return s % 60 === 0 ? `${s / 60} min` : `${Math.floor(s / 60)} min ${s % 60} s`;
  const minutes = Math.round(s / 60);
  return minutes % 60 === 0 ? `${minutes / 60} h` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** `40s`, `2m30s`: how long is left, rounded up to the second. */
export function shortDuration(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds - 1e-9));
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${s % 60 === 0 ? '' : `${s % 60}s`}`;
}

/** `42.5 s` in the first minute, then `1:40`, `1:02:05`. */
export function sessionTime(t: number): string {
  if (t < 60) return `${t.toFixed(1)} s`;
  const whole = Math.floor(t);
  const [h, m, s] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

/** `t+00:03:20`: virtual time since the simulation began. */
export function virtualTime(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const two = (n: number) => String(n).padStart(2, '0');
  return `t+${two(Math.floor(s / 3600))}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
}

/** `0 s`, `45.6 s`, `2m 10s`, `1h 02m`: seconds as people read them. */
export function reportDuration(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds * 10) / 10} s`;
  const s = Math.round(seconds);
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** A length of time for people: `250 ms`, `4.5s`, `45s`, `12m30s`, `3h12m`, `2d4h`. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '–';
  const s = Math.abs(seconds);
  const sign = seconds < 0 ? '-' : '';
  if (s === 0) return '0s';
  if (s < 1) return `${sign}${Math.round(s * 1000)} ms`;
  if (s < 10 && Math.round(s * 10) % 10 !== 0) return `${sign}${(Math.round(s * 10) / 10).toFixed(1)}s`;
  const whole = Math.round(s);
  if (whole < 60) return `${sign}${whole}s`;
  const days = Math.floor(whole / 86400);
  const hours = Math.floor((whole % 86400) / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const secs = whole % 60;
  if (days > 0) return `${sign}${days}d${hours > 0 ? `${hours}h` : ''}`;
  if (hours > 0) return `${sign}${hours}h${minutes > 0 ? `${minutes}m` : ''}`;
  return `${sign}${minutes}m${secs > 0 ? `${secs}s` : ''}`;
}

/** `12 s`, `1 min 5 s`, `2 min`: a countdown the user watches, minutes from the first. */
export function countdownWords(seconds: number): string {
  return durationWords(seconds, { minutesFrom: 60 });
}

/** `1 s`, `100 ms`: a simulation step, as the speed picker offers it. */
export function stepText(seconds: number): string {
  return seconds >= 1 ? `${seconds} s` : `${Math.round(seconds * 1000)} ms`;
}
