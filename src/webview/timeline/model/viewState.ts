/**
 * The panel's own state through `getState`/`setState` (design §5): zoom, follow, filters and replay
 * speed survive the panel being hidden and the window reloading. Pure: node tests import it.
 */
import { TIMELINE_PROTOCOL_VERSION, type TimelineRestore, type TimelineViewState, viewStateOf } from '../../../shared/protocol';
import type { LaneFilters } from './laneFilters';
import type { Extent, Viewport } from './viewport';

/** Saving waits this long after the last change: a drag or a wheel spin is one save, not hundreds. */
export const SAVE_DELAY_MS = 300;

/** Where the state is kept (the host: VS Code's webview state, or the page's memory). */
export interface StateStore {
  getState(): unknown;
  setState(state: unknown): void;
}

export class ViewStatePersistence {
  /** What was saved before (a reloaded or re-shown panel), if this version can read it. */
  readonly saved: TimelineViewState | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly store: StateStore,
    private readonly delayMs = SAVE_DELAY_MS,
  ) {
    this.saved = viewStateOf(store.getState());
  }

  /** Saves what `snapshot` says once changes pause for `delayMs`. */
  schedule(snapshot: () => TimelineViewState): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.store.setState(snapshot());
    }, this.delayMs);
  }
}

/** What is saved: the range only if the user chose one (fit-all and follow are recomputed, not frozen). */
export function snapshotViewState(viewport: Viewport, filters: LaneFilters, replaySpeed: number, restore: TimelineRestore | undefined): TimelineViewState {
  return {
    protocol: TIMELINE_PROTOCOL_VERSION,
    ...(restore ? { restore } : {}),
    ...(viewport.autoFit || viewport.follow ? {} : { viewport: { start: viewport.start, end: viewport.end } }),
    follow: viewport.follow,
    hiddenContainers: [...filters.hiddenContainers],
    hiddenProbes: [...filters.hiddenProbes],
    hiddenOutcomes: [...filters.hiddenOutcomes],
    replaySpeed,
  };
}

/**
 * The view on a panel's first load: the saved range, or following while live (unless the user
 * had turned it off), else fit-all. A saved range loses to following a live session the user was
 * following: the session has moved on since.
 */
export function restoreViewport(viewport: Viewport, saved: TimelineViewState | undefined, live: boolean, extent: Extent, now: number): void {
  viewport.follow = false;
  viewport.autoFit = true;
  viewport.followSpan = undefined;
  if (saved?.viewport && !(live && saved.follow)) viewport.setRange(saved.viewport.start, saved.viewport.end, extent);
  else viewport.setFollow(live && (saved ? saved.follow !== false : true), extent, now);
}
