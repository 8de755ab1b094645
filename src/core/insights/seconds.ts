/** To the millisecond: virtual clocks step by 0.1 s, which floats do not add exactly, and no figure here means more. */
export function roundSeconds(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
