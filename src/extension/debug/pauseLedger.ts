import type { EngineEvent, PauseLine } from '../../core/engine/events';
import type { AttemptLine } from '../../core/history/history';
import { noteAttempt, type SeenRun, workerStarted } from '../../core/pause/pauseCountdown';
import type { ProbeType } from '../../core/manifest';

/**
 * A pause this close after the program went on (a step: seconds) continues the same hold: the
 * program ran for a moment no probe gets through, and the kubelet's count goes on.
 */
export const STEP_GRACE_SECONDS = 1.5;
/** Closed pauses kept for marking attempts that end after the pause: longer than any attempt lasts. */
const KEPT_PAUSE_SECONDS = 600;

/** When a probing session's program is held, as its session clock (seconds) tells it. */
export interface Hold {
  /** The current pause began (the newest `paused` of a debug session that still holds it). */
  readonly pausedAt: number;
  /** The pauses it is part of began: steps between them do not end the hold. */
  readonly heldSince: number;
}

/**
 * One probing session under the breakpoint guard: which debug sessions hold its program and since
 * when, the `pause` lines that says, the attempts to mark (`paused: true`: their interval
 * `[t − durationMs/1000, t]` overlaps a pause), and every probe's run as the session saw it (for
 * the countdown's phase and count). No `vscode`: times are the session's seconds.
 */
export class PauseLedger {
  /** Debug session id → its name and when it paused the program. */
  private readonly holders = new Map<string, { readonly name: string; readonly since: number }>();
  /** Pauses that ended, oldest first; the open one is `openSince`. */
  private closed: { readonly from: number; readonly to: number }[] = [];
  private openSince: number | undefined;
  private heldSince: number | undefined;
  private lastContinuedAt: number | undefined;
  /** Per probe (`pod/container/probe`): its worker's failureThreshold, and its run so far. */
  private readonly thresholds = new Map<string, number>();
  private readonly runs = new Map<string, SeenRun>();

  /**
   * `pods`: the pods a `pause` line is written for. `thresholdOf`: a probe's failureThreshold as
   * the manifest gives it, for probes whose worker line the ledger never saw (a long session's
   * bounded log dropped it before the guard followed the session).
   */
  constructor(
    private readonly pods: () => readonly string[],
    private readonly thresholdOf: (pod: string, container: string, probe: ProbeType) => number | undefined = () => undefined,
  ) {}

  /** Held now, and since when; `undefined` while the program runs. */
  get hold(): Hold | undefined {
    if (this.openSince === undefined || this.heldSince === undefined) return undefined;
    let pausedAt = -Infinity;
    for (const { since } of this.holders.values()) pausedAt = Math.max(pausedAt, since);
    return { pausedAt, heldSince: this.heldSince };
  }

  /** A debug session stopped the program at `t`: the `pause` lines to write (none if it already held it). */
  paused(debugSession: { readonly id: string; readonly name: string }, t: number): PauseLine[] {
    if (this.holders.has(debugSession.id)) return [];
    if (this.holders.size === 0) {
      this.openSince = t;
      const stepped = this.lastContinuedAt !== undefined && this.heldSince !== undefined && t - this.lastContinuedAt < STEP_GRACE_SECONDS;
      if (!stepped) this.heldSince = t;
    }
    this.holders.set(debugSession.id, { name: debugSession.name, since: t });
    return this.lines(t, 'paused', debugSession.name);
  }

  /** A debug session let the program go on at `t` (or ended). */
  continued(debugSessionId: string, t: number): PauseLine[] {
    const holder = this.holders.get(debugSessionId);
    if (!holder) return [];
    this.holders.delete(debugSessionId);
    if (this.holders.size === 0 && this.openSince !== undefined) {
      this.closed.push({ from: this.openSince, to: t });
      this.closed = this.closed.filter((p) => p.to > t - KEPT_PAUSE_SECONDS);
      this.openSince = undefined;
      this.lastContinuedAt = t;
    }
    return this.lines(t, 'continued', holder.name);
  }

  /** Every debug session still holding the program lets go (the guard stops watching). */
  releaseAll(t: number): PauseLine[] {
    return [...this.holders.keys()].flatMap((id) => this.continued(id, t));
  }

  /**
   * Sees each event of the session before it is recorded: follows the probes' runs, and marks an
   * attempt that ran while the program was held.
   */
  mark(event: EngineEvent): EngineEvent {
    this.follow(event);
    return event.type === 'attempt' && this.overlapsPause(event) ? { ...event, paused: true } : event;
  }

  /**
   * Follows the probes' runs through one event, without marking it: every event as it comes
   * (`mark`), and those the session recorded before the guard watched it.
   */
  follow(event: EngineEvent): void {
    if (event.type === 'worker') {
      // A new worker counts from nothing (an edit replaced the probe, or the pod started), on its own ticks.
      const key = probeKey(event.pod, event.container, event.probe);
      this.thresholds.set(key, event.failureThreshold);
      this.runs.set(key, workerStarted(event.t, event.periodSeconds));
      return;
    }
    if (event.type !== 'attempt') return;
    const key = probeKey(event.pod, event.container, event.probe);
    const threshold = this.thresholds.get(key) ?? this.thresholdOf(event.pod, event.container, event.probe);
    if (threshold !== undefined) this.runs.set(key, noteAttempt(this.runs.get(key), event, threshold));
  }

  /** What the session saw of a probe's attempts. */
  seen(pod: string, container: string, probe: ProbeType): SeenRun | undefined {
    return this.runs.get(probeKey(pod, container, probe));
  }

  private overlapsPause(attempt: AttemptLine): boolean {
    const start = attempt.t - attempt.durationMs / 1000;
    if (this.openSince !== undefined && attempt.t > this.openSince) return true;
    return this.closed.some((p) => start < p.to && attempt.t > p.from);
  }

  private lines(t: number, state: PauseLine['state'], debugSession: string): PauseLine[] {
    return this.pods().map((pod) => ({ type: 'pause', t, pod, state, debugSession }));
  }
}

function probeKey(pod: string, container: string, probe: ProbeType): string {
  return `${pod}\u0000${container}\u0000${probe}`;
}
