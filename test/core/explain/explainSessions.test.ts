/**
 * Why a container is in its state, in sessions: prober errors among counted attempts, a debugger
 * holding the app, a local session whose kills are only reported, a cluster's kubelet beside ours
 * (predictions, disagreements); every container of a recording; the times explanations write.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VirtualClock } from '../../../src/core/base/clock';
import type { EngineEvent } from '../../../src/core/engine/events';
import { desiredPods } from '../../../src/core/engine/manager';
import { type ObservedContainer, ObservedPodRuntime } from '../../../src/core/engine/observedPod';
import type { AttemptRequest, ProbeTarget } from '../../../src/core/engine/target';
import { VerdictComparer } from '../../../src/core/cluster/verdicts';
import { explainContainer, type Explanation, explainRecording } from '../../../src/core/explain/explain';
import { buildHistory } from '../../../src/core/history/history';
import { timeFormatFor } from '../../../src/core/history/timeFormat';
import { parseManifest } from '../../../src/core/manifest';
import { type ProbeOutcome, proberError } from '../../../src/core/probers/types';
import { runHeader } from '../../../src/core/timeline/jsonl';
import { SimulatedTarget } from '../../../src/core/targets/simulated';
import { scenario, startPod, webPod } from '../../helpers/engine';
import { sessionRun } from '../session/sessionRun';
import { assertCitesItsLines, explain, LIVENESS, LIVENESS_FAILS_AT_40, NOON, READINESS, simulated, WITH_INIT, WITH_STARTUP } from './explainRuns';

test('prober-error: the newest readiness attempts errored (P5): discarded, the container stays Ready', () => {
  // A body read that fails from the 4th readiness call on (an error, retried and then discarded, H8).
  const calls = { readiness: 0 };
  const target = (clock: VirtualClock): ProbeTarget => {
    const simulatedTarget = new SimulatedTarget(scenario(''), clock);
    return {
      attempt(request: AttemptRequest, done: (outcome: ProbeOutcome) => void) {
        if (request.type === 'readiness' && ++calls.readiness > 4) return done(proberError('read tcp 10.244.0.10:8080: connection reset by peer'));
        simulatedTarget.attempt(request, done);
      },
      dispose: () => simulatedTarget.dispose(),
    };
  };
  const clock = new VirtualClock();
  const run = startPod(webPod(READINESS), { target: target(clock) });
  run.clock.advanceTo(45_000);
  run.runtime.dispose();
  const recording = { header: runHeader({ mode: 'simulate' }), events: run.events };
  const explanation = explain(recording, 'web', 'web', 45);
  assert.equal(explanation.state, 'ready');
  assert.deepEqual(explanation.causes.map((c) => c.reason), ['ready', 'prober-error']);
  assert.equal(explanation.causes[1]?.text, "Readiness's latest attempt errored (read tcp 10.244.0.10:8080: connection reset by peer, at t+00:00:40): the kubelet discards a prober error (P5), so readiness stays Success.");
  assertCitesItsLines(recording.events, explanation);
});

test('paused: a debugger holding the app says so, and the failures it caused are marked as its', () => {
  // Liveness fails from 40 s after the start; the debugger paused the app at 38 s (the breakpoint guard's lines).
  const recording = simulated(WITH_STARTUP, LIVENESS_FAILS_AT_40, 120, true);
  const events: EngineEvent[] = [];
  for (const event of recording.events) {
    if (event.t >= 38 && !events.some((e) => e.type === 'pause')) events.push({ type: 'pause', t: 38, pod: 'web', state: 'paused', debugSession: 'Launch api' });
    events.push(event.type === 'attempt' && event.t >= 38 && event.t <= 65 ? { ...event, paused: true } : event);
  }
  const paused = { header: recording.header, events };
  const during = explain(paused, 'web', 'web', 55);
  assert.equal(during.sentence, 'Ready, but liveness failed 2 of 3 times in a row (connection refused at 12:00:40, :50; all ran while a debugger held the app): one more failure (the next attempt is due at 12:01:00) and the kubelet kills it. Paused in the debugger since 12:00:38.');
  assert.deepEqual(during.causes.map((c) => c.reason), ['liveness-below-threshold', 'ready', 'started', 'paused']);
  assert.equal(during.causes.at(-1)?.text, "A debugger (session Launch api) has held the app since 12:00:38; twice a probe failed against the paused program: the pause's failures, not the app's.");
  assertCitesItsLines(events, during);
  // Continued at 70 s: the pause is over, what it caused is still told.
  const continued = [...events];
  continued.splice(events.findIndex((e) => e.t > 70), 0, { type: 'pause', t: 70, pod: 'web', state: 'continued', debugSession: 'Launch api' });
  const after = explain({ header: recording.header, events: continued }, 'web', 'web', 75);
  assert.ok(!after.sentence.includes('Paused in the debugger'), after.sentence);
  const cause = after.causes.find((c) => c.reason === 'paused');
  assert.match(cause?.text ?? '', /^A debugger \(session Launch api\) held the app from 12:00:38 to 12:01:10; 3 times a probe failed against the paused program/);
  assertCitesItsLines(continued, after);
});

interface ReportedRow {
  readonly reason: string;
  readonly yaml: string;
  readonly scenario: string;
  readonly until: number;
  readonly at: number;
  readonly state: Explanation['state'];
  readonly sentence: string;
  readonly reasons: readonly string[];
  /** Causes whose text the row asserts, by reason. */
  readonly texts?: Readonly<Record<string, string>>;
}

