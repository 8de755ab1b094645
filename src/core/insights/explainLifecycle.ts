import { crashLoopDelayMs } from '../engine/crashLoop';
import { killRestarts } from '../engine/eventLines';
import { type Cause, type Context, cause, type Finding, sampled } from './explanation';
import { failedInARow } from './explainProbes';
import { failureKinds, probeName, times } from './explainText';
import { containerAt, endedBy, tailRun, upTo } from './explainView';
import type { AttemptLine, Cited, ContainerLine, InstanceEnd, InstanceHistory, KubeletEventLine } from './history';
import { durationWords } from './timeFormat';

/**
 * Why a container is not simply running: what ended its instances (a failed liveness or startup
 * probe, K2; its process; its pod's deletion, A5), the back-off before the next start (B1–B3), a
 * kill under way (K3), init containers before it (I1–I4), and what its restart policy keeps down.
 */

/** `Restarted 3 times: each time liveness failed 3× (connection refused) 10–30 s after startup succeeded`, and a cause per kind of end. */
export interface RestartStory {
  readonly restarts: number;
  readonly sentence: string;
  readonly causes: readonly Cause[];
}

interface Ended {
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
  const verb = context.kills === 'reported' ? 'Would have restarted' : 'Restarted';
  // Two ends and one restart, the second waiting out its back-off: say the ends.
  const head = restarts <= 1 && ended.length > restarts ? `Stopped ${times(ended.length)}` : `${verb} ${times(restarts)}`;
  const body = told.length === 1 ? `${ended.length === 1 ? '' : 'each time '}${(told[0] as Told).clause}` : told.map((t) => `${t.clause} (${times(t.count)})`).join(', ');
  return { restarts, sentence: `${head}: ${body}`, causes: told.map((t) => t.cause) };
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
    const text = `Killed by its startupProbe ${times(ended.length)} (${killedAt}): ${ended.length === 1 ? '' : 'each time '}it failed ${rangeWords(counts, '×')} in a row (${kinds}) before the app started, reaching its failureThreshold (K2).`;
    return { clause, count: ended.length, cause: cause('startup-restarts', text, evidence) };
  }
  const hasStartup = context.view.container.probes.has('startup');
  const offsets = runs.map((r, i) => startOf(r.failures[0]?.event) - (hasStartup ? (r.startedAt ?? (ended[i] as Ended).instance.startedAt) : (ended[i] as Ended).instance.startedAt));
  const clause = `liveness failed ${rangeWords(counts, '×')} (${kinds}) ${rangeWords(offsets)} after ${hasStartup ? 'startup succeeded' : 'it started'}`;
  const text = `Killed by liveness ${times(ended.length)} (${killedAt}): ${ended.length === 1 ? '' : 'each time '}it failed ${rangeWords(counts, '×')} in a row (${kinds}), reaching its failureThreshold, and the kubelet killed the container (K2)${context.kills === 'reported' ? ' (here only reported: the process runs on)' : ''}.`;
  return { clause, count: ended.length, cause: cause('liveness-restarts', text, evidence) };
}

interface KillingRun {
  readonly failures: readonly Cited<AttemptLine>[];
  /** When the instance counted as started (its startupProbe's success), if it did. */
  readonly startedAt: number | undefined;
}

/** The failures in a row that made the kubelet kill an instance. */
function killingRun(ended: Ended, probe: 'liveness' | 'startup'): KillingRun {
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
  return { restarts, sentence: `Restarted ${times(restarts)} by the cluster`, causes: [cause('cluster-restarts', text, [...context.view.instances.slice(1).map((i) => i.started), ...settled])] };
}

