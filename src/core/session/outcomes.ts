import type { ProbeResult } from '../probers/types';

/**
 * How many of the newest outcomes are failures; a prober error (`unknown`) neither breaks nor
 * extends the run (P5). Shared by the lenses, the hovers, the Probes view and the headline.
 */
export function trailingFailures(recent: readonly ProbeResult[]): number {
  let n = 0;
  for (let i = recent.length - 1; i >= 0 && (recent[i] === 'failure' || recent[i] === 'unknown'); i--) if (recent[i] === 'failure') n++;
  return n;
}
