/**
 * The timeline panel's messages between the extension host and the webview (docs/design.md §5): typed,
 * versioned, and checked on arrival — a revived panel may hold state from another version, and
 * nothing from the other side is trusted to have the right shape.
 */
import type { EngineEvent } from '../core/engine/events';
import type { ProbeType } from '../core/manifest/model';
import type { MarkOutcome } from '../core/timeline/columns';
import type { TimelineClock } from '../core/timeline/clockText';
import type { LineProblem, RunHeader } from '../core/timeline/jsonl';
import type { ModelSection } from '../core/timeline/sections';
import type { DroppedEvents } from '../core/timeline/store';

export const TIMELINE_PROTOCOL_VERSION = 1;

/** The panel's `viewType`, and the serializer's. */
export const TIMELINE_VIEW_TYPE = 'probeLens.timeline';

export type { TimelineClock };

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
  /**
   * The host can say why a container is in its state at a moment (`explain`): the selection on a
   * container's lane shows it. Absent on the CLI's page, which has no host to ask.
   */
  readonly canExplain?: boolean;
}

/** Runs shown one above the other on one time axis (a recording and its replay): the events of each in turn (`sections.ts`). */
export type TimelineSection = ModelSection;

/** A line of the recording an explanation cites, and where the timeline draws it. */
export interface TimelineEvidence {
  readonly t: number;
  /** The line's type: `attempt`, `event`, `container`, … */
  readonly type: string;
  readonly summary: string;
  /** The lane it is drawn on: a store lane key (`laneKeys.ts`), in a run of several prefixed with its section. */
  readonly lane: string;
}

export interface TimelineCause {
  /** The kind of cause (`readiness-failed`, `back-off`, `paused`, …), as the explanation names it. */
  readonly reason: string;
  readonly text: string;
  readonly evidence: readonly TimelineEvidence[];
}

/** Why a container is in its state at `t`: a sentence, and the causes behind it with the lines they come from. */
export interface TimelineExplanation {
  readonly pod: string;
  readonly container: string;
  readonly t: number;
  readonly state: string;
  readonly sentence: string;
  readonly causes: readonly TimelineCause[];
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
      /** Several runs one above the other: how many of the events (in this load and the appends after it) are each's. */
      readonly sections?: readonly TimelineSection[];
      /**
       * The source had already stopped (a revived panel, a recording): why. It applies with the
       * last of these events, so no frame shows a stopped session as live between two messages.
       */
      readonly ended?: string;
    }
  | { readonly type: 'append'; readonly protocol: number; readonly events: readonly EngineEvent[]; readonly dropped: readonly DroppedEvents[]; readonly now: number; readonly loading?: boolean; /** A live session's rate now (a paused simulation: 0), when it has one. */ readonly rate?: number }
  /** The session stopped: no more events, `follow` stops at `now`. */
  | { readonly type: 'ended'; readonly protocol: number; readonly now: number; readonly reason: string }
  /** Lanes to highlight (store lane keys, `laneKeys.ts`): the editor's or the tree's selection. */
  | { readonly type: 'highlight'; readonly protocol: number; readonly lanes: readonly string[] }
  /** The host could not load what the panel shows (a missing or unreadable file). */
  | { readonly type: 'failed'; readonly protocol: number; readonly message: string }
  /** The answer to the webview's `explain` of the same `request`: the explanation, or why there is none. */
  | { readonly type: 'explanation'; readonly protocol: number; readonly request: number; readonly explanation?: TimelineExplanation; readonly failure?: string };

export type WebviewMessage =
  | { readonly type: 'ready'; readonly protocol: number }
  | { readonly type: 'reveal'; readonly protocol: number; readonly pod: string; readonly container: string; readonly probe?: ProbeType }
  | { readonly type: 'export'; readonly protocol: number }
  /** Why is this container in its state at `t` (the selection on its lane)? `section`: the run, in a timeline of several. */
  | { readonly type: 'explain'; readonly protocol: number; readonly request: number; readonly pod: string; readonly container: string; readonly t: number; readonly section?: string };

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

const HOST_TYPES = new Set(['load', 'append', 'ended', 'highlight', 'failed', 'explanation']);
const WEBVIEW_TYPES = new Set(['ready', 'reveal', 'export', 'explain']);

/** A message from the host this webview understands (same protocol version). */
export function isHostMessage(value: unknown): value is HostMessage {
  if (!isMessage(value, HOST_TYPES)) return false;
  switch (value.type) {
    case 'load':
      return Array.isArray(value['events']) && (value['sections'] === undefined || (Array.isArray(value['sections']) && value['sections'].every(isSection)));
    case 'append':
      return Array.isArray(value['events']);
    case 'explanation':
      return Number.isFinite(value['request']) && (value['explanation'] === undefined ? typeof value['failure'] === 'string' : isExplanation(value['explanation']));
    default:
      return true;
  }
}

/** A message from the webview the host understands; anything else is ignored. */
export function isWebviewMessage(value: unknown): value is WebviewMessage {
  if (!isMessage(value, WEBVIEW_TYPES)) return false;
  if (value.type === 'explain') {
    return Number.isFinite(value['request']) && typeof value['pod'] === 'string' && typeof value['container'] === 'string' && Number.isFinite(value['t']) && (value['section'] === undefined || typeof value['section'] === 'string');
  }
  if (value.type !== 'reveal') return true;
  return typeof value['pod'] === 'string' && typeof value['container'] === 'string' && (value['probe'] === undefined || ['startup', 'readiness', 'liveness'].includes(value['probe'] as string));
}

function isSection(value: unknown): value is TimelineSection {
  const record = value as Record<string, unknown> | null;
  return typeof record === 'object' && record !== null && typeof record['name'] === 'string' && typeof record['title'] === 'string' && Number.isInteger(record['events']) && (record['events'] as number) >= 0;
}

/** An explanation whose every part the webview puts on screen has the right type (its text goes in as text). */
function isExplanation(value: unknown): value is TimelineExplanation {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Record<string, unknown>;
  const strings = (record: Record<string, unknown>, names: readonly string[]) => names.every((name) => typeof record[name] === 'string');
  const isEvidence = (v: unknown) => typeof v === 'object' && v !== null && Number.isFinite((v as Record<string, unknown>)['t']) && strings(v as Record<string, unknown>, ['type', 'summary', 'lane']);
  const isCause = (v: unknown) => typeof v === 'object' && v !== null && strings(v as Record<string, unknown>, ['reason', 'text']) && Array.isArray((v as Record<string, unknown>)['evidence']) && ((v as Record<string, unknown>)['evidence'] as unknown[]).every(isEvidence);
  return strings(e, ['pod', 'container', 'state', 'sentence']) && Number.isFinite(e['t']) && Array.isArray(e['causes']) && e['causes'].every(isCause);
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
