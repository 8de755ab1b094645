import type { PauseLine } from '../engine/events';
import type { MarkOutcome } from './columns';
import type { Span } from './spans';

/**
 * Debugger pauses (issue 12 §4): while a VS Code debug session holds the program under probe at a
 * breakpoint, the extension writes `pause` lines for each of the session's pods, and attempts that
 * ran meanwhile carry `paused: true`. On the timeline a pause is a stretch on its pod's lane, and
 * an attempt that failed during it is the pause's failure, not the app's: drawn and told apart.
 */

/** What a pod lane holds of its debugger pauses: each stretch, named by the debug session that held the program. */
export interface PodPauseParts {
  readonly pauses: Span<string>[];
}

/**
 * A `pause` line: `paused` opens a stretch (unless one is open: a second debug session pausing the
 * same program changes nothing the probes see), `continued` closes it. As the insights' history
 * reads them (`src/core/history/history.ts`), so the timeline and the *why* agree.
 */
export function onPause(parts: PodPauseParts, event: PauseLine): void {
  const last = parts.pauses[parts.pauses.length - 1];
  const open = last && last.end === undefined ? last : undefined;
  if (event.state === 'paused') {
    if (!open) parts.pauses.push({ start: event.t, end: undefined, value: event.debugSession });
    return;
  }
  if (open) open.end = event.t;
}

/**
 * Whether an attempt is drawn as failed because of a pause: it ran while paused and its verdict was
 * a failure (a failure, or an unknown the kubelet counts as one). A success while paused is just a
 * success; a prober error is discarded whoever caused it.
 */
export function blamedOnPause(outcome: MarkOutcome, paused: boolean): boolean {
  return paused && (outcome === 'failure' || outcome === 'unknown');
}
