import type { ProbeType } from '../manifest';
import { clip } from '../text/sentence';
import { type Cause, type Context, cause, type ExplainedState, type Finding, sampled } from './explanation';
import { capitalized, failureKinds, ordinal, probeName, proberErrorWords, times } from './explainText';
import { type ProbeAt, probeAt, type ProbeRun, tailRun } from './explainView';
import type { AttemptLine, Cited, StatusLine } from '../history/history';
import { durationWords } from '../text/durations';

/**
 * Why a running container is (not) started and (not) ready, from its probes on the current
 * instance: the initial delay (W5 step 8, W6), start gating (W5 step 9), the consecutive runs and
 * thresholds (W7, W8), the startup budget (docs/spec/validation-rules.md §C), prober errors (P5).
 */

/** `HTTP 503 at 12:03:20, :30, :40`, `connection refused, 12 times from 12:00:10 to 12:02:00`; paused attempts said. */
export function failuresIn(context: Context, attempts: readonly Cited<AttemptLine>[]): string {
  const events = attempts.map((a) => a.event);
  const ts = events.map((e) => e.t);
  const when = ts.length <= 5 ? `at ${context.time.series(ts)}` : `${ts.length} times from ${context.time.series([ts[0] as number, ts.at(-1) as number]).replace(', ', ' to ')}`;
  const paused = events.filter((e) => e.paused).length;
  const note = paused === 0 ? '' : paused === events.length ? `; ${paused === 1 ? 'it ran' : 'all ran'} while a debugger held the app` : `; ${paused} of them while a debugger held the app`;
  return `${failureKinds(events)} ${when}${note}`;
}

/** `readiness failed 3 times in a row (HTTP 503 at 12:03:20, :30, :40; failureThreshold 3)`. */
export function failedInARow(context: Context, type: ProbeType, attempts: readonly Cited<AttemptLine>[], failureThreshold: number): string {
  return `${probeName(type)} failed ${inARow(attempts.length)} (${failuresIn(context, attempts)}; failureThreshold ${failureThreshold})`;
}

/** `once`, `twice in a row`, `3 times in a row`. */
function inARow(n: number): string {
  return n === 1 ? 'once' : `${times(n)} in a row`;
}

/**
 * `it started at 12:00:05`: the current instance's start. Where kills are only reported (a local
 * run) a later instance is the restart the kubelet would have made: the process ran on.
 */
function startedWords(context: Context): string {
  const at = context.time.at(context.view.instance?.startedAt ?? 0);
  return wouldBeRestart(context) ? `the kubelet would have restarted it at ${at}` : `it started at ${at}`;
}

/** `the container's start at 12:00:05`, or `the restart the kubelet would have made at 12:00:35`. */
function startNoun(context: Context): string {
  const at = context.time.at(context.view.instance?.startedAt ?? 0);
  return wouldBeRestart(context) ? `the restart the kubelet would have made at ${at}` : `the container's start at ${at}`;
}

function wouldBeRestart(context: Context): boolean {
  return context.kills === 'reported' && context.view.instances.length > 1;
}

/** Running, its startupProbe not passed: before the first attempt, within its budget, or never probed. */
export function notStarted(context: Context): Finding {
  const startup = probeAt(context.view, 'startup');
  if (!startup) return { state: 'not-started', sentence: 'Not started yet.', causes: [cause('not-started', 'The container runs but is not started yet.', [context.view.status])] };
  const run = tailRun(startup.attempts);
  if (!run) return beforeFirstAttempt(context, startup, 'not-started');
  if (run.result === 'Success') return waitingForStartup(context, startup);
  return startupBudget(context, startup, run);
}

function startupBudget(context: Context, startup: ProbeAt, run: ProbeRun): Finding {
  const { initialDelaySeconds: d, periodSeconds: p, failureThreshold: f } = startup.worker.event;
  const startedAt = context.view.instance?.startedAt ?? 0;
  const last = run.attempts.at(-1)?.event as AttemptLine;
  const k = run.attempts.length;
  const budget = d + f * p;
  const killAt = last.t + Math.max(0, f - k) * p;
  // Where Probe Lens does not carry kills out, the kill is the kubelet's to make.
  const kill = context.kills === 'carried-out' ? `it will be killed at ${context.time.at(killAt)}` : `the kubelet would kill it at ${context.time.at(killAt)}`;
  const sentence = `Not started: startupProbe has used ${durationWords(last.t - startedAt)} of its ${durationWords(budget)} budget (${k}/${f} failures); ${kill} if it keeps failing.`;
  const text = `startupProbe failed ${inARow(k)} (${failuresIn(context, run.attempts)}); its budget is initialDelaySeconds ${d} + failureThreshold ${f} × periodSeconds ${p} = ${budget} s from ${startNoun(context)}, and readiness and liveness wait until it succeeds.`;
  return { state: 'not-started', sentence, causes: [cause('startup-budget', text, [startup.worker, ...sampled(run.attempts), context.view.status])] };
}

