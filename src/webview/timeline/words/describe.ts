/**
 * The timeline's words: tooltips, the lane list's labels for screen readers, and the notes above
 * the lanes. Pure (node tests import it). Event text (probe output, kubelet messages, names) is
 * returned as plain strings: the DOM code puts it in with `textContent`, never as HTML.
 */
import type { MarkOutcome } from '../../../core/timeline/columns';
import { MARK_OUTCOMES } from '../../../core/timeline/columns';
import { blamedOnPause } from '../../../core/timeline/pauseLanes';
import type { EngineEvent } from '../../../core/engine/events';
import type { DroppedEvents } from '../../../core/timeline/store';
import type { ContainerLane, Lane, ProbeLane, Span } from '../../../core/timeline/viewModel';
import type { NoteInput } from '../model/session';
import type { Tooltip } from './tooltipText';
import type { TimelineClock } from '../../../shared/protocol';
import { containerClusterSummary, currentClusterPod, describeClusterHit, openDisagreement, podClusterSummary } from './describeCluster';
import { describePause, PAUSED_ATTEMPT_LINE, podPauseSummary, probePauseSummary } from './describePause';
import { formatCount, formatInstant, formatMillis, formatPoint, plural } from './format';
import { formatDuration } from '../../../core/text/durations';
import { type Hit, markerFor } from '../model/hitTest';
import { showsCluster } from '../model/layout';


/** Output longer than this is cut in a tooltip (the kubelet itself caps bodies at 10 KiB). */
const EXCERPT_CHARS = 300;

export function excerpt(text: string, max = EXCERPT_CHARS): string {
  const trimmed = text.trim();
  return trimmed.length > max ? `${trimmed.slice(0, max - 1)}…` : trimmed;
}

/**
 * A container id short enough for a label: the runtime's prefix goes, a hex id keeps 12 digits
 * (as `docker ps` shows them), a path its last segments that fit in 16 characters, anything else
 * its last 16 characters.
 */
export function shortContainerId(id: string): string {
  const bare = id.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  if (/^[0-9a-f]{13,}$/i.test(bare)) return bare.slice(0, 12);
  if (bare.length <= 16) return bare;
  const segments = bare.split('/');
  let tail = segments.pop() ?? '';
  while (segments.length > 0 && tail.length + 1 + (segments[segments.length - 1] as string).length <= 16) tail = `${segments.pop()}/${tail}`;
  return tail.length <= 16 && tail.length > 0 ? tail : `…${bare.slice(-15)}`;
}

/** `web-0/app liveness`, `web-0/app`, `web-0`: a lane named as people say it; in a timeline of several runs, with its run (`replayed · web-0/app`). */
export function laneTitle(lane: Lane): string {
  const run = lane.section === undefined ? '' : `${lane.section} · `;
  switch (lane.kind) {
    case 'pod':
      return `${run}${lane.name}`;
    case 'container':
      return `${run}${lane.pod}/${lane.name}`;
    case 'probe':
      return `${run}${lane.pod}/${lane.container} ${lane.probe}`;
  }
}

/** The same from a store lane key (`laneKeys.ts`), for lanes the model may not hold. */
export function laneKeyTitle(key: string): string {
  const colon = key.indexOf(':');
  const kind = key.slice(0, colon);
  const parts = key.slice(colon + 1).split('/');
  if (kind === 'probe' && parts.length === 3) return `${parts[0]}/${parts[1]} ${parts[2]}`;
  return parts.join('/');
}

function lastValue<V>(spans: readonly Span<V>[]): V | undefined {
  return spans[spans.length - 1]?.value;
}

/** What the lane list says for a lane (its `aria-label`): `web-0 / app liveness: 120 attempts, 3 failed, result Failure`; in a timeline of several runs, with its run first. */
export function laneSummary(lane: Lane): string {
  return lane.section === undefined ? summaryOf(lane) : `${lane.section}: ${summaryOf(lane)}`;
}

