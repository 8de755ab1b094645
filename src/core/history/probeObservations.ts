import type { ProbeType } from '../manifest';
import type { ScriptedOutcome } from '../scenario/scenario';
import type { AttemptLine, Cited, ContainerHistory, InstanceHistory, PodHistory, WorkerLine } from './history';
import { attemptStart, attemptVerdict } from './measure';
import { roundSeconds } from '../text/durations';

/**
 * What a recording says of an app, per probe, in seconds since its container started: each
 * attempt that reached the app, at the moment it was sent. The engine decides an attempt's outcome
 * when it starts it (and writes its line when it ends), so the start is where a scenario must put
 * the outcome for a replay to meet it again.
 */
export interface Observation {
  /** Seconds since the start of the container (since the first one's, when kills are only reported). */
  readonly at: number;
  readonly outcome: ScriptedOutcome;
  readonly durationMs: number;
  /** A failure that took the probe's whole `timeoutSeconds`: the app did not answer. */
  readonly timedOut: boolean;
}

/** A later instance saw something else than the one the timeline took that moment from. */
export interface Disagreement {
  readonly probe: ProbeType;
  /** 0-based, in the order the instances started. */
  readonly instance: number;
  /** Attempts of that instance whose outcome differs, and how many were compared. */
  readonly differing: number;
  readonly compared: number;
  /** The first of them: when, what that instance saw, and what the timeline holds. */
  readonly first: { readonly at: number; readonly saw: ScriptedOutcome; readonly kept: ScriptedOutcome };
}

/** Why attempts were left out: not the app's behaviour. */
export interface Skipped {
  /** A prober error (`error` set, `unknown`): the probe could not even be made. */
  readonly errors: number;
  /** The app was held at a breakpoint (`paused`, or inside a `pause` span). */
  readonly paused: number;
}

export interface ContainerObservations {
  /** Per probe, in time order, each moment taken from the first instance that reached it. */
  readonly probes: ReadonlyMap<ProbeType, readonly Observation[]>;
  /**
   * Per probe, each instance's outcomes in the order of its attempts — for an app that answers by
   * attempt rather than by time. Absent for a probe with attempts left out (the count would lie).
   */
  readonly sequences: ReadonlyMap<ProbeType, readonly (readonly ScriptedOutcome[])[]>;
  readonly disagreements: readonly Disagreement[];
  readonly skipped: Skipped;
  /** How far since its start each instance reached (its end, or the recording's), in start order. */
  readonly spans: readonly number[];
}

/**
 * `sinceFirstStart`: the recording's kills were only reported (a local run): the process ran on
 * through the engine's restarts, so every attempt is timed from the first instance's start.
 */
export interface ObservationOptions {
  readonly sinceFirstStart: boolean;
  /** The recording's last `t`: where an instance still running was last seen. */
  readonly end: number;
}

interface Tally {
  errors: number;
  paused: number;
}

/**
 * The app's behaviour as one timeline since its start: a restarted container replays it from 0, so
 * each moment is taken from the first instance that reached it; later instances that reached it
 * again refine when a change came, or disagree (`disagreements`).
 */
export function observeContainer(pod: PodHistory, container: ContainerHistory, options: ObservationOptions): ContainerObservations {
  const skipped: Tally = { errors: 0, paused: 0 };
  const runs = options.sinceFirstStart ? asOneProcess(container.instances) : container.instances.map((i) => ({ origin: i.startedAt, instances: [i] }));
  const merged = new Map<ProbeType, Observation[]>();
  const sequences = new Map<ProbeType, ScriptedOutcome[][]>();
  const counted = new Set<ProbeType>(container.probes.keys());
  const disagreements: Disagreement[] = [];
  const spans: number[] = [];
  let covered = 0;
  for (const [index, run] of runs.entries()) {
    const last = run.instances.at(-1) as InstanceHistory;
    const span = (last.end?.terminated.event.t ?? options.end) - run.origin;
    for (const type of container.probes.keys()) {
      const before = skipped.errors + skipped.paused;
      const seen = run.instances.flatMap((instance) => observe(pod, container, instance.attempts.get(type) ?? [], run.origin, skipped));
      if (skipped.errors + skipped.paused > before) counted.delete(type);
      let timeline = merged.get(type);
      if (!timeline) merged.set(type, (timeline = []));
      let sequence = sequences.get(type);
      if (!sequence) sequences.set(type, (sequence = []));
      if (seen.length > 0) sequence.push(seen.map((o) => o.outcome));
      const fresh = timeline.length === 0;
      const again = fresh ? [] : seen.filter((o) => o.at < covered);
      const disagreement = mergeAgain(type, index, again, timeline);
      if (disagreement) disagreements.push(disagreement);
      for (const observation of seen) if (fresh || observation.at >= covered) timeline.push(observation);
    }
    spans.push(span);
    covered = Math.max(covered, span);
  }
  for (const [type, timeline] of merged) if (timeline.length === 0) merged.delete(type);
  for (const type of sequences.keys()) if (!counted.has(type) || !merged.has(type)) sequences.delete(type);
  return { probes: merged, sequences, disagreements, skipped, spans };
}