function waitingForStartup(context: Context, startup: ProbeAt): Finding {
  const sentence = `Not started: startupProbe has not passed yet on this container (${startedWords(context)}); readiness and liveness wait until it succeeds.`;
  const text = `Until its startupProbe succeeds a container is not started, and its readiness and liveness probes do not run (W5 step 9): it is Not Ready, and liveness cannot restart it.`;
  return { state: 'not-started', sentence, causes: [cause('waiting-for-startup', text, [startup.worker, context.view.instance?.started, context.view.status])] };
}

/** No counted attempt yet: every one errored (never probed), the initial delay, or simply not yet. */
function beforeFirstAttempt(context: Context, probe: ProbeAt, state: ExplainedState): Finding {
  if (probe.attempts.length > 0) return neverProbed(context, probe, state);
  const { initialDelaySeconds: d, periodSeconds: p } = probe.worker.event;
  const startedAt = context.view.instance?.startedAt ?? 0;
  const head = state === 'not-started' ? 'Not started' : 'Not Ready';
  if (context.view.at < startedAt + d) {
    const sentence = `${head}: ${probeName(probe.type)} waits out its initialDelaySeconds (${durationWords(d)}, until ${context.time.at(startedAt + d)}) before its first attempt.`;
    const text = `initialDelaySeconds counts from ${startNoun(context)} (W6); no attempt runs before it (W5 step 8).`;
    return { state, sentence, causes: [cause('initial-delay', text, [probe.worker, context.view.instance?.started])] };
  }
  if (probe.type === 'startup') return waitingForStartup(context, probe);
  const sentence = `Not Ready: readiness has not run yet on this container (${startedWords(context)}; periodSeconds ${p}).`;
  const text = `A new container is Not Ready until its readiness probe succeeds (W2); its first attempt comes on the worker's next tick.`;
  return { state, sentence, causes: [cause('waiting-for-readiness', text, [probe.worker, context.view.instance?.started, context.view.status])] };
}

/** Every attempt errored: a prober error is discarded (P5), so the probe never counts. */
export function neverProbed(context: Context, probe: ProbeAt, state: ExplainedState): Finding {
  const last = probe.attempts.at(-1)?.event as AttemptLine;
  const words = proberErrorWords(probe.type, last.error ?? '');
  const sentence = `Never probed: ${words} (prober error, discarded each period).`;
  return { state, sentence, causes: [neverProbedCause(context, probe)] };
}

function neverProbedCause(context: Context, probe: ProbeAt): Cause {
  const last = probe.attempts.at(-1)?.event as AttemptLine;
  const consequence = probe.type === 'readiness' ? 'it stays Not Ready' : probe.type === 'startup' ? 'it never starts' : 'liveness can never restart it';
  const text = `Every ${probe.type} attempt on this container errored (${times(probe.attempts.length)}, the last at ${context.time.at(last.t)}: ${clip(last.error ?? '', 100)}); the kubelet discards a prober error without counting it (P5), so ${consequence}.`;
  return cause('never-probed-prober-error', text, [probe.worker, ...sampled(probe.attempts)]);
}

/** Started, not Ready: what readiness did on this instance. */
export function notReady(context: Context): Finding {
  const readiness = probeAt(context.view, 'readiness');
  if (!readiness) return context.view.container.probes.size === 0 ? initRunning(context) : { state: 'not-ready', sentence: 'Not Ready.', causes: [cause('not-ready', 'It is started and not Ready.', [context.view.status])] };
  const run = tailRun(readiness.attempts);
  if (!run) return beforeFirstAttempt(context, readiness, 'not-ready');
  const { successThreshold: s, failureThreshold: f } = readiness.worker.event;
  if (run.result === 'Success') {
    const k = run.attempts.length;
    const sentence = `Not Ready: readiness succeeded ${k === 1 ? 'once' : `${times(k)} in a row`} (at ${context.time.series(run.attempts.map((a) => a.event.t))}), and its successThreshold is ${s}: ${s - k === 1 ? 'one more success makes' : `${s - k} more in a row make`} it Ready.`;
    const text = `successThreshold counts consecutive successes (W7): the result turns Success only at the ${ordinal(s)} in a row.`;
    return { state: 'not-ready', sentence, causes: [cause('success-threshold', text, [readiness.worker, ...sampled(run.attempts), context.view.status])] };
  }
  const turned = [...readiness.results].reverse().find((r) => r.event.value === 'Failure');
  const wasReady = readiness.results.some((r) => r.event.value === 'Success');
  if (wasReady && turned) return readinessFailing(context, readiness, run, turned.event.t);
  const succeededOnce = readiness.attempts.some((a) => a.event.error === undefined && a.event.outcome !== 'failure' && a.event.outcome !== 'unknown');
  const sentence = succeededOnce
    ? `Not Ready: readiness has not reached its successThreshold ${s} on this container yet; it then failed ${times(run.attempts.length)} (${failuresIn(context, run.attempts)}).`
    : `Not Ready: readiness has not succeeded on this container yet: it failed ${times(run.attempts.length)} (${failuresIn(context, run.attempts)}).`;
  const text = `A new container is Not Ready until readiness succeeds ${s === 1 ? 'once' : `${s} times in a row`} (W2, successThreshold ${s}); failureThreshold ${f} matters only once it has been Ready.`;
  return { state: 'not-ready', sentence, causes: [cause('readiness-not-yet', text, [readiness.worker, ...sampled(run.attempts), context.view.status])] };
}

