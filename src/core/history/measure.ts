import type { EngineEvent } from '../engine/events';
import type { ProbeType } from '../manifest';
import type { KillMode } from '../session/snapshot';
import { type AttemptLine, type Cited, type ContainerHistory, type InstanceEndCause, type PodHistory, pausedDuring, type RecordingHistory, type WorkerLine } from './history';
import { BurstCollector, type FailureBurst } from './bursts';
import { type Latency, latencyOf } from './latency';
import { roundSeconds } from '../text/durations';

export type { FailureBurst } from './bursts';
export type { Latency } from './latency';

/**
 * What a recording says of each probe, config aside: how fast the app answers it, how long the
 * app takes to start, and how it fails once started (docs/spec/kubelet-probes.md; docs/spec/validation-rules.md §C).
 * Attempts the kubelet would not count (a prober error, P5) and attempts a debugger held (a
 * `pause`, issue 12 §4) say nothing of the app: they are counted apart and left out of the rest.
 */

/** Of one container instance (or, where kills are only reported, of the app since the first): how long it took to answer this probe. */
export interface StartupTime {
  /** The instance; where kills are only reported, the first one, whose start is the app's. */
  readonly containerId: string;
  /** Seconds since the run began. */
  readonly startedAt: number;
  /** Seconds from its start to the end of its first successful attempt; `undefined` if none succeeded. */
  readonly seconds: number | undefined;
  /** Seconds it was watched in all: until it ended, or the recording did. */
  readonly watchedSeconds: number;
  /** Its first counted attempt already succeeded: the app answered from the start (a local app started before the session?). */
  readonly firstAttemptSucceeded: boolean;
  /** What ended it before any success: a kill (by probe), an exit, the pod's deletion; `undefined` while it ran on. */
  readonly endedBy: InstanceEndCause | undefined;
  /** A debugger paused the app between its start and its first success: the time is partly the pause's. */
  readonly paused: boolean;
}

/** The config a probe ran with (its newest worker line). */
export interface RecordedConfig {
  readonly initialDelaySeconds: number;
  readonly periodSeconds: number;
  readonly timeoutSeconds: number;
  readonly successThreshold: number;
  readonly failureThreshold: number;
}

export interface ProbeMeasurement {
  /** As the recording names them. */
  readonly pod: string;
  readonly container: string;
  readonly probe: ProbeType;
  /** The newest config it ran with, `undefined` if the recording has no worker line for it. */
  readonly config: RecordedConfig | undefined;
  /** Every attempt recorded. */
  readonly attempts: number;
  /** Left out: prober errors (P5: not counted by the kubelet either) and attempts a debugger held. */
  readonly proberErrors: number;
  readonly paused: number;
  /** Of the attempts that got an answer (a timeout is none). */
  readonly latency: Latency | undefined;
  /** Failed attempts that ran out of timeoutSeconds. */
  readonly timeouts: number;
  /** Of those, the ones after the probe first succeeded: an app that answered before (not one still starting: G2's dial waits out the deadline). */
  readonly timeoutsAfterStart: number;
  /** Per instance (where kills are only reported: one, since the first instance's start). */
  readonly startup: readonly StartupTime[];
  /** Failed attempts after the probe first succeeded (in the same instance). */
  readonly failuresAfterStart: number;
  /** Runs of consecutive failures after the first success, in order. */
  readonly bursts: readonly FailureBurst[];
  /** The longest of them by failing time (an unknown length counts with what was seen). */
  readonly longestBurst: FailureBurst | undefined;
  /** Counted attempts after the first success: how much the burst figures rest on. */
  readonly attemptsAfterStart: number;
  readonly instances: number;
  /** From the first attempt's start to the last one's end, seconds since the run began. */
  readonly span: { readonly from: number; readonly to: number } | undefined;
  readonly kills: KillMode;
}

export interface MeasureOptions {
  /** Only these pods (by the recording's names). */
  readonly pods?: ReadonlySet<string>;
}

