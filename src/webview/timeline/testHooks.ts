/**
 * What the timeline exposes on `window.__probeLensTimeline` for tests and benchmarks (the VS Code
 * harness and the CLI's HTML page in headless Chromium read it). Read-only views of what is on
 * screen: tests assert on what a user sees, not on internals. Pure types: no DOM.
 */
import type { ClusterFacts } from './words/describeCluster';
import type { WhyState } from './model/whyState';

export interface TimelineHookLane {
  /** The store's lane key (`laneKeys.ts`): `pod:web-0`, `container:web-0/app`, `probe:web-0/app/liveness`. */
  readonly id: string;
  readonly kind: 'pod' | 'container' | 'probe';
  /** What the lane's label says. */
  readonly label: string;
  /** CSS pixels from the canvas's top edge, and height. */
  readonly top: number;
  readonly height: number;
  readonly highlighted: boolean;
  /** The run it is of, in a timeline of several (`recorded`, `replayed`). */
  readonly section?: string;
}

/** The items of the cluster's part of a lane `TimelineTestHooks.itemAt` finds. */
export type ClusterItemKind = 'kubelet' | 'clusterEvent' | 'prediction' | 'disagreement' | 'target';
/** Every pod or container item `TimelineTestHooks.itemAt` finds: the cluster's, a debugger's pause, a state, a restart, an event. */
export type ItemKind = ClusterItemKind | 'pause' | 'state' | 'restart' | 'marker' | 'ready';


/** The *why* as the details area shows it, and the moment selected (`lane` id, `t`). */
export interface TimelineHookWhy extends WhyState {
  readonly selection?: { readonly lane: string; readonly t: number };
}

export interface TimelineHookState {
  /** Frames painted so far (0 until the first paint). */
  readonly painted: number;
  /** Events in the model. */
  readonly events: number;
  /** The lanes drawn now (filters applied), top to bottom. */
  readonly lanes: readonly TimelineHookLane[];
  /** Per probe lane id: its attempts by outcome (`success`, `warning`, `failure`, `unknown`, `error`), filters not applied. */
  readonly attempts: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** Per probe lane id: its kubelet event markers' reasons, in time order. */
  readonly markers: Readonly<Record<string, readonly string[]>>;
  /** Per container lane id: restart marks (`containerId`, `restartCount`) and kill markers' messages. */
  readonly containers: Readonly<Record<string, { readonly restarts: readonly { readonly containerId: string; readonly restartCount: number }[]; readonly kills: readonly string[]; readonly backOff: number }>>;
  /**
   * Cluster sessions, per pod or container lane id the cluster said something of: the kubelet's
   * Ready band (`{start, end, ready}`, `end` null while open), the cluster's events (`Unhealthy×3`),
   * predicted kills (`pending`, `confirmed`, `missed`), disagreements (`{start, end, cause}`) and
   * the cluster pods probed. No entry for a lane of another session.
   */
  readonly cluster: Readonly<Record<string, ClusterFacts>>;
  /** Per pod lane id with a debugger's pauses: each (`end` null while paused). */
  readonly pauses: Readonly<Record<string, readonly { readonly start: number; readonly end: number | null; readonly debugSession: string }[]>>;
  /** Per probe lane id with any: its attempts that failed because of a pause. */
  readonly pausedFailures: Readonly<Record<string, number>>;
  /** The runs' headings, top to bottom, in a timeline of several (else none). */
  readonly sections: readonly string[];
  readonly viewport: { readonly start: number; readonly end: number };
  readonly follow: boolean;
  /** From the body's class: `light`, `dark`, `high-contrast`, `high-contrast-light`. */
  readonly theme: string;
  /** The resolved colour the canvas uses for failed attempts (changes with the theme). */
  readonly failureColor: string;
  readonly live: boolean;
  readonly ended: boolean;
  /** Events the store dropped (as the panel's note says), 0 if none. */
  readonly dropped: number;
  /** The notes shown above the lanes (dropped events, skipped lines, loading, ended), '' if none. */
  readonly note: string;
  /** Replay: `undefined` unless the source is replayable. */
  readonly replay?: { readonly playing: boolean; readonly speed: number; readonly at: number };
}

export interface TimelineTestHooks {
  state(): TimelineHookState;
  /** Where the attempt of `laneId` nearest to `t` is drawn, in CSS pixels relative to the page (for `page.mouse`), if visible. */
  markAt(laneId: string, t: number): { readonly x: number; readonly y: number } | undefined;
  /**
   * Where the `kind` item of `laneId` at `t` is drawn (a span holding `t`, else the item nearest
   * to it), in CSS pixels relative to the page, if visible: to point at the cluster's band.
   */
  itemAt(laneId: string, kind: ItemKind, t: number): { readonly x: number; readonly y: number } | undefined;
  /** Where time `t` is drawn on `laneId`'s row (its middle, in page CSS px), if in view: a click there selects that moment. */
  pointAt(laneId: string, t: number): { readonly x: number; readonly y: number } | undefined;
  /** The details area's *why*. */
  why(): TimelineHookWhy;
  /** The tooltip's text while shown, else ''. */
  tooltip(): string;
  /** Redraws everything `frames` times, synchronously, and returns each redraw's duration in ms. */
  measureRedraw(frames: number): number[];
}
