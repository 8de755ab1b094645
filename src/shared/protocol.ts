/**
 * The timeline panel's messages between the extension host and the webview (design.md §5): typed,
 * versioned, and checked on arrival — a revived panel may hold state from another version, and
 * nothing from the other side is trusted to have the right shape.
 */
import type { EngineEvent } from '../core/engine/events';
import type { ProbeType } from '../core/manifest/model';
import type { MarkOutcome } from '../core/timeline/columns';
import type { LineProblem, RunHeader } from '../core/timeline/jsonl';
import type { DroppedEvents } from '../core/timeline/store';

export const TIMELINE_PROTOCOL_VERSION = 1;

/** The panel's `viewType`, and the serializer's. */
export const TIMELINE_VIEW_TYPE = 'probeLens.timeline';

/** How `t` reads on the axis: virtual seconds, or wall-clock time from `startedAtMs` (epoch ms). */
export type TimelineClock = { readonly kind: 'virtual' } | { readonly kind: 'wall'; readonly startedAtMs: number };

export interface TimelineSource {
  /** `session`: a running (or just stopped) session; `file`: a recording; `page`: the CLI's HTML page. */
  readonly kind: 'session' | 'file' | 'page';
  /** `shop.yaml · simulated 60×`, `run-2026-11-24.jsonl`. */
  readonly title: string;
  readonly clock: TimelineClock;
  /** Events may still come (a running session). */
  readonly live: boolean;
  /** Virtual seconds per real second while live (a simulation's speed; 1 on the wall clock): the panel moves `now` between messages. */
  readonly rate: number;
  /** A recording can be played back (replay controls). */
  readonly replayable: boolean;
  /** The store's cap, for the note about dropped events. */
  readonly capacity: number;
  /** The host can reveal probes in the manifest (a click on a mark). */
  readonly canReveal: boolean;
  /** The host can save the events as JSON Lines (*Export…*). */
  readonly canExport: boolean;
}

/** What a revived panel reloads from (kept in the webview's state, so a window reload finds it). */
export type TimelineRestore = { readonly kind: 'file'; readonly uri: string } | { readonly kind: 'saved'; readonly uri: string; readonly title: string };

export type HostMessage =
  | {
      readonly type: 'load';
      readonly protocol: number;
      readonly source: TimelineSource;
      readonly header?: RunHeader;
      readonly events: readonly EngineEvent[];
      readonly dropped: readonly DroppedEvents[];
      /** The source's current time (`t`): open spans reach to here. */
      readonly now: number;
      /** Lines of the file that were not events, with why (at most 20), and how many in all. */
      readonly problems?: readonly LineProblem[];
      readonly skipped?: number;
      /** Where a reload finds these events again. */
      readonly restore?: TimelineRestore;
      /** More `append` messages follow with the rest of a large recording. */
      readonly loading?: boolean;
    }
  | { readonly type: 'append'; readonly protocol: number; readonly events: readonly EngineEvent[]; readonly dropped: readonly DroppedEvents[]; readonly now: number; readonly loading?: boolean; /** A live session's rate now (a paused simulation: 0), when it has one. */ readonly rate?: number }
  /** The session stopped: no more events, `follow` stops at `now`. */
  | { readonly type: 'ended'; readonly protocol: number; readonly now: number; readonly reason: string }
  /** Lanes to highlight (store lane keys, `laneKeys.ts`): the editor's or the tree's selection. */
  | { readonly type: 'highlight'; readonly protocol: number; readonly lanes: readonly string[] }
  /** The host could not load what the panel shows (a missing or unreadable file). */
  | { readonly type: 'failed'; readonly protocol: number; readonly message: string };

export type WebviewMessage =
  | { readonly type: 'ready'; readonly protocol: number }
  | { readonly type: 'reveal'; readonly protocol: number; readonly pod: string; readonly container: string; readonly probe?: ProbeType }
  | { readonly type: 'export'; readonly protocol: number };

/** The webview's own state (`getState`/`setState`): survives hiding and window reloads. */
export interface TimelineViewState {
  readonly protocol: number;
  readonly restore?: TimelineRestore;
  /** Visible time range; `undefined`: fit all. */
  readonly viewport?: { readonly start: number; readonly end: number };
  readonly follow: boolean;
  readonly hiddenContainers: readonly string[];
  readonly hiddenProbes: readonly ProbeType[];
  readonly hiddenOutcomes: readonly MarkOutcome[];
  readonly replaySpeed: number;
}

const HOST_TYPES = new Set(['load', 'append', 'ended', 'highlight', 'failed']);
const WEBVIEW_TYPES = new Set(['ready', 'reveal', 'export']);

/** A message from the host this webview understands (same protocol version). */
export function isHostMessage(value: unknown): value is HostMessage {
  return isMessage(value, HOST_TYPES) && (value.type !== 'load' && value.type !== 'append' ? true : Array.isArray(value['events']));
}

/** A message from the webview the host understands; anything else is ignored. */
export function isWebviewMessage(value: unknown): value is WebviewMessage {
  if (!isMessage(value, WEBVIEW_TYPES)) return false;
  if (value.type !== 'reveal') return true;
  return typeof value['pod'] === 'string' && typeof value['container'] === 'string' && (value['probe'] === undefined || ['startup', 'readiness', 'liveness'].includes(value['probe'] as string));
}

function isMessage(value: unknown, types: Set<string>): value is { type: string; [field: string]: unknown } {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return record['protocol'] === TIMELINE_PROTOCOL_VERSION && typeof record['type'] === 'string' && types.has(record['type']);
}

/** A state from `getState()` this version can use, else `undefined` (another version's, or none). */
export function viewStateOf(value: unknown): TimelineViewState | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  return (value as Record<string, unknown>)['protocol'] === TIMELINE_PROTOCOL_VERSION ? (value as TimelineViewState) : undefined;
}