function summaryOf(lane: Lane): string {
  switch (lane.kind) {
    case 'pod': {
      const ready = lastValue(lane.ready);
      const parts = [ready === undefined ? 'Ready not known' : ready ? 'Ready' : 'not ready'];
      const down = lane.tunnelsDown.filter((s) => s.end === undefined).length;
      if (down > 0) parts.push(`${plural(down, 'tunnel')} down`);
      else if (lane.tunnelsDown.length > 0) parts.push(`tunnel was down ${plural(lane.tunnelsDown.length, 'time')}`);
      parts.push(...podPauseSummary(lane));
      parts.push(...podClusterSummary(lane));
      return `pod ${lane.name}: ${parts.join(', ')}`;
    }
    case 'container': {
      const state = lastValue(lane.states);
      const parts = [state ? `${state.state}${state.reason ? ` (${state.reason})` : ''}` : 'no state yet', plural(lane.restarts.length, 'restart')];
      const ready = lastValue(lane.ready);
      if (ready !== undefined) parts.push(ready ? 'ready' : 'not ready');
      const kills = lane.markers.filter((m) => m.reason === 'Killing').length;
      if (kills > 0) parts.push(plural(kills, 'kill'));
      parts.push(...containerClusterSummary(lane));
      return `${lane.pod} / ${lane.name}: ${parts.join(', ')}`;
    }
    case 'probe': {
      const c = lane.counts;
      const total = c.success + c.warning + c.failure + c.unknown + c.error;
      const parts = [plural(total, 'attempt'), `${formatCount(c.failure)} failed${probePauseSummary(lane)}`];
      if (c.warning > 0) parts.push(plural(c.warning, 'warning'));
      if (c.unknown > 0) parts.push(`${formatCount(c.unknown)} unknown`);
      if (c.error > 0) parts.push(`${plural(c.error, 'error')} discarded`);
      const result = lastValue(lane.results);
      parts.push(result ? `result ${result}` : 'no result yet');
      return `${lane.pod} / ${lane.container} ${lane.probe}: ${parts.join(', ')}`;
    }
  }
}

/** The second line under a lane's label: a probe's handler, a container's restarts (and `≠ kubelet` while ours and the cluster's disagree), the cluster pod a pod is probed through. */
export function laneDetail(lane: Lane): string {
  if (lane.kind === 'probe') return lane.spec?.handler ?? '';
  if (lane.kind === 'container') {
    const restarts = lane.restarts.length > 0 ? plural(lane.restarts.length, 'restart') : '';
    return openDisagreement(lane) ? [restarts, '≠ kubelet'].filter((part) => part !== '').join(' · ') : restarts;
  }
  // With --all-pods a lane is named after its cluster pod: nothing to add then.
  const clusterPod = currentClusterPod(lane);
  const lastPause = lane.pauses[lane.pauses.length - 1];
  const pausedNow = lastPause !== undefined && lastPause.end === undefined;
  return [clusterPod === undefined || clusterPod === lane.name ? '' : `→ ${clusterPod}`, pausedNow ? '‖ paused (debugger)' : ''].filter((part) => part !== '').join(' · ');
}

/** How a run of verdicts after an attempt reads: `2/3 failures in a row`, `12 successes in a row`. */
export function runText(lane: ProbeLane, outcome: MarkOutcome, run: number): string {
  if (outcome === 'error') return 'a prober error: the kubelet discards it, the run is unchanged';
  const failing = outcome === 'failure' || outcome === 'unknown';
  const threshold = lane.spec ? (failing ? lane.spec.failureThreshold : lane.spec.successThreshold) : undefined;
  const noun = failing ? 'failures' : 'successes';
  if (threshold === undefined || (!failing && threshold <= 1)) return `${formatCount(run)} ${run === 1 ? (failing ? 'failure' : 'success') : noun} in a row`;
  const count = `${formatCount(run)}/${formatCount(threshold)} ${noun} in a row`;
  if (run < threshold) return count;
  if (!failing) return `${count}: Success`;
  if (run > threshold) return `${formatCount(run)} ${noun} in a row (threshold ${threshold})`;
  return `${count}: ${lane.probe === 'readiness' ? 'not ready' : lane.probe === 'startup' ? 'startup failed: the container is killed' : 'the container is killed'}`;
}

