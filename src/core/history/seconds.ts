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
