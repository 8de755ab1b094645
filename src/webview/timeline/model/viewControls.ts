/**
 * What the user (and the host's messages) do to the visible range and the replay: zoom, pan,
 * fit-all, follow, play, seek, and where the view goes when a source loads or a session ends.
 * Pure (node tests import it): the real time comes from `clock` (ms), and `changed` is told
 * whenever something the user set changed (the app redraws and saves it).
 */
import type { TimelineViewState } from '../../../shared/protocol';
import type { ReplayController } from './replay';
import type { TimelineSession } from './session';
import { restoreViewport } from './viewState';
import type { Viewport } from './viewport';

export class ViewControls {
  constructor(
    private readonly session: TimelineSession,
    private readonly viewport: Viewport,
    private readonly replay: ReplayController,
    private readonly changed: () => void,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  private get now(): number {
    return this.session.now(this.clock());
  }

  /** Wheel or pinch about `x` (CSS px from the plot's left). */
  zoomAt(x: number, factor: number): void {
    this.viewport.zoomAt(x, factor, this.session.extent());
    this.changed();
  }

  /** `+`/`-`, the toolbar: about the middle, or about `now` while following. */
  zoomStep(factor: number): void {
    this.viewport.zoomBy(factor, this.session.extent(), this.now);
    this.changed();
  }

  /** Drag, wheel, arrow keys: `dx` CSS px, positive is later. */
  panBy(dx: number): void {
    this.viewport.panBy(dx, this.session.extent());
    this.changed();
  }

  fitAll(): void {
    this.viewport.fitAll(this.session.extent(), this.now);
    this.changed();
  }

  /** Follow `now` — only while there is a `now` that moves (live, or a replay). */
  toggleFollow(): void {
    if (!this.session.isLive && !this.session.replaying) return;
    this.viewport.setFollow(!this.viewport.follow, this.session.extent(), this.now);
    this.changed();
  }

  /** Play or pause a recording; playing follows the playhead. */
  togglePlay(): void {
    const session = this.session;
    if (!session.replayable) return;
    if (this.replay.toggle(session.feed, this.clock())) this.viewport.setFollow(true, session.extent(), this.now);
    this.changed();
  }

  setSpeed(speed: number): void {
    this.replay.speed = speed;
    this.changed();
  }

  /** The replay slider, at `fraction` (0–1) of the recording. Not a setting: nothing to save. */
  seek(fraction: number): void {
    const session = this.session;
    if (!session.replayable) return;
    this.replay.seek(session.feed, fraction * session.feed.end, this.clock());
  }

  /** Shows `[start, end]` (a test's or a benchmark's zoom). */
  showRange(start: number, end: number): void {
    this.viewport.setRange(start, end, this.session.extent());
  }

  /** Brings time `t` into view (centred) if it is out of it: the keyboard moved to something there. */
  reveal(t: number): void {
    const v = this.viewport;
    if (t < v.start || t > v.end) v.panBy(v.toX(t) - v.width / 2, this.session.extent());
  }

  /**
   * The session just loaded a source. The panel's first: the saved view (a reloaded panel), else
   * following while live. A later one (a new session in the same panel): a live one is followed,
   * unless the user had stopped following the one before.
   */
  sourceLoaded(first: boolean, wasLive: boolean, saved: TimelineViewState | undefined): void {
    const { session, viewport } = this;
    const live = session.source?.live === true;
    if (first) restoreViewport(viewport, saved, live, session.extent(), session.feed.end);
    else viewport.setFollow(live && (viewport.follow || !wasLive), session.extent(), session.feed.end);
    this.replay.playing = false;
    this.changed();
  }

  /** The session ended: following stops, the view staying where it ended. */
  sessionEnded(): void {
    this.viewport.update(this.session.extent(), this.session.feed.end);
    this.viewport.follow = false;
  }
}