export interface DescribeContext {
  readonly events: readonly EngineEvent[];
  readonly clock: TimelineClock;
  readonly now: number;
  /** The container lane of a probe lane (for the kill its failures caused). */
  readonly containerOf: (lane: ProbeLane) => ContainerLane | undefined;
  readonly capacity: number;
}

function between(span: Span<unknown>, context: DescribeContext): string {
  const end = span.end;
  const to = end === undefined ? 'now' : formatInstant(end, context.clock);
  const length = (end ?? context.now) - span.start;
  return `${formatInstant(span.start, context.clock)} → ${to} (${formatDuration(length)}${end === undefined ? ' so far' : ''})`;
}

/** The tooltip for what the pointer (or keyboard focus) is on. */
export function describeHit(hit: Hit, context: DescribeContext): Tooltip {
  const where = laneTitle(hit.lane);
  switch (hit.kind) {
    case 'mark': {
      const { lane, index } = hit;
      const a = lane.attempts;
      const t = a.t[index] as number;
      const outcome = MARK_OUTCOMES[a.outcome[index] as number] ?? 'unknown';
      const event = context.events[a.source[index] as number];
      const paused = blamedOnPause(outcome, a.paused[index] === 1);
      const lines = [`${formatInstant(t, context.clock)} · ${outcome === 'error' ? 'error (discarded)' : outcome} · ${formatMillis(a.durationMs[index] as number)}`, runText(lane, outcome, a.run[index] as number)];
      if (paused) lines.splice(1, 0, PAUSED_ATTEMPT_LINE);
      if (lane.spec) lines.push(`${lane.spec.handler} · every ${formatDuration(lane.spec.periodSeconds)}, timeout ${formatDuration(lane.spec.timeoutSeconds)}`);
      if (event?.type === 'attempt') {
        if (event.output.trim() !== '') lines.push(`Output: ${excerpt(event.output)}`);
        if (event.error !== undefined) lines.push(`Error: ${excerpt(event.error)}`);
      }
      const tolerance = Math.min(0.5, (lane.spec?.periodSeconds ?? 1) / 2);
      const marker = markerFor(lane.markers, t, tolerance);
      if (marker) lines.push(`${marker.reason}: ${excerpt(marker.message)}`);
      const container = context.containerOf(lane);
      const kill = container ? markerFor(container.markers, t, tolerance) : undefined;
      if (kill && kill.reason === 'Killing' && kill.probe === lane.probe) lines.push(`Killing: ${excerpt(kill.message)}`);
      return { title: `${where} · attempt${paused ? ' (debugger paused)' : ''}`, lines };
    }
    case 'marker': {
      const m = hit.marker;
      const lines = [formatInstant(m.t, context.clock), excerpt(m.message, 600)];
      if (m.reason === 'Killing' && m.probe) lines.push(`caused by the ${m.probe} probe: its failures reached failureThreshold`);
      return { title: `${m.reason}${m.warning ? ' (Warning)' : ''} · ${where}`, lines };
    }
    case 'restart': {
      const r = hit.restart;
      return { title: `Restart ${r.restartCount} · ${where}`, lines: [formatInstant(r.t, context.clock), `new container ${r.containerId}`, `restartCount ${r.restartCount}`] };
    }
    case 'result':
      return { title: `Result ${hit.span.value} · ${where}`, lines: [between(hit.span, context), 'the cached result the kubelet acts on (published on change)'] };
    case 'state': {
      const v = hit.span.value;
      const lines = [between(hit.span, context)];
      if (v.message) lines.push(excerpt(v.message));
      if (v.containerId) lines.push(`container ${v.containerId}`);
      lines.push(`restartCount ${v.restartCount}`);
      return { title: `${v.state[0]?.toUpperCase()}${v.state.slice(1)}${v.reason ? ` · ${v.reason}` : ''} · ${where}`, lines };
    }
    case 'ready':
      // Beside the kubelet's own verdict, say whose this one is.
      if (showsCluster(hit.lane)) return { title: `${hit.span.value ? 'Ready' : 'Not ready'} by our probes · ${where}`, lines: [between(hit.span, context), "through the tunnel; the cluster's kubelet's is the band below"] };
      return { title: `${hit.span.value ? 'Ready' : 'Not ready'} · ${where}`, lines: [between(hit.span, context)] };
    case 'kubelet':
    case 'disagreement':
    case 'clusterEvent':
    case 'prediction':
    case 'target':
      return describeClusterHit(hit, where, { clock: context.clock, excerpt, between: (span) => between(span, context) });
    case 'tunnel':
      return { title: `Tunnel down · ${where}`, lines: [hit.span.value, between(hit.span, context), 'probes through it fail because of the port-forward, not the app'] };
    case 'pause':
      return describePause(hit.span, hit.lane, where, between(hit.span, context), context.now);
    case 'dropped': {
      const d = hit.lane.dropped;
      return {
        title: `Incomplete · ${where}`,
        lines: d ? [`${plural(d.count, 'older event')} of this lane dropped (the timeline keeps the newest ${formatCount(context.capacity)})`, `complete after ${formatPoint(d.throughT, context.clock)}`] : [],
      };
    }
    case 'lane':
      return { title: where, lines: [laneSummary(hit.lane)] };
  }
}

