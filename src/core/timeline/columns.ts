/** How an attempt is drawn: the prober's outcome, or `error` for an attempt the kubelet discarded (P5). */
export type MarkOutcome = 'success' | 'warning' | 'failure' | 'unknown' | 'error';
export const MARK_OUTCOMES: readonly MarkOutcome[] = ['success', 'warning', 'failure', 'unknown', 'error'];

/**
 * A probe lane's attempts as parallel typed arrays, in time order: a 24 h lane holds tens of
 * thousands, and the renderer walks only the visible slice of them every frame.
 */
export class AttemptColumns {
  length = 0;
  t = new Float64Array(16);
  durationMs = new Float32Array(16);
  /** Index into `MARK_OUTCOMES`. */
  outcome = new Uint8Array(16);
  /** The worker's run of equal verdicts after this attempt (the kubelet's `resultRun`), capped at 65 535. */
  run = new Uint16Array(16);
  /** Index of the attempt's event in `TimelineModel.events`. */
  source = new Uint32Array(16);
  /** 1 when the attempt ran while a debugger held the app (its `paused` field), else 0. */
  paused = new Uint8Array(16);

  push(t: number, durationMs: number, outcome: number, run: number, source: number, paused = false): void {
    if (this.length === this.t.length) this.grow();
    const i = this.length++;
    this.t[i] = t;
    this.durationMs[i] = durationMs;
    this.outcome[i] = outcome;
    this.run[i] = Math.min(run, 0xffff);
    this.source[i] = source;
    this.paused[i] = paused ? 1 : 0;
  }

  /** The first attempt at or after `t` (`length` when none). */
  lowerBound(t: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.t[mid] as number) < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private grow(): void {
    const size = this.t.length * 2;
    this.t = copyInto(new Float64Array(size), this.t);
    this.durationMs = copyInto(new Float32Array(size), this.durationMs);
    this.outcome = copyInto(new Uint8Array(size), this.outcome);
    this.run = copyInto(new Uint16Array(size), this.run);
    this.source = copyInto(new Uint32Array(size), this.source);
    this.paused = copyInto(new Uint8Array(size), this.paused);
  }
}

function copyInto<T extends Float64Array | Float32Array | Uint8Array | Uint16Array | Uint32Array>(target: T, source: T): T {
  (target as Float64Array).set(source as Float64Array);
  return target;
}