/** Starts in 15 s; 40 s after each start liveness is refused; SIGTERM would end it in 5 s, but the process is only observed. */
const LIVENESS_FAILS_REPORTED = LIVENESS_FAILS_AT_40.replace('stopAfter: 0', 'stopAfter: 5');
const STARTUP_FAILS = webPod(`startupProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 10, failureThreshold: 3}\n${READINESS}`, 'terminationGracePeriodSeconds: 5');
const NEVER = webPod(`${READINESS}\n${LIVENESS}`, 'restartPolicy: Never');

/**
 * Reported kills (a local session): nothing was stopped or restarted — every sentence says what
 * the kubelet would have done, and that the process ran on. (A kill takes the whole grace period
 * here: the process is only observed, it never stops.)
 */
const REPORTED: readonly ReportedRow[] = [
  { reason: 'liveness-below-threshold', yaml: WITH_STARTUP, scenario: LIVENESS_FAILS_REPORTED, until: 400, at: 55, state: 'ready', sentence: 'Ready, but liveness failed 2 of 3 times in a row (connection refused at 12:00:40, :50): one more failure (the next attempt is due at 12:01:00) and the kubelet would restart it.', reasons: ['liveness-below-threshold', 'ready', 'started'] },
  {
    reason: 'killing', yaml: WITH_STARTUP, scenario: LIVENESS_FAILS_REPORTED, until: 400, at: 62, state: 'restarting',
    sentence: 'Would restart now: liveness failed 3 times in a row (connection refused at 12:00:40, :50, 12:01:00; failureThreshold 3).',
    reasons: ['killing', 'started'],
    texts: { killing: 'The kubelet would kill it at 12:01:00 (Container web failed liveness probe, will be restarted) and start it again; Probe Lens only reports it: the process runs on.' },
  },
  {
    reason: 'liveness-restarts', yaml: WITH_STARTUP, scenario: LIVENESS_FAILS_REPORTED, until: 400, at: 95, state: 'not-started',
    sentence: 'Not started: startupProbe has not passed yet on this container (the kubelet would have restarted it at 12:01:30); readiness and liveness wait until it succeeds.',
    reasons: ['waiting-for-startup', 'liveness-restarts'],
    texts: { 'liveness-restarts': 'Liveness would have killed it once (at 12:01:00): it failed 3× in a row (connection refused), reaching its failureThreshold, at which the kubelet kills the container (K2); Probe Lens only reported the kill: the process runs on.' },
  },
  {
    reason: 'back-off', yaml: WITH_STARTUP, scenario: LIVENESS_FAILS_REPORTED, until: 400, at: 290, state: 'back-off',
    sentence: 'Would have restarted twice: each time liveness failed 3× (connection refused) 20 s after startup succeeded; the kubelet would now wait out back-off (20 s, until 12:05:00).',
    reasons: ['liveness-restarts', 'back-off'],
    texts: { 'back-off': "CrashLoopBackOff: the kubelet restarts a container that keeps ending only after a back-off since it last ended (12:04:40): 10 s, then doubling up to 5 min; 10 min of running resets it (B2, B3). Here the kills were only reported: the process runs on, and its probes wait out the back-off as the kubelet's would." },
  },
  { reason: 'startup-budget', yaml: WITH_STARTUP, scenario: LIVENESS_FAILS_REPORTED, until: 400, at: 105, state: 'not-started', sentence: 'Not started: startupProbe has used 10 s of its 300 s budget (1/30 failures); the kubelet would kill it at 12:06:30 if it keeps failing.', reasons: ['startup-budget', 'liveness-restarts'], texts: { 'startup-budget': 'startupProbe failed once (connection refused at 12:01:40); its budget is initialDelaySeconds 0 + failureThreshold 30 × periodSeconds 10 = 300 s from the restart the kubelet would have made at 12:01:30, and readiness and liveness wait until it succeeds.' } },
  {
    reason: 'startup-restarts', yaml: STARTUP_FAILS, scenario: 'containers:\n  web: {readyAfter: 1000}', until: 300, at: 65, state: 'back-off',
    sentence: 'Would have been killed twice: each time startupProbe failed 3× (connection refused), using up its 30 s budget; the kubelet would now wait out back-off (10 s, until 12:01:15).',
    reasons: ['startup-restarts', 'back-off'],
    texts: { 'startup-restarts': 'Its startupProbe would have killed it twice (at 12:00:30, 12:01:00): each time it failed 3× in a row (connection refused) before the app started, reaching its failureThreshold (K2); Probe Lens only reported the kills: the process runs on.' },
  },
  {
    reason: 'killing', yaml: NEVER, scenario: 'containers:\n  web: {readyAfter: 0, failAfter: 20}', until: 200, at: 50, state: 'stopping',
    sentence: 'Would stop now: liveness failed 3 times in a row (timeout at 12:00:21, :31, :41; failureThreshold 3), and restartPolicy Never would keep it down.',
    reasons: ['killing'],
    texts: { killing: 'The kubelet would kill it at 12:00:41 (Container web failed liveness probe), and restartPolicy Never would keep it down; Probe Lens only reports it: the process runs on.' },
  },
  {
    reason: 'killed', yaml: NEVER, scenario: 'containers:\n  web: {readyAfter: 0, failAfter: 20}', until: 200, at: 90, state: 'terminated',
    sentence: 'Would have been stopped at 12:01:11: liveness failed 3 times in a row (timeout at 12:00:21, :31, :41; failureThreshold 3), and restartPolicy Never would keep it down: the process runs on, no longer probed.',
    reasons: ['killed'],
    texts: { killed: 'The kubelet would have killed it at 12:00:41 (Container web failed liveness probe), and under restartPolicy Never it would stay down (K2); Probe Lens only reported the kill: the process runs on.' },
  },
];