/** Every probe of every container of the recording, in the order the recording names them. */
export function measureRecording(history: RecordingHistory, options: MeasureOptions = {}): ProbeMeasurement[] {
  const out: ProbeMeasurement[] = [];
  for (const pod of history.pods.values()) {
    if (options.pods && !options.pods.has(pod.name)) continue;
    for (const container of pod.containers.values()) {
      for (const type of container.probes.keys()) out.push(measureProbe(history, pod, container, type));
    }
  }
  return out;
}

/** The manifest pod each recording pod stands for: itself, or in a cluster run with `--all-pods` the one its `target` line names. */
export function manifestPodNames(events: readonly EngineEvent[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const event of events) if (event.type === 'target') names.set(event.pod, event.manifestPod);
  return names;
}

/** What one attempt says of the app. */
export type AttemptVerdict = 'success' | 'failure' | 'error' | 'paused';

export function attemptVerdict(pod: PodHistory, attempt: AttemptLine): AttemptVerdict {
  if (attempt.paused === true || pausedDuring(pod, attemptStart(attempt), attempt.t)) return 'paused';
  if (attempt.error !== undefined || attempt.outcome === 'unknown') return 'error';
  return attempt.outcome === 'failure' ? 'failure' : 'success';
}

/** When an attempt began: its line is written when it ends. */
export function attemptStart(attempt: AttemptLine): number {
  return attempt.t - attempt.durationMs / 1000;
}

/** The probers' words for running out of time (http.ts, tcp.ts, grpc.ts, exec's E4). */
const TIMEOUT_OUTPUT = /deadline exceeded|timed out|timeout/i;

export function isTimeout(attempt: AttemptLine): boolean {
  return attempt.outcome === 'failure' && TIMEOUT_OUTPUT.test(attempt.output);
}

/**
 * The attempts that follow one another for the app's start-up: each instance's own where
 * instances are real (a simulation's kills, a cluster's restarts); where kills are only reported
 * (a local session) the process ran on through them, so all its attempts are one stream from the
 * first instance's start.
 */
interface AttemptStream {
  readonly containerId: string;
  readonly startedAt: number;
  readonly attempts: readonly Cited<AttemptLine>[];
  readonly endedBy: InstanceEndCause | undefined;
  /** When it stopped being watched: its end, or the recording's. */
  readonly until: number;
}

function streamsOf(history: RecordingHistory, container: ContainerHistory, type: ProbeType): AttemptStream[] {
  const first = container.instances[0];
  if (history.kills === 'reported' || container.instances.length === 0) {
    const attempts = container.probes.get(type)?.attempts ?? [];
    const startedAt = first?.startedAt ?? (attempts[0] ? attemptStart(attempts[0].event) : 0);
    return [{ containerId: first?.containerId ?? attempts[0]?.event.containerId ?? '', startedAt, attempts, endedBy: undefined, until: history.end }];
  }
  return segmentsOf(history, container, type);
}

/**
 * Each instance's attempts: the runs a failure burst cannot cross. Even where the app ran on
 * through a reported kill, no attempt is made while the kubelet waits out the kill's grace period,
 * so what the app did then is not known.
 */
function segmentsOf(history: RecordingHistory, container: ContainerHistory, type: ProbeType): AttemptStream[] {
  if (container.instances.length === 0) return streamsOf(history, container, type);
  return container.instances.map((instance) => ({
    containerId: instance.containerId,
    startedAt: instance.startedAt,
    attempts: instance.attempts.get(type) ?? [],
    endedBy: instance.end?.cause,
    until: instance.end?.terminated.event.t ?? history.end,
  }));
}

/** The line index of the probe's first successful attempt, if any. */
function firstSuccessIndex(pod: PodHistory, attempts: readonly Cited<AttemptLine>[]): number | undefined {
  return attempts.find(({ event }) => attemptVerdict(pod, event) === 'success')?.index;
}