/** Waiting out CrashLoopBackOff (B2): how long, until when, after which restarts. */
export function backOff(context: Context): Finding {
  const { view, time } = context;
  const waiting = view.state as Cited<ContainerLine>;
  const delayMs = crashLoopDelayMs(waiting.event.message ?? '');
  const last = [...view.instances].reverse().find((i) => endedBy(i, view.at));
  const finishedAt = last?.end?.terminated.event.t;
  const until = delayMs !== undefined && finishedAt !== undefined ? finishedAt + delayMs / 1000 : undefined;
  const delay = delayMs === undefined ? undefined : durationWords(delayMs / 1000);
  const wait = delay === undefined ? 'now waiting out its back-off' : until === undefined ? `now waiting out back-off (${delay})` : `now waiting out back-off (${delay}, until ${time.at(until)})`;
  const story = restartStory(context);
  const backOffEvent = [...view.events].reverse().find((e) => e.event.reason === 'BackOff');
  const text = `CrashLoopBackOff: the kubelet restarts a container that keeps ending only after a back-off since its last exit${finishedAt !== undefined ? ` (${time.at(finishedAt)})` : ''}: 10 s, then doubling up to 5 min; 10 min without an exit resets it (B2, B3).`;
  const backOffCause = cause('back-off', text, [last?.end?.terminated, waiting, backOffEvent]);
  const sentence = story ? `${story.sentence}; ${wait}.` : `CrashLoopBackOff: ${wait}.`;
  return { state: 'back-off', sentence, causes: [...(story?.causes ?? []), backOffCause] };
}

/** A `Killing` for a failed probe on the running instance: the grace period runs (K3). */
export function killing(context: Context, event: Cited<KubeletEventLine>): Finding {
  const { view, time } = context;
  const probe = event.event.probe === 'startup' ? 'startup' : 'liveness';
  const attempts = view.instance?.attempts.get(probe) ?? [];
  const run = tailRun(attempts.slice(0, upTo(attempts, event.event.t)));
  const failures = run?.result === 'Failure' ? run.attempts : [];
  const threshold = lastWorker(context, probe)?.event.failureThreshold ?? failures.length;
  const restarts = killRestarts(event.event.message);
  const head = !restarts ? `Stopping since ${time.at(event.event.t)}` : context.kills === 'reported' ? 'Would restart now' : `Restarting since ${time.at(event.event.t)}`;
  const why = failures.length > 0 ? failedInARow(context, probe, failures, threshold) : `${probeName(probe)} failed`;
  const sentence = `${head}: ${why}${restarts ? '' : ', and restartPolicy Never keeps it down'}.`;
  const text =
    context.kills === 'reported'
      ? `The kubelet would kill it at ${time.at(event.event.t)} (${event.event.message}) and start it again; Probe Lens only reports it: the process runs on.`
      : `The kubelet killed it at ${time.at(event.event.t)} (${event.event.message}): SIGTERM, then its grace period to exit (K3)${restarts ? ', then it starts again' : ''}.`;
  return { state: restarts ? 'restarting' : 'stopping', sentence, causes: [cause('killing', text, [lastWorker(context, probe), ...sampled(failures), event])] };
}

/** Its pod is being deleted (A5): the grace period runs; readiness still probes, liveness and startup stop. */
export function deleting(context: Context, deletion: Cited<KubeletEventLine>): Finding {
  const stopping = [...context.view.events].reverse().find((e) => e.event.reason === 'Killing' && e.event.t >= deletion.event.t);
  const sentence = `Stopping since ${context.time.at(deletion.event.t)}: its pod is being deleted, and the container has the pod's grace period to exit.`;
  const text = `A deleted pod's containers get SIGTERM and the pod's terminationGracePeriodSeconds (K3); meanwhile readiness still probes, liveness and startup no longer do (W5 step 7).`;
  return { state: 'stopping', sentence, causes: [cause('deleting', text, [deletion, stopping])] };
}

