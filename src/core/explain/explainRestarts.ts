import type { KillMode } from '../session/snapshot';
import { type Cause, type Context, cause, sampled } from './explanation';
import { failureKinds, times } from './explainText';
import { endedBy, tailRun, upTo } from './explainView';
import type { AttemptLine, Cited, InstanceEnd, InstanceHistory, PredictionLine } from '../history/history';
import { attemptStart } from '../history/measure';
import { durationWords } from '../text/durations';

/**
 * What ended a container's instances, told as one story: killed by a failed liveness or startup
 * probe (K2), its process exiting, or (in a cluster) stopped by the cluster for a reason it does
 * not give; carried out, only reported (a local run: the process runs on), or the cluster's own.
 */

/** `Restarted 3 times: each time liveness failed 3× (connection refused) 10–30 s after startup succeeded`, and a cause per kind of end. */
export interface RestartStory {
  readonly restarts: number;
  readonly sentence: string;
  readonly causes: readonly Cause[];
}

export interface Ended {
  readonly instance: InstanceHistory;
  readonly end: InstanceEnd;
}

/**
 * The instances that ended by `at` (not by their pod's deletion), told by what ended them.
 * `restarts` counts the starts that followed an end (the kubelet's restartCount).
 */
export function restartStory(context: Context): RestartStory | undefined {
  const { view } = context;
  const ended: Ended[] = [];
  for (const instance of view.instances) {
    const end = endedBy(instance, view.at);
    if (end && end.cause !== 'deletion') ended.push({ instance, end });
  }
  const restarts = Math.max(0, view.instances.length - 1);
  if (ended.length === 0) return restarts > 0 ? clusterRestarts(context, restarts) : undefined;
  const groups = (['liveness', 'startup', 'exit'] as const).map((kind) => ({ kind, ended: ended.filter((e) => (kind === 'exit' ? e.end.cause === 'exit' : e.end.cause === kind)) })).filter((g) => g.ended.length > 0);
  const told = groups.map((group) => tellGroup(context, group.kind, group.ended));
  // Two ends and one restart, the second waiting out its back-off: say the ends.
  const head = restarts <= 1 && ended.length > restarts ? endsHead(context.kills, ended.length) : restartsHead(context.kills, restarts);
  const body = told.length === 1 ? `${ended.length === 1 ? '' : 'each time '}${(told[0] as Told).clause}` : told.map((t) => `${t.clause} (${times(t.count)})`).join(', ');
  return { restarts, sentence: `${head}: ${body}`, causes: told.map((t) => t.cause) };
}

/** `Stopped twice`; where kills are only reported `Would have been killed twice`; in a cluster `Stopped twice by the cluster`. */
function endsHead(kills: KillMode, ends: number): string {
  if (kills === 'reported') return `Would have been killed ${times(ends)}`;
  return `Stopped ${times(ends)}${kills === 'cluster' ? ' by the cluster' : ''}`;
}

/** `Restarted twice`; `Would have restarted twice`; `Restarted twice by the cluster`. */
function restartsHead(kills: KillMode, restarts: number): string {
  if (kills === 'reported') return `Would have restarted ${times(restarts)}`;
  return `Restarted ${times(restarts)}${kills === 'cluster' ? ' by the cluster' : ''}`;
}

/** Where kills are only reported (a local run), what became of them. */
export function onlyReported(kills: number): string {
  return `Probe Lens only reported ${kills === 1 ? 'the kill' : 'the kills'}: the process runs on`;
}

interface Told {
  readonly clause: string;
  readonly count: number;
  readonly cause: Cause;
}