/** The outcome a timeline holds at `at`: the latest observation by then, else the first one (it held before). */
export function outcomeAt(timeline: readonly Observation[], at: number): ScriptedOutcome | undefined {
  const after = firstAfter(timeline, at);
  return timeline[Math.max(after - 1, 0)]?.outcome;
}

/**
 * A later instance's attempts at moments the timeline already holds. One that agrees changes
 * nothing; one before the timeline's first attempt or after its last, or inside a gap whose two
 * ends differ and matching the later end, says more than the timeline did, and joins it (so a
 * step begins at the earliest attempt that saw it, whichever instance made it); any other is a
 * disagreement, counted.
 */
function mergeAgain(probe: ProbeType, instance: number, again: readonly Observation[], timeline: Observation[]): Disagreement | undefined {
  let differing = 0;
  let first: Disagreement['first'] | undefined;
  for (const observation of again) {
    const index = firstAfter(timeline, observation.at);
    const previous = timeline[index - 1];
    const next = timeline[index];
    if (previous !== undefined && previous.outcome === observation.outcome) continue;
    // Before the first attempt, or after the last, nobody had looked: the new sighting is the first.
    if (previous === undefined || next === undefined || (previous.at < observation.at && next.outcome === observation.outcome)) {
      timeline.splice(index, 0, observation);
      continue;
    }
    differing++;
    first ??= { at: observation.at, saw: observation.outcome, kept: previous.outcome };
  }
  return first === undefined ? undefined : { probe, instance, differing, compared: again.length, first };
}

/** The index of the first observation after `at` (the length if none). */
function firstAfter(timeline: readonly Observation[], at: number): number {
  let low = 0;
  let high = timeline.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((timeline[mid] as Observation).at <= at) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** A local run's instances are one process: all timed from the first start. */
function asOneProcess(instances: readonly InstanceHistory[]): { origin: number; instances: InstanceHistory[] }[] {
  const first = instances[0];
  return first === undefined ? [] : [{ origin: first.startedAt, instances: [...instances] }];
}

function observe(pod: PodHistory, container: ContainerHistory, attempts: readonly Cited<AttemptLine>[], origin: number, skipped: Tally): Observation[] {
  const out: Observation[] = [];
  for (const { index, event } of attempts) {
    const verdict = attemptVerdict(pod, event);
    if (verdict === 'error' || verdict === 'paused') {
      skipped[verdict === 'error' ? 'errors' : 'paused']++;
      continue;
    }
    const timeoutMs = workerAt(container, event.probe, index)?.event.timeoutSeconds;
    out.push({
      // Milliseconds are the engine's resolution: a time kept finer only differs by rounding noise.
      at: Math.max(0, roundSeconds(attemptStart(event) - origin)),
      outcome: verdict === 'failure' ? 'failure' : event.outcome === 'warning' ? 'warning' : 'success',
      durationMs: event.durationMs,
      timedOut: verdict === 'failure' && timeoutMs !== undefined && event.durationMs >= timeoutMs * 1000,
    });
  }
  // Attempts are written when they end: a slow one ends after a quicker one sent later.
  return out.sort((a, b) => a.at - b.at);
}

/** The probe's worker in force when the line at `index` was written: the last started before it. */
function workerAt(container: ContainerHistory, type: ProbeType, index: number): Cited<WorkerLine> | undefined {
  const workers = container.probes.get(type)?.workers ?? [];
  let found: Cited<WorkerLine> | undefined;
  for (const worker of workers) {
    if (worker.index > index) break;
    found = worker;
  }
  return found ?? workers[0];
}
