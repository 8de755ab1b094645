/**
 * What the rows of the Probes view say (src/extension/tree/format.ts), rendered from session
 * snapshots: folded from hand-written events, and from a simulation on a virtual clock. The rest
 * of the view runs inside VS Code (test/extension/suite/probing.vstest.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { liveContainerTitle } from '../../src/core/editor/probeText';
import { shortDuration } from '../../src/core/text/durations';
import type { EngineEvent } from '../../src/core/engine/events';
import { containerCondition } from '../../src/core/session/headline';
import type { ContainerSnapshot, KillMode, SessionClock, SessionSnapshot } from '../../src/core/session/snapshot';
import { SessionState } from '../../src/core/session/state';
import { presentContainer, presentPod, presentProbe, presentSession, type SessionFacts, wallTime } from '../../src/extension/tree/format';
import { webPod } from '../helpers/engine';
import { sessionRun } from '../core/session/sessionRun';

type Attempt = Extract<EngineEvent, { type: 'attempt' }>;

const ID = 'local://web/web/0';

function attempt(t: number, outcome: Attempt['outcome'], output = '', error?: string, durationMs = 4, containerId = ID): Attempt {
  return { type: 'attempt', t, pod: 'web', container: 'web', probe: 'readiness', containerId, outcome, output, durationMs, ...(error !== undefined ? { error } : {}) };
}

const RUNNING: EngineEvent = { type: 'container', t: 0, pod: 'web', container: 'web', containerId: ID, state: 'running', restartCount: 0 };
const WALL: SessionClock = { kind: 'wall' };

function fold(events: readonly EngineEvent[], kills: KillMode = 'carried-out', t = 10, clock: SessionClock = WALL): SessionSnapshot {
  const state = new SessionState(kills);
  for (const event of events) state.apply(event);
  return state.snapshot({ t, clock });
}

function probeRow(events: readonly EngineEvent[], failureThreshold = 3) {
  const container = fold(events).pods.get('web')?.containers.get('web');
  return presentProbe({ type: 'readiness', probe: container?.probes.get('readiness'), failureThreshold, handler: 'httpGet http://:8080/healthz', running: container?.state === 'running' });
}

const result = (t: number, value: 'Success' | 'Failure', containerId = ID): EngineEvent => ({ type: 'result', t, pod: 'web', container: 'web', probe: 'readiness', containerId, value });

test('probe row: waiting, passing with counts and duration, failing toward the threshold, failed, errored', () => {
  assert.deepEqual([probeRow([RUNNING]).description, probeRow([RUNNING]).icon.id], ['waiting for the first attempt', 'loading~spin']);
  assert.deepEqual([probeRow([]).icon.id], ['circle-outline']);

  const ok = [RUNNING, attempt(1, 'success'), result(1, 'Success'), attempt(2, 'success', '', undefined, 3.6)];
  assert.deepEqual([probeRow(ok).description, probeRow(ok).icon], ['2/2 ok · 4 ms', { id: 'pass', color: 'testing.iconPassed' }]);

  const failing = [...ok, attempt(3, 'failure', 'HTTP probe failed with statuscode: 503')];
  assert.deepEqual([probeRow(failing).description, probeRow(failing).icon.id], ['failing 1/3 · 2/3 ok', 'warning']);
  assert.match(probeRow(failing).tooltip.markdown, /Last attempt at t=3\.0s: \*\*failure\*\*/);
  assert.match(probeRow(failing).tooltip.markdown, /this container: 2\/3 ok/);
  assert.equal(probeRow(failing).tooltip.code, 'HTTP probe failed with statuscode: 503');

  const failed = [...failing, attempt(4, 'failure', 'HTTP probe failed with statuscode: 503'), attempt(5, 'failure', 'HTTP probe failed with statuscode: 503'), result(5, 'Failure')];
  assert.deepEqual([probeRow(failed).description, probeRow(failed).icon], ['failing 3/3 · 2/5 ok', { id: 'error', color: 'testing.iconFailed' }]);
  assert.equal(probeRow(failed, 1).description, 'failing 1/1 · 2/5 ok', 'capped at the threshold');

  const errored = [RUNNING, attempt(1, 'unknown', '', 'exec probes run commands on this machine and were not allowed')];
  assert.deepEqual([probeRow(errored).description, probeRow(errored).icon.id], ['error · 0/1 ok', 'question']);
  assert.match(probeRow(errored).tooltip.markdown, /prober error, not counted/);
  assert.equal(probeRow(errored).tooltip.code, 'exec probes run commands on this machine and were not allowed');
});

test('probe row: a success before successThreshold is reached says so', () => {
  const row = probeRow([RUNNING, attempt(1, 'success')]);
  assert.equal(row.description, 'not passed yet · 1/1 ok · 4 ms');
  assert.equal(row.icon.id, 'warning');
});