function tellGroup(context: Context, kind: 'liveness' | 'startup' | 'exit', ended: readonly Ended[]): Told {
  const killedAt = moments(context, ended.map((e) => (e.end.killing ?? e.end.terminated).event.t));
  // A day of crash loops cites its first ends and its last, not every one.
  const cited = sampled(ended, 4);
  // A cluster's ends come from what it reports, which does not say why: never our kill.
  if (kind === 'exit' && context.kills === 'cluster') return tellClusterStops(context, ended, killedAt);
  if (kind === 'exit') {
    const lived = ended.map((e) => e.end.terminated.event.t - e.instance.startedAt);
    const reasons = [...new Set(ended.map((e) => e.end.terminated.event.reason ?? 'Error'))].join(', ');
    const clause = `its process exited by itself (${reasons}) ${rangeWords(lived)} after it started`;
    const text = `Its process exited by itself ${times(ended.length)} (${killedAt}): the kubelet restarts a container that exits under restartPolicy Always, or OnFailure after a failure, waiting out its back-off from the second restart on (B2).`;
    return { clause, count: ended.length, cause: cause('exit-restarts', text, cited.flatMap((e) => [e.instance.started, e.end.terminated])) };
  }
  const runs = ended.map((e) => killingRun(e, kind));
  const failures = runs.flatMap((r) => r.failures.map((f) => f.event));
  const counts = runs.map((r) => r.failures.length);
  const kinds = failureKinds(failures);
  const evidence = cited.flatMap((e) => [e.end.killing, ...sampled((runs[ended.indexOf(e)] as KillingRun).failures, 4), e.end.terminated]);
  if (kind === 'startup') {
    const worker = lastWorker(context, 'startup')?.event;
    const budget = worker ? ` ${durationWords(worker.initialDelaySeconds + worker.failureThreshold * worker.periodSeconds)}` : '';
    const clause = `startupProbe failed ${rangeWords(counts, '×')} (${kinds}), using up its${budget} budget`;
    const failed = `${ended.length === 1 ? '' : 'each time '}it failed ${rangeWords(counts, '×')} in a row (${kinds}) before the app started, reaching its failureThreshold (K2)`;
    const text =
      context.kills === 'reported'
        ? `Its startupProbe would have killed it ${times(ended.length)} (${killedAt}): ${failed}; ${onlyReported(ended.length)}.`
        : `Killed by its startupProbe ${times(ended.length)} (${killedAt}): ${failed}.`;
    return { clause, count: ended.length, cause: cause('startup-restarts', text, evidence) };
  }
  const hasStartup = context.view.container.probes.has('startup');
  const offsets = runs.map((r, i) => (r.failures[0] ? attemptStart(r.failures[0].event) : 0) - (hasStartup ? (r.startedAt ?? (ended[i] as Ended).instance.startedAt) : (ended[i] as Ended).instance.startedAt));
  const clause = `liveness failed ${rangeWords(counts, '×')} (${kinds}) ${rangeWords(offsets)} after ${hasStartup ? 'startup succeeded' : 'it started'}`;
  const failed = `${ended.length === 1 ? '' : 'each time '}it failed ${rangeWords(counts, '×')} in a row (${kinds}), reaching its failureThreshold`;
  const text =
    context.kills === 'reported'
      ? `Liveness would have killed it ${times(ended.length)} (${killedAt}): ${failed}, at which the kubelet kills the container (K2); ${onlyReported(ended.length)}.`
      : `Killed by liveness ${times(ended.length)} (${killedAt}): ${failed}, and the kubelet killed the container (K2).`;
  return { clause, count: ended.length, cause: cause('liveness-restarts', text, evidence) };
}

interface KillingRun {
  readonly failures: readonly Cited<AttemptLine>[];
  /** When the instance counted as started (its startupProbe's success), if it did. */
  readonly startedAt: number | undefined;
}

/**
 * A cluster's ends: its container lines say an instance terminated, not why (its kubelet's kill
 * for a failed probe, or the process exiting); our confirmed predictions say where ours agreed.
 */