for (const row of REPORTED) {
  test(`reported kills (a local session), ${row.reason}: ${row.sentence}`, () => {
    const run = sessionRun(row.yaml, row.scenario, 'reported');
    try {
      run.at(row.until);
      const recording = { header: runHeader({ mode: 'session', kind: 'local', startedAt: NOON }), events: run.events };
      const explanation = explain(recording, 'web', 'web', row.at);
      assert.equal(explanation.sentence, row.sentence);
      assert.equal(explanation.state, row.state);
      assert.deepEqual(explanation.causes.map((c) => c.reason), row.reasons);
      for (const [reason, text] of Object.entries(row.texts ?? {})) assert.equal(explanation.causes.find((c) => c.reason === reason)?.text, text, reason);
      assertCitesItsLines(run.events, explanation);
    } finally {
      run.dispose();
    }
  });
}

/** Our probes against a pod a cluster's kubelet runs: observed by the test, with our predictions and verdicts compared to the cluster's. */
function clusterRun() {
  const clock = new VirtualClock();
  const events: EngineEvent[] = [];
  const answers: Record<string, ProbeOutcome> = { readiness: { result: 'success', output: 'ok' }, liveness: { result: 'success', output: '' } };
  const target: ProbeTarget = { attempt: (request, done) => done(answers[request.type] as ProbeOutcome), dispose: () => {} };
  const [pod] = desiredPods(parseManifest(webPod(`${READINESS}\n${LIVENESS}`)));
  assert.ok(pod);
  const comparer = new VerdictComparer(clock, 0, (e) => events.push(e));
  const runtime = new ObservedPodRuntime(pod.identity, pod.spec, {
    clock,
    epoch: 0,
    kubeletStartedAt: -3_600_000,
    random: () => 0,
    target,
    emit: (e) => {
      events.push(e);
      comparer.see(e);
    },
  }).start();
  const observe = (container: Partial<ObservedContainer>, ready = false) =>
    runtime.observe({ phase: 'Running', deleting: false, ready, containers: [{ name: 'web', containerId: '', state: 'waiting', restartCount: 0, started: false, ready: false, ...container }] });
  const recording = { header: runHeader({ mode: 'run', target: 'cluster', startedAt: NOON }), events };
  return { clock, events, answers, observe, recording, dispose: () => (runtime.dispose(), comparer.dispose()) };
}

