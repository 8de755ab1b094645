/**
 * The kubelet's container restart back-off (docs/spec/kubelet-probes.md B1–B3): client-go's
 * `flowcontrol.Backoff` without jitter, keyed per pod and container, with the kubelet's fixed
 * 600 s reset window. Times in milliseconds.
 */
export interface BackoffPolicy {
  readonly initialMs: number;
  readonly maxMs: number;
  /** An entry not advanced for this long before the latest exit starts over (B3). */
  readonly resetAfterMs: number;
}

export const KUBELET_BACKOFF: BackoffPolicy = { initialMs: 10_000, maxMs: 300_000, resetAfterMs: 600_000 };

interface Entry {
  delayMs: number;
  lastUpdate: number;
}

export class Backoff {
  /** Created on the first restart: most pods never need it. */
  private entries: Map<string, Entry> | undefined;

  constructor(private readonly policy: BackoffPolicy = KUBELET_BACKOFF) {}

  /** `IsInBackOffSince`: is `now − finishedAt` still inside the current delay? */
  isInBackoffSince(key: string, finishedAt: number, now: number): boolean {
    const entry = this.entries?.get(key);
    if (!entry || this.expired(entry, finishedAt)) return false;
    return now - finishedAt < entry.delayMs;
  }

  /** `Next`: record a restart; the delay doubles (capped) unless the entry expired (B2). */
  next(key: string, finishedAt: number, now: number): void {
    this.entries ??= new Map();
    const entry = this.entries.get(key);
    if (!entry || this.expired(entry, finishedAt)) {
      this.entries.set(key, { delayMs: this.policy.initialMs, lastUpdate: now });
      return;
    }
    entry.delayMs = Math.min(entry.delayMs * 2, this.policy.maxMs);
    entry.lastUpdate = now;
  }

  /** The current delay, for the "back-off 20s restarting failed container" message. */
  delayMs(key: string): number {
    return this.entries?.get(key)?.delayMs ?? 0;
  }

  private expired(entry: Entry, finishedAt: number): boolean {
    return finishedAt - entry.lastUpdate > this.policy.resetAfterMs;
  }
}
