/**
 * The timeline's words for a debugger's pauses (issue 12 §4): the tooltip of a pause's stretch,
 * the line an attempt the pause failed adds to its tooltip, what the lane list adds to a pod's and
 * a probe's summary, and the test hooks' view. Pure (node tests import it); the debug session's
 * name is returned as plain text, for `textContent`.
 */
import { MARK_OUTCOMES, type MarkOutcome } from '../../../core/timeline/columns';
import { blamedOnPause } from '../../../core/timeline/pauseLanes';
import type { Span } from '../../../core/timeline/spans';
import type { PodLane, ProbeLane } from '../../../core/timeline/viewModel';
import type { Tooltip } from './tooltipText';
import { formatCount, plural } from './format';

/** The attempts of a pod's probes that failed because of a pause from `start` to `end`. */
export function failuresDuring(lane: PodLane, start: number, end: number): number {
  let count = 0;
  for (const container of lane.containers) {
    for (const probe of container.probes) {
      const a = probe.attempts;
      for (let i = a.lowerBound(start); i < a.length && (a.t[i] as number) <= end; i++) {
        if (blamedOnPause(MARK_OUTCOMES[a.outcome[i] as number] as MarkOutcome, a.paused[i] === 1)) count++;
      }
    }
  }
  return count;
}

/** A pause's stretch: whose, how long, and what it did to the probes. */
export function describePause(span: Span<string>, lane: PodLane, where: string, between: string, now: number): Tooltip {
  const failed = failuresDuring(lane, span.start, span.end ?? now);
  const lines = [between, `the debug session ${span.value} held the program at a breakpoint (or a step)`];
  lines.push(failed > 0 ? `${plural(failed, 'attempt')} failed meanwhile: the pause's failures, not the app's (the kubelet would count them all the same)` : 'no attempt failed meanwhile');
  return { title: `Paused by debugger ${span.value} · ${where}`, lines };
}

/** What a failed attempt's tooltip adds when the pause caused it. */
export const PAUSED_ATTEMPT_LINE = "failed while a debugger held the app: the pause's failure, not the app's";

/** What the lane list adds to a pod's summary: the pause on now, or how many there were. */
export function podPauseSummary(lane: PodLane): string[] {
  const last = lane.pauses[lane.pauses.length - 1];
  if (!last) return [];
  if (last.end === undefined) return [`paused by debugger ${last.value}`];
  return [`paused ${plural(lane.pauses.length, 'time')} by a debugger`];
}

/** What the lane list adds to a probe's failures: how many of them the pauses caused. */
export function probePauseSummary(lane: ProbeLane): string {
  return lane.pausedFailures > 0 ? ` (${formatCount(lane.pausedFailures)} while paused by a debugger)` : '';
}

/** A pod's pauses as the test hooks show them: `{start, end, debugSession}`, `end` null while paused. */
export function pauseFacts(lane: PodLane): { start: number; end: number | null; debugSession: string }[] {
  return lane.pauses.map((s) => ({ start: s.start, end: s.end ?? null, debugSession: s.value }));
}