/** Started, not Ready, without a probe: a plain init container at work (S3). */
function initRunning(context: Context): Finding {
  const instance = context.view.instance;
  const sentence = `Running since ${context.time.at(instance?.startedAt ?? context.view.at)}: an init container counts as ready only once it has completed (exit 0).`;
  return { state: 'not-ready', sentence, causes: [cause('init-running', 'A plain init container is ready once it terminated with exit code 0 (S3); the containers after it wait until then (I1).', [instance?.started, context.view.status])] };
}

function readinessFailing(context: Context, readiness: ProbeAt, run: ProbeRun, since: number): Finding {
  const f = readiness.worker.event.failureThreshold;
  const result = [...readiness.results].reverse().find((r) => r.event.value === 'Failure');
  // The attempts before the result line: a failure turns the pod sync that probes again at once (W13).
  const crossing = run.attempts.filter((a) => a.index < (result?.index ?? Infinity));
  const status = statusSince(context, false);
  const sinceText = context.time.at(status?.event.t ?? since);
  if (crossing.length === 0) {
    const sentence = `Not Ready since ${sinceText}: readiness failed ${inARow(run.attempts.length)} again (${failuresIn(context, run.attempts)}) before reaching its successThreshold ${readiness.worker.event.successThreshold}.`;
    return { state: 'not-ready', sentence, causes: [cause('readiness-failing', 'A result turns Success again only after successThreshold successes in a row (W7).', [readiness.worker, ...sampled(run.attempts), result, status])] };
  }
  const more = run.attempts.length - crossing.length;
  const sentence = `Not Ready since ${sinceText}: ${failedInARow(context, 'readiness', crossing, f)}${more > 0 ? `, and ${times(more)} more since` : ''}.`;
  const text = `failureThreshold ${f} counts consecutive failures (W7): at the ${ordinal(f)} in a row the readiness result turned Failure (${context.time.at(since)}) and the container Not Ready; readiness never restarts it.`;
  return { state: 'not-ready', sentence, causes: [cause('readiness-failing', text, [readiness.worker, ...sampled(crossing), ...(more > 0 ? [run.attempts.at(-1)] : []), result, status])] };
}

/** Started and Ready: the success that made it so, or no readiness probe at all. */
export function ready(context: Context): Finding {
  const status = statusSince(context, true);
  const since = context.time.at(status?.event.t ?? context.view.at);
  const readiness = probeAt(context.view, 'readiness');
  if (!readiness) {
    const sentence = `Ready since ${since}: it has no readiness probe, so it is Ready once started.`;
    return { state: 'ready', sentence, causes: [cause('ready', 'Without a readiness probe a started, running container is Ready (S2).', [status])] };
  }
  const s = readiness.worker.event.successThreshold;
  const turned = [...readiness.results].reverse().find((r) => r.event.value === 'Success');
  const run = tailRun(readiness.attempts.filter((a) => turned !== undefined && a.event.t <= turned.event.t));
  const crossing = run?.result === 'Success' ? run.attempts.slice(-s) : [];
  const sentence = crossing.length > 0 ? `Ready since ${since}: readiness succeeded ${s > 1 ? `${times(crossing.length)} in a row ` : ''}at ${context.time.series(crossing.map((a) => a.event.t))} (successThreshold ${s}).` : `Ready since ${since}.`;
  const text = `A started container is Ready while its readiness result is Success (S2); it turned Success at ${context.time.at(turned?.event.t ?? context.view.at)}.`;
  return { state: 'ready', sentence, causes: [cause('ready', text, [readiness.worker, ...crossing, turned, status])] };
}