function tellClusterStops(context: Context, ended: readonly Ended[], stoppedAt: string): Told {
  const lived = ended.map((e) => e.end.terminated.event.t - e.instance.startedAt);
  const reasons = [...new Set(ended.map((e) => e.end.terminated.event.reason ?? 'Error'))].join(', ');
  const confirmed = confirmedFor(context, ended.map((e) => e.instance.containerId));
  const probes = [...new Set(confirmed.map((p) => p.event.probe))].join(' and ');
  const predicted = confirmed.length === 0 ? '' : confirmed.length === ended.length ? `, as our ${probes} probe predicted` : `; ${times(confirmed.length)} as our ${probes} probe predicted`;
  const clause = `it ended (${reasons}) ${rangeWords(lived)} after it started${predicted}`;
  const text = `The cluster stopped it ${times(ended.length)} (${stoppedAt}; ${reasons}): ${CLUSTER_ENDS}${confirmed.length > 0 ? `; ${times(confirmed.length)} as our probes predicted` : ''}.`;
  const lines = sampled(ended, 4).flatMap((e) => [e.instance.started, e.end.terminated]);
  return { clause, count: ended.length, cause: cause('cluster-stopped', text, [...lines, ...sampled(confirmed, 4)]) };
}

export const CLUSTER_ENDS = 'what the cluster reports does not say whether its kubelet killed it for a failed probe or its process exited';

/** Our predictions the cluster confirmed for these instances, by `view.at`. */
export function confirmedFor(context: Context, containerIds: readonly string[]): Cited<PredictionLine>[] {
  const predictions = context.view.container.predictions;
  return predictions.slice(0, upTo(predictions, context.view.at)).filter((p) => p.event.state === 'confirmed' && containerIds.includes(p.event.containerId));
}

/** The failures in a row that made the kubelet kill an instance. */
export function killingRun(ended: Ended, probe: 'liveness' | 'startup'): KillingRun {
  const killedAt = (ended.end.killing ?? ended.end.terminated).event.t;
  const attempts = ended.instance.attempts.get(probe) ?? [];
  const run = tailRun(attempts.slice(0, upTo(attempts, killedAt)));
  const startup = ended.instance.attempts.get('startup') ?? [];
  const success = startup.find((a) => a.event.error === undefined && (a.event.outcome === 'success' || a.event.outcome === 'warning'));
  return { failures: run?.result === 'Failure' ? run.attempts : [], startedAt: success?.event.t };
}

/** A cluster's kubelet restarted it (new container IDs, no kill of ours): what our predictions said. */
function clusterRestarts(context: Context, restarts: number): RestartStory {
  const settled = context.view.container.predictions.slice(0, upTo(context.view.container.predictions, context.view.at)).filter((p) => p.event.state === 'confirmed');
  const text = `The cluster's kubelet restarted it ${times(restarts)}${settled.length > 0 ? `; ${times(settled.length)} as our probes predicted` : ''}.`;
  return { restarts, sentence: restartsHead(context.kills, restarts), causes: [cause('cluster-restarts', text, [...context.view.instances.slice(1).map((i) => i.started), ...settled])] };
}

export function lastWorker(context: Context, probe: 'liveness' | 'startup' | 'readiness') {
  const workers = context.view.container.probes.get(probe)?.workers ?? [];
  return workers[upTo(workers, context.view.at) - 1];
}

/** `at 12:00:41, :51`, or for many `from 12:00:41 to 13:47:21`. */
function moments(context: Context, ts: readonly number[]): string {
  if (ts.length <= 5) return `at ${context.time.series(ts)}`;
  return `from ${context.time.series([ts[0] as number, ts.at(-1) as number]).replace(', ', ' to ')}`;
}

/** `20 s`, `10–30 s`; with `×`: `3×`, `2–3×`. */
function rangeWords(values: readonly number[], unit?: '×'): string {
  const low = Math.min(...values);
  const high = Math.max(...values);
  if (unit === '×') return low === high ? `${low}×` : `${low}–${high}×`;
  if (Math.round(low) === Math.round(high)) return durationWords(low);
  const lowWords = durationWords(low);
  const highWords = durationWords(high);
  return lowWords.endsWith(' s') && highWords.endsWith(' s') ? `${lowWords.slice(0, -2)}–${highWords}` : `${lowWords} to ${highWords}`;
}