/** Terminated and not started again: deleted, killed under restartPolicy Never, completed, or exited. */
export function terminated(context: Context): Finding {
  const { view, time } = context;
  const line = view.state as Cited<ContainerLine>;
  const instance = view.instance;
  const end = instance && endedBy(instance, view.at);
  const at = time.at(line.event.t);
  const story = restartStory(context);
  const earlier = story && story.restarts > 0 ? story.causes : [];
  const deletion = view.pod.deleting;
  if (deletion && deletion.event.t <= line.event.t) {
    const sentence = `Stopped at ${at}: its pod was deleted at ${time.at(deletion.event.t)}.`;
    return { state: 'terminated', sentence, causes: [cause('deleted', 'A deleted pod\'s containers are stopped within its grace period and never start again (A5, K3).', [deletion, end?.killing, line]), ...earlier] };
  }
  if (!instance || !end) {
    return { state: 'terminated', sentence: `Terminated${line.event.reason ? ` (${line.event.reason})` : ''} at ${at}.`, causes: [cause('exited', `The container ended at ${at}.`, [line])] };
  }
  const lived = durationWords(line.event.t - instance.startedAt);
  if (end.cause === 'liveness' || end.cause === 'startup') {
    const run = killingRun({ instance, end }, end.cause);
    const threshold = lastWorker(context, end.cause)?.event.failureThreshold ?? run.failures.length;
    const restarts = end.killing !== undefined && killRestarts(end.killing.event.message);
    const sentence = `Stopped at ${at}: ${failedInARow(context, end.cause, run.failures, threshold)}${restarts ? '; it starts again next' : ', and restartPolicy Never keeps it down'}.`;
    const text = `The kubelet killed it at ${time.at((end.killing ?? line).event.t)} (${end.killing?.event.message ?? 'a failed probe'}); ${restarts ? 'it is started again' : 'under restartPolicy Never a killed container stays down'} (K2).`;
    return { state: 'terminated', sentence, causes: [cause('killed', text, [lastWorker(context, end.cause), ...sampled(run.failures), end.killing, line]), ...earlier] };
  }
  const exitCode = (line.event as { readonly exitCode?: unknown }).exitCode;
  if (line.event.reason === 'Completed') {
    const sentence = `Completed at ${at}: its process exited with code 0 after ${lived}, and it is not restarted.`;
    return { state: 'completed', sentence, causes: [cause('completed', 'A container that succeeded is restarted only under restartPolicy Always; an init container that succeeded is done.', [instance.started, line]), ...earlier] };
  }
  const code = typeof exitCode === 'number' ? `, exit code ${exitCode}` : '';
  const sentence = `Exited at ${at}: its process ended by itself (${line.event.reason ?? 'Error'}${code}) after ${lived}, and restartPolicy Never keeps it down.`;
  return { state: 'terminated', sentence, causes: [cause('exited', 'The kubelet did not kill it: its process ended. Only restartPolicy Never leaves a failed container down.', [instance.started, line]), ...earlier] };
}

