/**
 * Playing a recording back: a playhead that moves through the feed at a chosen speed, one step a
 * frame. Pure: the caller passes the real time (`performance.now()`, ms) and the feed, which a new
 * `load` replaces.
 */
import type { EventFeed } from './feed';

export const REPLAY_SPEEDS = [1, 10, 60, 300, 600] as const;
export const DEFAULT_REPLAY_SPEED = 60;

/**
 * At most this much real time (ms) is played in one step: a hidden panel gets no frames, and a
 * recording should go on where it was when shown again, not jump ahead.
 */
const MAX_STEP_MS = 250;

export class ReplayController {
  playing = false;
  speed: number = DEFAULT_REPLAY_SPEED;
  private lastStepAt = 0;

  /** A speed from saved state, if it is one of ours. */
  restoreSpeed(speed: unknown): void {
    if ((REPLAY_SPEEDS as readonly unknown[]).includes(speed)) this.speed = speed as number;
  }

  /** Play or pause. Playing from the end, or a recording never played, starts it over. Returns whether it now plays. */
  toggle(feed: EventFeed, at: number): boolean {
    if (this.playing) {
      this.playing = false;
      return false;
    }
    if (feed.playhead === undefined || feed.playhead >= feed.end) feed.seek(0);
    this.playing = true;
    this.lastStepAt = at;
    return true;
  }

  /** One frame's worth of playing; at the end the feed shows everything again and playing stops. */
  step(feed: EventFeed, at: number): void {
    if (!this.playing) return;
    const played = (Math.min(MAX_STEP_MS, at - this.lastStepAt) / 1000) * this.speed;
    this.lastStepAt = at;
    const next = (feed.playhead ?? 0) + played;
    if (next >= feed.end) {
      feed.seek(undefined);
      this.playing = false;
    } else {
      feed.seek(next);
    }
  }

  /** The position slider: the playhead goes to `t` and playing (if on) goes on from there. */
  seek(feed: EventFeed, t: number, at: number): void {
    feed.seek(t);
    this.lastStepAt = at;
  }
}
