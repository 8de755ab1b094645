import type { VirtualClock } from '../base/clock';

/** A step of real time never plays more than this (a stalled extension host does not make a simulation lurch). */
export const MAX_STEP_REAL_MS = 1000;
/** "Next event" looks this far ahead at most, and steps through at most this many instants. */
const NEXT_EVENT_HORIZON_MS = 24 * 3600 * 1000;
const NEXT_EVENT_MAX_INSTANTS = 100_000;

/** What `nextEvent` did: jumped to `at` (clock ms) where something was reported, or found nothing to jump to. */
export type NextEvent = { readonly ok: true; readonly at: number } | { readonly ok: false; readonly reason: string };

/**
 * How a simulation's virtual clock follows real time: at `speed` virtual seconds per real second,
 * paused, or stepped to its next event. The caller says what real time it is (`tick`); this
 * decides how far the virtual clock goes. Time paused is never played afterwards.
 */
export class Playback {
  private paused = false;
  private lastRealMs: number | undefined;

  constructor(
    private readonly clock: VirtualClock,
    private speedFactor: number,
  ) {}

  get isPaused(): boolean {
    return this.paused;
  }

  /** Virtual seconds per real second. */
  get speed(): number {
    return this.speedFactor;
  }

  /** Real time is `realNowMs`: plays what passed since the last tick × speed (unless paused). */
  tick(realNowMs: number): void {
    const last = this.lastRealMs;
    this.lastRealMs = realNowMs;
    if (this.paused || last === undefined) return;
    this.clock.advanceBy(Math.min(MAX_STEP_REAL_MS, Math.max(0, realNowMs - last)) * this.speedFactor);
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
  }

  /** `false` (and no change) for a speed that is not a positive finite number. */
  setSpeed(speed: number): boolean {
    if (!(speed > 0 && Number.isFinite(speed))) return false;
    this.speedFactor = speed;
    return true;
  }

  /**
   * Pauses, then moves the clock from one due timer to the next until `reported()` says the
   * engine reported something (a probe tick alone reports nothing; its attempt ending does).
   */
  nextEvent(reported: () => boolean): NextEvent {
    this.paused = true;
    const from = this.clock.now();
    for (let i = 0; i < NEXT_EVENT_MAX_INSTANTS; i++) {
      const due = this.clock.nextDueAt();
      if (due === undefined) return { ok: false, reason: 'nothing is scheduled: every container has stopped' };
      if (due - from > NEXT_EVENT_HORIZON_MS) return { ok: false, reason: 'nothing happens in the next 24 hours of virtual time' };
      this.clock.advanceTo(due);
      if (reported()) return { ok: true, at: due };
    }
    return { ok: false, reason: `nothing was reported in ${NEXT_EVENT_MAX_INSTANTS} steps` };
  }
}
