import { crashLoopDelayMs } from '../engine/crashLoop';
import { killRestarts } from '../engine/eventLines';
import { type Cause, type Context, cause, type Finding, sampled } from './explanation';
import { failedInARow } from './explainProbes';
import { CLUSTER_ENDS, confirmedFor, killingRun, lastWorker, onlyReported, restartStory } from './explainRestarts';
import { probeName, times } from './explainText';
import { containerAt, endedBy, tailRun, upTo } from './explainView';
import type { Cited, ContainerLine, InstanceEnd, InstanceHistory, KubeletEventLine } from '../history/history';
import { durationWords } from '../text/durations';

/**
 * Why a container is not simply running: the back-off before the next start (B1–B3), a kill
 * under way (K3), its pod's deletion (A5), how it ended and what its restart policy keeps down,
 * init containers before it (I1–I4). What ended its earlier instances: explainRestarts.ts.
 */

/** Waiting out CrashLoopBackOff (B2): how long, until when, after which restarts. */
export function backOff(context: Context): Finding {
  const { view, time } = context;
  const waiting = view.state as Cited<ContainerLine>;
  const delayMs = crashLoopDelayMs(waiting.event.message ?? '');
  const last = [...view.instances].reverse().find((i) => endedBy(i, view.at));
  const finishedAt = last?.end?.terminated.event.t;
  const until = delayMs !== undefined && finishedAt !== undefined ? finishedAt + delayMs / 1000 : undefined;
  const delay = delayMs === undefined ? undefined : durationWords(delayMs / 1000);
  const backOffWords = delay === undefined ? 'its back-off' : until === undefined ? `back-off (${delay})` : `back-off (${delay}, until ${time.at(until)})`;
  const reported = context.kills === 'reported';
  const wait = reported ? `the kubelet would now wait out ${backOffWords}` : `now waiting out ${backOffWords}`;
  const story = restartStory(context);
  const backOffEvent = [...view.events].reverse().find((e) => e.event.reason === 'BackOff');
  const since = finishedAt !== undefined ? ` (${time.at(finishedAt)})` : '';
  const text = reported
    ? `CrashLoopBackOff: the kubelet restarts a container that keeps ending only after a back-off since it last ended${since}: 10 s, then doubling up to 5 min; 10 min of running resets it (B2, B3). Here the kills were only reported: the process runs on, and its probes wait out the back-off as the kubelet's would.`
    : `CrashLoopBackOff: the kubelet restarts a container that keeps ending only after a back-off since its last exit${since}: 10 s, then doubling up to 5 min; 10 min without an exit resets it (B2, B3).`;
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
  const reported = context.kills === 'reported';
  const since = time.at(event.event.t);
  const head = reported ? (restarts ? 'Would restart now' : 'Would stop now') : restarts ? `Restarting since ${since}` : `Stopping since ${since}`;
  const why = failures.length > 0 ? failedInARow(context, probe, failures, threshold) : `${probeName(probe)} failed`;
  const keptDown = reported ? ', and restartPolicy Never would keep it down' : ', and restartPolicy Never keeps it down';
  const sentence = `${head}: ${why}${restarts ? '' : keptDown}.`;
  const text = reported
    ? `The kubelet would kill it at ${since} (${event.event.message})${restarts ? ' and start it again' : keptDown}; Probe Lens only reports it: the process runs on.`
    : `The kubelet killed it at ${since} (${event.event.message}): SIGTERM, then its grace period to exit (K3)${restarts ? ', then it starts again' : ''}.`;
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
  if (end.cause === 'liveness' || end.cause === 'startup') return killed(context, instance, end, end.cause, earlier);
  if (context.kills === 'cluster') return stoppedByCluster(context, instance, line, earlier);
  const exitCode = (line.event as { readonly exitCode?: unknown }).exitCode;
  if (line.event.reason === 'Completed') {
    const sentence = `Completed at ${at}: its process exited with code 0 after ${lived}, and it is not restarted.`;
    return { state: 'completed', sentence, causes: [cause('completed', 'A container that succeeded is restarted only under restartPolicy Always; an init container that succeeded is done.', [instance.started, line]), ...earlier] };
  }
  const code = typeof exitCode === 'number' ? `, exit code ${exitCode}` : '';
  const sentence = `Exited at ${at}: its process ended by itself (${line.event.reason ?? 'Error'}${code}) after ${lived}, and restartPolicy Never keeps it down.`;
  return { state: 'terminated', sentence, causes: [cause('exited', 'The kubelet did not kill it: its process ended. Only restartPolicy Never leaves a failed container down.', [instance.started, line]), ...earlier] };
}

/** Killed for a failed probe and not started again (yet): restartPolicy Never, or the moment before the restart. */
function killed(context: Context, instance: InstanceHistory, end: InstanceEnd, probe: 'liveness' | 'startup', earlier: readonly Cause[]): Finding {
  const { time } = context;
  const line = end.terminated;
  const at = time.at(line.event.t);
  const run = killingRun({ instance, end }, probe);
  const threshold = lastWorker(context, probe)?.event.failureThreshold ?? run.failures.length;
  const failed = failedInARow(context, probe, run.failures, threshold);
  const restarts = end.killing !== undefined && killRestarts(end.killing.event.message);
  const killedAt = time.at((end.killing ?? line).event.t);
  const message = end.killing?.event.message ?? 'a failed probe';
  let sentence: string;
  let text: string;
  if (context.kills === 'reported') {
    sentence = `Would have been stopped at ${at}: ${failed}${restarts ? '; the kubelet would start it again next' : ', and restartPolicy Never would keep it down: the process runs on, no longer probed'}.`;
    text = `The kubelet would have killed it at ${killedAt} (${message})${restarts ? ' and started it again' : ', and under restartPolicy Never it would stay down'} (K2); ${onlyReported(1)}.`;
  } else {
    sentence = `Stopped at ${at}: ${failed}${restarts ? '; it starts again next' : ', and restartPolicy Never keeps it down'}.`;
    text = `The kubelet killed it at ${killedAt} (${message}); ${restarts ? 'it is started again' : 'under restartPolicy Never a killed container stays down'} (K2).`;
  }
  return { state: 'terminated', sentence, causes: [cause('killed', text, [lastWorker(context, probe), ...sampled(run.failures), end.killing, line]), ...earlier] };
}

/** A cluster's container terminated: it says so, not why; whether it starts again is its kubelet's call. */
function stoppedByCluster(context: Context, instance: InstanceHistory, line: Cited<ContainerLine>, earlier: readonly Cause[]): Finding {
  const at = context.time.at(line.event.t);
  const lived = durationWords(line.event.t - instance.startedAt);
  const confirmed = confirmedFor(context, [instance.containerId]);
  const predicted = confirmed[0] ? `, as our ${confirmed[0].event.probe} probe predicted` : '';
  const completed = line.event.reason === 'Completed';
  const sentence = completed
    ? `Completed at ${at}: the cluster reports its process exited with code 0 after ${lived}; whether it starts again is up to the cluster's kubelet.`
    : `Stopped by the cluster at ${at} (${line.event.reason ?? 'Error'}) after ${lived}${predicted}; whether it starts again is up to the cluster's kubelet.`;
  const text = `The cluster reports it terminated at ${at} (${line.event.reason ?? 'no reason'}): ${CLUSTER_ENDS}.`;
  return { state: completed ? 'completed' : 'terminated', sentence, causes: [cause('cluster-stopped', text, [instance.started, line, ...confirmed]), ...earlier] };
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