/** Failing, not yet at its threshold: what one or two more failures would do. */
export function belowThreshold(context: Context, type: 'readiness' | 'liveness'): Cause | undefined {
  const probe = probeAt(context.view, type);
  const run = probe && tailRun(probe.attempts);
  if (!probe || run?.result !== 'Failure') return undefined;
  const f = probe.worker.event.failureThreshold;
  const k = run.attempts.length;
  if (k >= f) return undefined;
  const left = f - k === 1 ? 'one more failure' : `${f - k} more failures in a row`;
  const next = context.time.at((run.attempts.at(-1)?.event.t ?? 0) + probe.worker.event.periodSeconds);
  const outcome = type === 'readiness' ? 'it goes Not Ready' : context.kills === 'carried-out' ? 'the kubelet kills it' : 'the kubelet would restart it';
  const text = `${capitalized(type)} failed ${k} of ${f} times in a row (${failuresIn(context, run.attempts)}): ${left} (the next attempt is due at ${next}) and ${outcome}.`;
  return cause(`${type}-below-threshold`, text, [probe.worker, ...sampled(run.attempts)]);
}

/** `startupProbe succeeded at 12:00:50 after 4 failures`: how this instance got started. */
export function startedCause(context: Context): Cause | undefined {
  const startup = probeAt(context.view, 'startup');
  const turned = startup?.results.find((r) => r.event.value === 'Success');
  if (!startup || !turned) return undefined;
  const startedAt = context.view.instance?.startedAt ?? 0;
  const before = startup.attempts.filter((a) => a.event.t <= turned.event.t);
  const failures = before.filter((a) => a.event.error === undefined && (a.event.outcome === 'failure' || a.event.outcome === 'unknown'));
  const success = before.at(-1);
  const after = failures.length === 0 ? 'at its first attempt' : `after failing ${times(failures.length)} (${failureKinds(failures.map((a) => a.event))})`;
  const text = `startupProbe succeeded at ${context.time.at(turned.event.t)}, ${durationWords(turned.event.t - startedAt)} after the container started, ${after}: from then on it is started, and readiness and liveness run (W11).`;
  return cause('started', text, [startup.worker, ...sampled(failures, 4), success, turned]);
}

/** The newest prober errors of a probe that also counted attempts: discarded, the result holds (P5). */
export function proberErrorCause(context: Context, type: ProbeType): Cause | undefined {
  const probe = probeAt(context.view, type);
  const last = probe?.attempts.at(-1);
  if (!probe || last?.event.error === undefined) return undefined;
  if (probe.attempts.every((a) => a.event.error !== undefined)) return neverProbedCause(context, probe);
  const errors: Cited<AttemptLine>[] = [];
  for (let i = probe.attempts.length - 1; i >= 0 && probe.attempts[i]?.event.error !== undefined; i--) errors.push(probe.attempts[i] as Cited<AttemptLine>);
  errors.reverse();
  const result = probe.results.at(-1)?.event.value;
  const text = `${capitalized(type)}'s latest ${errors.length === 1 ? 'attempt' : `${errors.length} attempts`} errored (${clip(last.event.error, 100)}, at ${context.time.series(errors.slice(-3).map((e) => e.event.t))}): the kubelet discards a prober error (P5), so ${type} stays ${result ?? 'as it was'}.`;
  return cause('prober-error', text, [probe.worker, ...sampled(errors)]);
}

/** The newest counted attempt passed with a warning (a 3xx, H9–H10): a success, with a `ProbeWarning`. */
export function warningCause(context: Context, type: ProbeType): Cause | undefined {
  const probe = probeAt(context.view, type);
  if (!probe) return undefined;
  let last: Cited<AttemptLine> | undefined;
  for (let i = probe.attempts.length - 1; i >= 0 && !last; i--) if (probe.attempts[i]?.event.error === undefined) last = probe.attempts[i];
  if (last?.event.outcome !== 'warning') return undefined;
  const warning = [...context.view.events].reverse().find((e) => e.event.reason === 'ProbeWarning' && e.event.probe === type);
  const text = `${capitalized(type)} passes with a warning (${clip(last.event.output || 'no output', 100)}, at ${context.time.at(last.event.t)}): the kubelet records a ProbeWarning and counts it as a success (P3).`;
  return cause('warning', text, [last, warning]);
}

/**
 * When the container last turned (not) Ready: the oldest of the newest `status` lines that say so
 * (the engine writes one per change).
 */
export function statusSince(context: Context, readyNow: boolean): Cited<StatusLine> | undefined {
  const statuses = context.view.container.statuses;
  let found: Cited<StatusLine> | undefined;
  const from = context.view.instance?.startedAt ?? 0;
  for (let i = statuses.indexOf(context.view.status as Cited<StatusLine>); i >= 0; i--) {
    const status = statuses[i] as Cited<StatusLine>;
    if (status.event.ready !== readyNow || status.event.t < from) break;
    found = status;
  }
  return found;
}