/** What the live region says when the keyboard moves to a mark: short, the essentials first. */
export function announceHit(hit: Hit, context: DescribeContext): string {
  const tip = describeHit(hit, context);
  return [tip.title, ...tip.lines.slice(0, 3)].join('. ');
}


/** The notes above the lanes, most important first; none when there is nothing to say. */
export function notesFor(input: NoteInput): string[] {
  const notes: string[] = [];
  if (input.failed !== undefined) notes.push(`Could not load the timeline: ${input.failed}`);
  if (input.loading) notes.push(`Loading… ${plural(input.events, 'event')} so far`);
  if (input.dropped.length > 0) {
    const total = input.dropped.reduce((sum, d) => sum + d.count, 0);
    const sorted = [...input.dropped].sort((a, b) => b.count - a.count);
    const head = `kept the newest ${formatCount(input.capacity)} events; `;
    if (sorted.length === 1) {
      const d = sorted[0] as DroppedEvents;
      notes.push(`${head}${plural(d.count, 'older event')} of ${laneKeyTitle(d.lane)} dropped, complete after ${formatPoint(d.throughT, input.clock)}`);
    } else {
      const named = sorted.slice(0, 3).map((d) => `${laneKeyTitle(d.lane)} complete after ${formatPoint(d.throughT, input.clock)}`);
      const more = sorted.length > 3 ? `, ${formatCount(sorted.length - 3)} more` : '';
      notes.push(`${head}${plural(total, 'older event')} of ${formatCount(sorted.length)} lanes dropped: ${named.join(', ')}${more}`);
    }
  }
  if (input.skipped > 0) {
    const first = input.problems.slice(0, 3).map((p) => `line ${p.line}: ${excerpt(p.message, 80)}`);
    notes.push(`${plural(input.skipped, 'line')} of the file skipped${first.length > 0 ? ` (${first.join('; ')}${input.skipped > first.length ? '; …' : ''})` : ''}`);
  }
  if (input.ended) notes.push(`Session ended at ${formatPoint(input.ended.now, input.clock)}${input.ended.reason ? `: ${input.ended.reason}` : ''}`);
  return notes;
}

/** Kill markers' messages and back-off counts of a container lane (the test hooks' view). */
export function containerFacts(lane: ContainerLane): { restarts: { containerId: string; restartCount: number }[]; kills: string[]; backOff: number } {
  return {
    restarts: lane.restarts.map((r) => ({ containerId: r.containerId, restartCount: r.restartCount })),
    kills: lane.markers.filter((m) => m.reason === 'Killing').map((m) => m.message),
    backOff: lane.markers.filter((m) => m.reason === 'BackOff').length,
  };
}