/** Waiting for init containers (I1–I4): the one at work, backing off, or failed for good. */
export function initializing(context: Context): Finding {
  const { view, time } = context;
  const waiting = view.state as Cited<ContainerLine>;
  const deletion = view.pod.deleting;
  if (deletion && deletion.event.t <= view.at) {
    const sentence = `Never starts: its pod is being deleted since ${time.at(deletion.event.t)}, before its init containers completed.`;
    return { state: 'initializing', sentence, causes: [cause('deleting', 'A deleted pod starts no more containers (A5).', [waiting, deletion])] };
  }
  let blocker: { name: string; firstStart: number } | undefined;
  for (const other of view.pod.containers.values()) {
    const first = other.instances[0];
    if (other.name === view.container.name || !first || first.startedAt > view.at) continue;
    const state = other.states[upTo(other.states, view.at) - 1];
    if (state?.event.reason === 'PodInitializing') continue;
    if (!blocker || first.startedAt >= blocker.firstStart) blocker = { name: other.name, firstStart: first.startedAt };
  }
  const other = blocker && containerAt(view.history, view.pod.name, blocker.name, view.at);
  const state = other?.state;
  if (!other || !state) {
    return { state: 'initializing', sentence: 'Waiting for the pod\'s init containers.', causes: [cause('init-containers', 'App containers start once every init container has completed (or, for a sidecar, started).', [waiting])] };
  }
  const name = `\`${other.container.name}\``;
  const lines = [waiting, other.instance?.started, state];
  const text = 'Init containers run one at a time, in order; app containers start once every one has completed (a sidecar: once started) (I1–I4).';
  if (state.event.state === 'terminated' && state.event.reason !== 'Completed') {
    const sentence = `Never starts: init container ${name} exited with an error at ${time.at(state.event.t)}, and restartPolicy Never does not restart it: the pod failed.`;
    return { state: 'initializing', sentence, causes: [cause('init-failed', 'Under restartPolicy Never a failed init container fails the pod (I3).', lines)] };
  }
  let clause: string;
  if (state.event.state === 'waiting' && state.event.reason === 'CrashLoopBackOff') {
    const delayMs = crashLoopDelayMs(state.event.message ?? '');
    const ended = other.instances.filter((i) => endedBy(i, view.at));
    const finishedAt = ended.at(-1)?.end?.terminated.event.t;
    const until = delayMs === undefined || finishedAt === undefined ? '' : `, until ${time.at(finishedAt + delayMs / 1000)}`;
    clause = `it failed ${times(ended.length)} and waits out back-off${delayMs === undefined ? '' : ` (${durationWords(delayMs / 1000)}${until})`}`;
  } else if (state.event.state === 'terminated') clause = `it completed at ${time.at(state.event.t)}`;
  else if (other.status && !other.status.event.started) clause = `it runs since ${time.at(other.instance?.startedAt ?? state.event.t)} but has not started yet (its startupProbe has not succeeded)`;
  else {
    const failures = other.instances.filter((i) => endedBy(i, view.at)).length;
    const since = time.at(other.instance?.startedAt ?? state.event.t);
    clause = failures === 0 ? `it has been running since ${since}` : `it failed ${times(failures)}, and runs again since ${since}`;
  }
  return { state: 'initializing', sentence: `Waiting for init container ${name}: ${clause}.`, causes: [cause('init-containers', text, [...lines, other.status])] };
}

/** Waiting for another reason (a cluster's `ContainerCreating`, `ImagePullBackOff` …). */
export function waitingOther(context: Context): Finding {
  const line = context.view.state as Cited<ContainerLine>;
  const reason = line.event.reason;
  const sentence = `Waiting${reason ? ` (${reason})` : ''} since ${context.time.at(line.event.t)}${line.event.message ? `: ${line.event.message}` : ''}.`;
  return { state: 'waiting', sentence, causes: [cause('waiting', `The container is not running${reason ? `: ${reason}` : ''}.`, [line])] };
}

export function notCreated(context: Context): Finding {
  const worker = [...context.view.container.probes.values()][0]?.workers.find((w) => w.event.t <= context.view.at);
  return { state: 'not-created', sentence: `Not created yet: nothing was reported of it by ${context.time.at(context.view.at)}.`, causes: [cause('not-created', 'No container line names it yet: its pod has not started it.', [worker])] };
}

/** Failures of the current instance's kill, described in a sentence: for the cluster's prediction. */
export function predictedKill(context: Context, probe: 'liveness' | 'startup', at: number): string {
  const attempts = context.view.instance?.attempts.get(probe) ?? [];
  const run = tailRun(attempts.slice(0, upTo(attempts, at)));
  if (run?.result !== 'Failure') return `${probeName(probe)} failed`;
  return failedInARow(context, probe, run.attempts, lastWorker(context, probe)?.event.failureThreshold ?? run.attempts.length);
}

function lastWorker(context: Context, probe: 'liveness' | 'startup' | 'readiness') {
  const workers = context.view.container.probes.get(probe)?.workers ?? [];
  return workers[upTo(workers, context.view.at) - 1];
}

/** `at 12:00:41, :51`, or for many `from 12:00:41 to 13:47:21`. */
function moments(context: Context, ts: readonly number[]): string {
  if (ts.length <= 5) return `at ${context.time.series(ts)}`;
  return `from ${context.time.series([ts[0] as number, ts.at(-1) as number]).replace(', ', ' to ')}`;
}

/** When an attempt began (its line is written when it ends). */
function startOf(attempt: AttemptLine | undefined): number {
  return attempt ? attempt.t - attempt.durationMs / 1000 : 0;
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
