/** The statistics the benchmarks report: one definition of each, so their figures compare. */

/** The median: the middle value, or the mean of the two middle ones for an even count; NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export interface Percentiles {
  readonly p50: number;
  readonly p99: number;
  readonly count: number;
}

/** p50 and p99 by nearest rank (the value at ⌊q·n⌋ of the sorted values, clamped); 0 for none. */
export function percentiles(values: readonly number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), count: sorted.length };
}
