/** How long a probe's answered attempts took (`durationMs`), by nearest rank. */
export interface Latency {
  /** How many attempts the figures rest on. */
  readonly answered: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/** `undefined` when nothing was answered. */
export function latencyOf(durationsMs: readonly number[]): Latency | undefined {
  if (durationsMs.length === 0) return undefined;
  const sorted = Float64Array.from(durationsMs).sort();
  return { answered: sorted.length, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), maxMs: sorted[sorted.length - 1] as number };
}

/** Nearest rank: the smallest value at or below which `p` % of the values lie (one of the values, never an interpolation). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}