test('cluster: not created, waiting, the kubelet disagreeing, a predicted restart confirmed and one missed', () => {
  const run = clusterRun();
  try {
    run.clock.advanceTo(5_000);
    const none = explain(run.recording, 'web', 'web', 5);
    assert.deepEqual([none.state, none.sentence, none.causes.map((c) => c.reason)], ['not-created', 'Not created yet: nothing was reported of it by 12:00:05.', ['not-created']]);
    run.observe({ reason: 'ContainerCreating' });
    run.clock.advanceTo(8_000);
    const waiting = explain(run.recording, 'web', 'web', 8);
    assert.deepEqual([waiting.state, waiting.sentence, waiting.causes.map((c) => c.reason)], ['waiting', 'Waiting (ContainerCreating) since 12:00:05.', ['waiting', 'kubelet']]);
    // Running from 10 s; ours Ready at once, the cluster's kubelet never says so.
    run.clock.advanceTo(10_000);
    run.observe({ containerId: 'containerd://a', state: 'running', startedAt: 10_000, started: true });
    run.clock.advanceTo(40_000);
    const disagreeing = explain(run.recording, 'web', 'web', 40);
    assert.equal(disagreeing.state, 'ready');
    assert.deepEqual(disagreeing.causes.map((c) => c.reason), ['ready', 'disagreement', 'kubelet']);
    assert.match(disagreeing.sentence, /^Ready since 12:00:10: readiness succeeded at 12:00:10 \(successThreshold 1\)\. The cluster's kubelet says not ready since 12:00:30: the kubelet says web is not Ready while our probes pass/);
    assert.equal(disagreeing.causes.at(-1)?.text, "The cluster's kubelet says: not Ready, restartCount 0 (since 12:00:10).");
    for (const explanation of [none, waiting, disagreeing]) assertCitesItsLines(run.events, explanation);
    // Liveness refused from 45 s: ours would kill at the third failure and predicts it.
    run.answers.liveness = { result: 'failure', output: 'dial tcp 10.244.1.5:8080: connect: connection refused' };
    run.clock.advanceTo(75_000);
    const pending = explain(run.recording, 'web', 'web', 75);
    assert.equal(pending.state, 'restarting');
    assert.equal(pending.sentence.split(' The cluster')[0], "Would restart now: liveness failed 3 times in a row (connection refused at 12:00:50, 12:01:00, :10; failureThreshold 3); waiting to see whether the cluster's kubelet restarts it.");
    assert.equal(pending.causes[0]?.reason, 'prediction');
    // The cluster restarts it at 80 s: confirmed.
    run.answers.liveness = { result: 'success', output: '' };
    run.observe({ containerId: 'containerd://b', state: 'running', startedAt: 80_000, restartCount: 1, started: true, ready: true }, true);
    run.clock.advanceTo(100_000);
    const confirmed = explain(run.recording, 'web', 'web', 100);
    assert.deepEqual(confirmed.causes.map((c) => c.reason), ['ready', 'cluster-restarts', 'prediction-confirmed', 'kubelet']);
    assert.equal(confirmed.causes[1]?.text, "The cluster's kubelet restarted it once; once as our probes predicted.");
    assert.match(confirmed.causes[2]?.text ?? '', /^Our liveness probe predicted a restart at 12:01:10; confirmed at 12:01:\d\d: the cluster restarted web \(restart 1\) \d+ s after our liveness probe failed\.$/);
    // Refused again; the cluster never restarts it: missed.
    run.answers.liveness = { result: 'failure', output: 'dial tcp 10.244.1.5:8080: connect: connection refused' };
    run.clock.advanceTo(200_000);
    const missed = explain(run.recording, 'web', 'web', 200);
    assert.ok(missed.causes.some((c) => c.reason === 'prediction-missed'), JSON.stringify(missed.causes.map((c) => c.reason)));
    for (const explanation of [pending, confirmed, missed]) assertCitesItsLines(run.events, explanation);
  } finally {
    run.dispose();
  }
});

test('cluster: an instance the cluster reports terminated is the cluster\'s stop, never an exit of its own, with what our predictions said', () => {
  const run = clusterRun();
  const refused: ProbeOutcome = { result: 'failure', output: 'dial tcp 10.244.1.5:8080: connect: connection refused' };
  try {
    run.clock.advanceTo(5_000);
    run.observe({ containerId: 'containerd://a', state: 'running', startedAt: 5_000, started: true, ready: true }, true);
    run.clock.advanceTo(40_000);
    // Liveness refused from 45 s: ours predicts at 70 s; the cluster reports the instance terminated at 75 s, then its back-off.
    run.answers.liveness = refused;
    run.clock.advanceTo(75_000);
    run.observe({ containerId: 'containerd://a', state: 'terminated', reason: 'Error' });
    run.clock.advanceTo(78_000);
    const stopped = explain(run.recording, 'web', 'web', 78);
    assert.equal(stopped.state, 'terminated');
    assert.equal(stopped.sentence, "Stopped by the cluster at 12:01:15 (Error) after 70 s, as our liveness probe predicted; whether it starts again is up to the cluster's kubelet.");
    assert.deepEqual(stopped.causes.map((c) => c.reason), ['cluster-stopped', 'prediction-confirmed', 'kubelet']);
    assert.equal(stopped.causes[0]?.text, 'The cluster reports it terminated at 12:01:15 (Error): what the cluster reports does not say whether its kubelet killed it for a failed probe or its process exited.');
    run.observe({ containerId: 'containerd://a', state: 'waiting', reason: 'CrashLoopBackOff', message: 'back-off 10s restarting failed container=web pod=web_default(x)', restartCount: 1 });
    run.clock.advanceTo(82_000);
    const backingOff = explain(run.recording, 'web', 'web', 82);
    assert.equal(backingOff.state, 'back-off');
    assert.equal(backingOff.sentence, 'Stopped once by the cluster: it ended (Error) 70 s after it started, as our liveness probe predicted; now waiting out back-off (10 s, until 12:01:25).');
    assert.deepEqual(backingOff.causes.map((c) => c.reason), ['cluster-stopped', 'back-off', 'prediction-confirmed', 'kubelet']);
    assert.equal(backingOff.causes[0]?.text, 'The cluster stopped it once (at 12:01:15; Error): what the cluster reports does not say whether its kubelet killed it for a failed probe or its process exited; once as our probes predicted.');
    // Restarted at 90 s; refused again from the start, terminated again at 125 s.
    run.clock.advanceTo(90_000);
    run.observe({ containerId: 'containerd://b', state: 'running', startedAt: 90_000, restartCount: 1, started: true });
    run.clock.advanceTo(125_000);
    run.observe({ containerId: 'containerd://b', state: 'terminated', reason: 'Error', restartCount: 1 });
    run.observe({ containerId: 'containerd://b', state: 'waiting', reason: 'CrashLoopBackOff', message: 'back-off 20s restarting failed container=web pod=web_default(x)', restartCount: 2 });
    run.clock.advanceTo(130_000);
    const twice = explain(run.recording, 'web', 'web', 130);
    assert.equal(twice.sentence, 'Stopped twice by the cluster: each time it ended (Error) 35–70 s after it started, as our liveness probe predicted; now waiting out back-off (20 s, until 12:02:25).');
    for (const explanation of [stopped, backingOff, twice]) assertCitesItsLines(run.events, explanation);
  } finally {
    run.dispose();
  }
});

test('explainRecording: every container of every pod, in the order the recording names them', () => {
  const recording = simulated(`${WITH_INIT()}---\n${webPod(READINESS).replace('name: web\nspec', 'name: api\nspec')}`, 'containers:\n  migrate: {exitAfter: 20}', 60);
  const history = buildHistory(recording.header, recording.events);
  const all = explainRecording(history, 30, timeFormatFor(undefined));
  assert.deepEqual(
    all.map((e) => `${e.pod}/${e.container} ${e.state}`),
    ['web/web ready', 'web/migrate completed', 'api/web ready'],
  );
  for (const explanation of all) assertCitesItsLines(recording.events, explanation);
  assert.equal(explainContainer(history, 'web', 'nope', 30, timeFormatFor(undefined)), undefined);
});

test('times: wall clock in the local zone with repeated minutes shortened, else virtual time', () => {
  const wall = timeFormatFor(Date.parse(NOON));
  assert.equal(wall.at(220.9), '12:03:40');
  assert.equal(wall.series([200, 210, 220, 230, 3600]), '12:03:20, :30, :40, :50, 13:00:00');
  const virtual = timeFormatFor(undefined);
  assert.equal(virtual.at(220), 't+00:03:40');
  assert.equal(virtual.series([50, 60, 70]), 't+00:00:50, t+00:01:00, :10');
});