test('probe row: a restarted container starts from none, the total of every container in the tooltip', () => {
  const restarted: EngineEvent = { type: 'container', t: 6, pod: 'web', container: 'web', containerId: 'local://web/web/1', state: 'running', restartCount: 1 };
  const events = [RUNNING, attempt(1, 'success'), attempt(2, 'failure'), attempt(3, 'failure'), attempt(4, 'failure'), attempt(5, 'failure'), restarted];
  const fresh = probeRow(events);
  assert.equal(fresh.description, 'waiting for the first attempt', 'not the previous container\'s 1/5 ok');
  assert.match(fresh.tooltip.markdown, /All containers: 1\/5 ok/);
  const next = probeRow([...events, attempt(7, 'success', '', undefined, 4, 'local://web/web/1')]);
  assert.equal(next.description, 'not passed yet · 1/1 ok · 4 ms');
  assert.match(next.tooltip.markdown, /All containers: 2\/6 ok/);
});

test('container row: ready · restarts N, starting, started but not ready, CrashLoopBackOff and its back-off, restarting, would restart, terminated', () => {
  const container = (events: readonly EngineEvent[], kills: KillMode = 'carried-out') => presentContainer('web', fold(events, kills).pods.get('web')?.containers.get('web'), kills);
  const status = (started: boolean, ready: boolean): EngineEvent => ({ type: 'status', t: 1, pod: 'web', container: 'web', started, ready });
  assert.deepEqual([presentContainer('web', undefined, 'carried-out').description, presentContainer('web', undefined, 'carried-out').icon.id], ['not started yet', 'loading~spin']);
  assert.equal(container([RUNNING]).description, 'starting · restarts 0');
  assert.deepEqual([container([RUNNING, status(true, false)]).description, container([RUNNING, status(true, false)]).icon.id], ['started · not ready · restarts 0', 'warning']);
  const ready = container([{ ...RUNNING, restartCount: 2 } as EngineEvent, status(true, true)]);
  assert.deepEqual([ready.description, ready.icon.id], ['ready · restarts 2', 'pass']);
  const killedAt: EngineEvent = { type: 'event', t: 8, pod: 'web', container: 'web', reason: 'Killing', message: 'Container web failed liveness probe, will be restarted', eventType: 'Normal', probe: 'liveness' };
  const terminated: EngineEvent = { type: 'container', t: 9, pod: 'web', container: 'web', containerId: 'sim://web/web/3', state: 'terminated', restartCount: 3, reason: 'Error' };
  const backOff: EngineEvent = { ...terminated, state: 'waiting', reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container=web pod=web_default(x)' } as EngineEvent;
  const looping = container([{ ...RUNNING, containerId: 'sim://web/web/3', restartCount: 3 } as EngineEvent, killedAt, terminated, backOff]);
  // The back-off's length, which stays put (a row changing every second would close its tooltip); when it ends in the tooltip.
  assert.deepEqual([looping.description, looping.icon.id], ['CrashLoopBackOff · back-off 40s · restarts 4 (liveness)', 'error']);
  assert.match(looping.tooltip.markdown, /Restarts when its back-off ends, at t=49\.0s\./);
  assert.match(looping.tooltip.markdown, /Restarts: 4 \(the kubelet's restartCount 3 and one under way\), last for a failed liveness probe/);
  const killing = container([RUNNING, status(true, true), killedAt]);
  assert.deepEqual([killing.description, killing.icon.id], ['restarting (liveness failed) · restarts 1 (liveness)', 'error']);
  const wouldRestart = container([RUNNING, status(true, true), killedAt], 'reported');
  assert.equal(wouldRestart.description, 'would restart now (liveness failed) · would restart 1× (liveness)');
  assert.match(wouldRestart.tooltip.markdown, /would have restarted it 1 time, last for a failed liveness probe; the process itself runs on/);
  // Killed for good (restartPolicy Never): every surface says stopping, whoever carries the kill out.
  const forGood: EngineEvent = { ...killedAt, message: 'Container web failed liveness probe' } as EngineEvent;
  for (const kills of ['carried-out', 'reported'] as const) {
    const snapshot: ContainerSnapshot | undefined = fold([RUNNING, status(true, true), forGood], kills).pods.get('web')?.containers.get('web');
    assert.ok(snapshot);
    assert.match(container([RUNNING, status(true, true), forGood], kills).description, /^stopping \(liveness failed\) · /, `${kills}: the row`);
    assert.match(liveContainerTitle(snapshot, kills, 10), /^stopping \(liveness failed\) · /, `${kills}: the lens`);
    assert.equal(containerCondition(snapshot, kills).text, 'stopping (liveness failed)', `${kills}: the headline`);
  }
  const done = container([{ type: 'container', t: 9, pod: 'web', container: 'web', containerId: 'sim://web/web/0', state: 'terminated', restartCount: 0, reason: 'Error' }]);
  assert.deepEqual([done.description, done.icon.id], ['terminated (Error) · restarts 0', 'circle-slash']);
  assert.match(done.tooltip.markdown, /`sim:\/\/web\/web\/0`/);
});

test('pod row: Ready or NotReady; why in its tooltip', () => {
  const readyPod = fold([RUNNING, { type: 'status', t: 1, pod: 'web', container: 'web', started: true, ready: true }, { type: 'pod', t: 1, pod: 'web', ready: true }]).pods.get('web');
  assert.deepEqual([presentPod('web', readyPod, 'carried-out').description, presentPod('web', readyPod, 'carried-out').icon.id], ['Ready', 'pass']);
  const failing = fold([RUNNING, { type: 'status', t: 1, pod: 'web', container: 'web', started: true, ready: false }, attempt(1, 'failure')]).pods.get('web');
  assert.equal(presentPod('web', failing, 'carried-out').description, 'NotReady');
  assert.match(presentPod('web', failing, 'carried-out').tooltip.markdown, /pod web NotReady · web: readiness failing 1×/);
  assert.equal(presentPod('web', undefined, 'carried-out').description, 'not started yet');
});

function facts(state: SessionSnapshot, fields: Partial<SessionFacts> = {}): SessionFacts {
  return { kind: 'simulated', label: 'web.yaml', detail: '60× · web.scenario.yaml', state, startedAt: '12:01', ...fields };
}

/** Killed after 3 liveness failures, the app hanging 5 s after each start and exiting at once on SIGTERM. */
const CRASH_LOOPING = webPod(`
livenessProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 1, failureThreshold: 3}
readinessProbe: {httpGet: {path: /ready, port: http}, periodSeconds: 1, failureThreshold: 1}
`);

test('session row: the worst thing first, then the speed (the virtual time where it stands still); everything else in the tooltip; ended', () => {
  const run = sessionRun(CRASH_LOOPING, 'containers:\n  web: {readyAfter: 0, failAfter: 5, stopAfter: 0, latency: 0.01}\n');
  try {
    run.clock.advanceTo(200_000);
    const playing = run.state.snapshot({ t: 200, clock: { kind: 'virtual', paused: false, speed: 60 } });
    const row = presentSession(facts(playing));
    assert.equal(row.label, 'web.yaml');
    assert.match(row.description, /^web: CrashLoopBackOff · \d+ restarts \(liveness\) · 60×$/);
    assert.equal(row.icon.id, 'error');
    assert.match(row.tooltip.markdown, /simulated on a virtual clock · 60× · web\\.scenario\\.yaml/);
    assert.match(row.tooltip.markdown, /started 12:01 · playing at 60× \(the virtual time ticks in the status bar\)/);
    const later = run.state.snapshot({ t: 201, clock: { kind: 'virtual', paused: false, speed: 60 } });
    assert.deepEqual(presentSession(facts(later)), row, 'a second later, nothing else changed: the same row (not redrawn)');
    assert.match(row.tooltip.markdown, /- pod \*\*web\*\* NotReady\n {2}- web: CrashLoopBackOff/);
    const paused = presentSession(facts(run.state.snapshot({ t: 200, clock: { kind: 'virtual', paused: true, speed: 60 } })));
    assert.match(paused.description, / · paused t\+00:03:20$/);
    assert.equal(paused.icon.id, 'debug-pause');
    const ended = presentSession(facts(run.state.snapshot({ t: 200, clock: { kind: 'virtual', paused: false, speed: 60 }, endedAt: 0 }), { endedAt: '12:03' }));
    assert.match(ended.description, /^ended 12:03 · web: CrashLoopBackOff · \d+ restarts \(liveness\)$/);
    assert.match(ended.tooltip.markdown, /ended at virtual time t\+00:03:20/);
    assert.equal(ended.icon.id, 'history');
  } finally {
    run.dispose();
  }
  const local = presentSession(facts(fold([RUNNING, { type: 'status', t: 1, pod: 'web', container: 'web', started: true, ready: true }, { type: 'pod', t: 1, pod: 'web', ready: true }], 'reported'), { kind: 'local', detail: '127.0.0.1' }));
  assert.deepEqual([local.description, local.icon.id], ['pod web Ready', 'pulse']);
  assert.match(local.tooltip.markdown, /only reported: the process runs on/);
});

test('lens over a container: the same words from the same snapshot; what is left of a back-off', () => {
  const container = fold([RUNNING, { type: 'status', t: 1, pod: 'web', container: 'web', started: true, ready: true }]).pods.get('web')?.containers.get('web');
  assert.ok(container);
  assert.equal(liveContainerTitle(container, 'carried-out', 10), 'started · ready · restarts 0');
  assert.equal(liveContainerTitle({ ...container, restarts: 2, lastRestartCause: 'startup' }, 'reported', 10), 'started · ready · would restart 2× (startup)');
  const looping = { ...container, state: 'waiting' as const, reason: 'CrashLoopBackOff', started: false, ready: false, restarts: 3, lastRestartCause: 'liveness' as const, backOffUntil: 50 };
  assert.equal(liveContainerTitle(looping, 'carried-out', 10), 'CrashLoopBackOff · restarting in 40s · restarts 3 (liveness)');
  assert.deepEqual([shortDuration(0.2), shortDuration(58.5), shortDuration(59.5), shortDuration(150)], ['1s', '59s', '1m', '2m30s']);
  assert.equal(wallTime(new Date(2024, 0, 1, 9, 5).getTime()), '09:05');
});
