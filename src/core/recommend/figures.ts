import type { ProbeType } from '../manifest';
import type { KillMode } from '../session/snapshot';
import type { Latency, ProbeMeasurement, StartupTime } from '../history/measure';
import { roundSeconds } from '../text/durations';

/**
 * What the recommendations rest on, per container of the manifest: the measurements of every
 * recording pod that stands for its pod (one, or several with a cluster run's `--all-pods`),
 * folded into one worst case per figure: the counts summed, the bursts and start-ups of every pod.
 */
export interface ProbeFigures extends Pick<ProbeMeasurement, 'probe' | 'timeouts' | 'timeoutsAfterStart' | 'bursts' | 'attemptsAfterStart' | 'startup'> {
  /** The worst of the pods' figures; `answered` is their sum. */
  readonly latency: Latency | undefined;
  readonly measurements: readonly ProbeMeasurement[];
}

export function probeFigures(probe: ProbeType, measurements: readonly ProbeMeasurement[]): ProbeFigures {
  const latencies = measurements.flatMap((m) => (m.latency ? [m.latency] : []));
  const worst = (pick: (l: Latency) => number) => Math.max(...latencies.map(pick));
  return {
    probe,
    latency: latencies.length === 0 ? undefined : { answered: latencies.reduce((n, l) => n + l.answered, 0), p50Ms: worst((l) => l.p50Ms), p99Ms: worst((l) => l.p99Ms), maxMs: worst((l) => l.maxMs) },
    timeouts: measurements.reduce((n, m) => n + m.timeouts, 0),
    timeoutsAfterStart: measurements.reduce((n, m) => n + m.timeoutsAfterStart, 0),
    bursts: measurements.flatMap((m) => m.bursts),
    attemptsAfterStart: measurements.reduce((n, m) => n + m.attemptsAfterStart, 0),
    startup: measurements.flatMap((m) => m.startup),
    measurements,
  };
}

/** How long a container took to start, over its instances: or why that is not known. */
export type StartupObservation =
  | { readonly ok: true; readonly seconds: number; readonly instances: number; readonly probe: ProbeType }
  | { readonly ok: false; readonly reason: string };

/**
 * The container's start-up: per instance, the earliest first success of any of its probes (the app
 * answers; with a startupProbe, liveness and readiness only run after it succeeds), and over the
 * instances the slowest. An instance killed before it ever answered, a start-up a debugger
 * paused, or (where kills are only reported) an app that answered the very first attempt leave
 * the start-up unknown, and say why.
 */
export function observedStartup(probes: readonly ProbeFigures[], kills: KillMode): StartupObservation {
  const byInstance = new Map<string, { best: StartupTime | undefined; probe: ProbeType | undefined; all: StartupTime[] }>();
  for (const figures of probes) {
    for (const time of figures.startup) {
      const key = time.containerId;
      let entry = byInstance.get(key);
      if (!entry) byInstance.set(key, (entry = { best: undefined, probe: undefined, all: [] }));
      entry.all.push(time);
      if (time.seconds !== undefined && (entry.best?.seconds === undefined || time.seconds < entry.best.seconds)) {
        entry.best = time;
        entry.probe = figures.probe;
      }
    }
  }
  const instances = [...byInstance.values()];
  if (instances.length === 0) return { ok: false, reason: 'no container start was recorded' };
  const started = instances.filter((i) => i.best !== undefined);
  const killedEarly = instances.filter((i) => i.best === undefined && i.all.some((t) => t.endedBy === 'liveness' || t.endedBy === 'startup'));
  if (killedEarly.length > 0) {
    const watched = Math.max(...killedEarly.map((i) => Math.max(...i.all.map((t) => t.watchedSeconds))));
    const some = started.length > 0 ? `${killedEarly.length} of ${instances.length} instances` : `every instance (${instances.length})`;
    const timeouts = probes.reduce((n, p) => n + p.timeouts, 0);
    const why =
      timeouts > 0
        ? `either the app takes longer than that to start, or it answers slower than timeoutSeconds (${timeouts} attempt${timeouts === 1 ? '' : 's'} timed out): this recording cannot tell which`
        : 'the start-up takes longer than that, by how much this recording cannot tell';
    return { ok: false, reason: `${some} was killed before it ever answered (after up to ${roundSeconds(watched)} s): ${why}` };
  }
  if (started.length === 0) {
    const watched = Math.max(...instances.flatMap((i) => i.all.map((t) => t.watchedSeconds)));
    return { ok: false, reason: `the container had not answered any probe when the recording ended (${roundSeconds(watched)} s after it started)` };
  }
  if (started.every((i) => i.best?.paused)) return { ok: false, reason: 'a debugger paused the app during its start-up: the time is partly the pause\'s' };
  if (kills === 'reported' && started.some((i) => i.best?.firstAttemptSucceeded)) {
    return { ok: false, reason: 'the app already answered the first attempt: it had started before the recording began, so its start-up was not observed' };
  }
  const counted = started.filter((i) => !i.best?.paused);
  const slowest = counted.reduce((a, b) => ((b.best?.seconds ?? 0) > (a.best?.seconds ?? 0) ? b : a));
  return { ok: true, seconds: roundSeconds(slowest.best?.seconds ?? 0), instances: counted.length, probe: slowest.probe as ProbeType };
}