function measureProbe(history: RecordingHistory, pod: PodHistory, container: ContainerHistory, type: ProbeType): ProbeMeasurement {
  const probe = container.probes.get(type);
  const all = probe?.attempts ?? [];
  const counts = { error: 0, paused: 0 };
  const answeredMs: number[] = [];
  let timeouts = 0;
  for (const { event } of all) {
    const verdict = attemptVerdict(pod, event);
    if (verdict === 'error' || verdict === 'paused') counts[verdict]++;
    else if (isTimeout(event)) timeouts++;
    else answeredMs.push(event.durationMs);
  }
  const kills = container.events.filter((e) => e.event.reason === 'Killing' && e.event.probe === type).map((e) => e.event.t);
  const startup = streamsOf(history, container, type).map((stream) => startupOf(pod, stream));
  const bursts: FailureBurst[] = [];
  let attemptsAfterStart = 0;
  let timeoutsAfterStart = 0;
  // Where kills are only reported the app answered once for all its instances; elsewhere each instance starts afresh.
  const appStartedAt = history.kills === 'reported' ? firstSuccessIndex(pod, all) : undefined;
  const periodSeconds = lastConfig(probe?.workers)?.periodSeconds;
  for (const segment of segmentsOf(history, container, type)) {
    const collector = new BurstCollector({ probe: type, endedBy: segment.endedBy, kills, periodSeconds });
    let started = false;
    for (const { index, event } of segment.attempts) {
      const verdict = attemptVerdict(pod, event);
      // Up to and including the first success, the attempts are the start-up's.
      if (!started) {
        started = appStartedAt !== undefined ? index > appStartedAt : verdict === 'success';
        if (appStartedAt === undefined || index <= appStartedAt) continue;
      }
      if (verdict === 'success' || verdict === 'failure') attemptsAfterStart++;
      if (verdict === 'failure' && isTimeout(event)) timeoutsAfterStart++;
      collector.add(event, verdict);
    }
    for (const burst of collector.finish()) bursts.push(burst);
  }
  const first = all[0]?.event;
  const last = all.at(-1)?.event;
  return {
    pod: pod.name,
    container: container.name,
    probe: type,
    config: lastConfig(probe?.workers),
    attempts: all.length,
    proberErrors: counts.error,
    paused: counts.paused,
    latency: latencyOf(answeredMs),
    timeouts,
    timeoutsAfterStart,
    startup,
    failuresAfterStart: bursts.reduce((n, b) => n + b.failures, 0),
    bursts,
    longestBurst: bursts.reduce<FailureBurst | undefined>((longest, b) => (!longest || b.seconds > longest.seconds ? b : longest), undefined),
    attemptsAfterStart,
    instances: container.instances.length,
    span: first && last ? { from: attemptStart(first), to: last.t } : undefined,
    kills: history.kills,
  };
}

function startupOf(pod: PodHistory, stream: AttemptStream): StartupTime {
  let first: AttemptVerdict | undefined;
  let success: AttemptLine | undefined;
  for (const { event } of stream.attempts) {
    const verdict = attemptVerdict(pod, event);
    if (verdict !== 'success' && verdict !== 'failure') continue;
    first ??= verdict;
    if (verdict === 'success') {
      success = event;
      break;
    }
  }
  return {
    containerId: stream.containerId,
    startedAt: stream.startedAt,
    seconds: success ? roundSeconds(success.t - stream.startedAt) : undefined,
    watchedSeconds: roundSeconds(stream.until - stream.startedAt),
    firstAttemptSucceeded: first === 'success',
    endedBy: success ? undefined : stream.endedBy,
    paused: pausedDuring(pod, stream.startedAt, success ? success.t : stream.until),
  };
}

function lastConfig(workers: readonly Cited<WorkerLine>[] | undefined): RecordedConfig | undefined {
  const worker = workers?.at(-1)?.event;
  if (!worker) return undefined;
  const { initialDelaySeconds, periodSeconds, timeoutSeconds, successThreshold, failureThreshold } = worker;
  return { initialDelaySeconds, periodSeconds, timeoutSeconds, successThreshold, failureThreshold };
}
