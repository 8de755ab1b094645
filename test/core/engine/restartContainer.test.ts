import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EngineEvent } from '../../../src/core/engine/events';
import { containerLines, startPod, webPod } from '../../helpers/engine';

const S = 1000;

const READINESS = 'readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 5}';
const LIVENESS = 'livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: 3}';

test('B2: a restarted (killed) container is started again at once the first time, without a Killing event', () => {
  const { clock, events, runtime } = startPod(webPod(READINESS));
  clock.advanceTo(12 * S);
  assert.equal(runtime.container('web')?.ready, true);
  assert.equal(runtime.restartContainer('web'), 'restarting');
  clock.advanceTo(13 * S);
  assert.deepEqual(containerLines(events), ['0 running sim://web/web/0 0', '12 terminated sim://web/web/0 0 Error', '12 running sim://web/web/1 1']);
  assert.equal(events.filter((e) => e.type === 'event' && e.reason === 'Killing').length, 0, 'the kubelet did not kill it');
  // S2: the new instance is not ready until its readiness probe succeeds again — at once here,
  // as the status update triggers the readiness worker (W13).
  const statuses = events.filter((e) => e.type === 'status' && e.t >= 12).map((e) => `${e.t} ${(e as Extract<EngineEvent, { type: 'status' }>).ready}`);
  assert.deepEqual(statuses, ['12 false', '12 true']);
  clock.advanceTo(18 * S);
  const attempts = events.filter((e) => e.type === 'attempt' && e.t >= 12).map((e) => (e as Extract<EngineEvent, { type: 'attempt' }>).containerId);
  assert.ok(attempts.length > 0 && attempts.every((id) => id === 'sim://web/web/1'), 'probes go to the new instance');
});

test('B1–B4: a second restart soon after the first waits out CrashLoopBackOff (10 s)', () => {
  const { clock, events, runtime } = startPod(webPod(READINESS));
  clock.advanceTo(5 * S);
  runtime.restartContainer('web');
  clock.advanceTo(6 * S);
  assert.equal(runtime.restartContainer('web'), 'restarting');
  clock.advanceTo(30 * S);
  assert.deepEqual(containerLines(events), [
    '0 running sim://web/web/0 0',
    '5 terminated sim://web/web/0 0 Error',
    '5 running sim://web/web/1 1',
    '6 terminated sim://web/web/1 1 Error',
    '6 waiting sim://web/web/1 1 CrashLoopBackOff',
    '16 running sim://web/web/2 2',
  ]);
  // B5: a BackOff event on each sync in the back-off: the exit's (6), and the readiness worker's
  // Failure for the stopped container (K1, at its next tick, 10).
  const backOff = events.filter((e) => e.type === 'event' && e.reason === 'BackOff');
  assert.deepEqual(
    backOff.map((e) => e.t),
    [6, 10],
  );
});

test('a container waiting out its back-off is not running: nothing to restart', () => {
  const { clock, runtime } = startPod(webPod(READINESS));
  clock.advanceTo(1 * S);
  runtime.restartContainer('web');
  clock.advanceTo(2 * S);
  runtime.restartContainer('web');
  clock.advanceTo(3 * S);
  assert.equal(runtime.container('web')?.state, 'waiting');
  assert.equal(runtime.restartContainer('web'), 'not-running');
  assert.equal(runtime.restartContainer('nope'), 'unknown-container');
});

test('restartPolicy Never: the killed container stays down (exit 137) and the pod fails', () => {
  const { clock, events, runtime } = startPod(webPod(READINESS, 'restartPolicy: Never'));
  clock.advanceTo(5 * S);
  assert.equal(runtime.restartContainer('web'), 'stopped');
  clock.advanceTo(60 * S);
  assert.deepEqual(containerLines(events), ['0 running sim://web/web/0 0', '5 terminated sim://web/web/0 0 Error']);
  assert.equal(runtime.phase, 'Failed');
  assert.equal(runtime.restartContainer('web'), 'not-running');
});

test('K3: a restart during a liveness kill\'s grace period ends the kill now, once', () => {
  // Healthy until 5 s, then hangs: liveness fails at 10, 20, 30 → Killing at 31, grace 30 s.
  const { clock, events, runtime } = startPod(webPod(LIVENESS), { scenario: 'containers: {web: {failAfter: 5}}' });
  clock.advanceTo(40 * S);
  assert.equal(events.filter((e) => e.type === 'event' && e.reason === 'Killing').length, 1);
  assert.equal(runtime.restartContainer('web'), 'restarting');
  clock.advanceTo(100 * S);
  const lines = containerLines(events);
  assert.deepEqual(lines.slice(0, 3), ['0 running sim://web/web/0 0', '40 terminated sim://web/web/0 0 Error', '40 running sim://web/web/1 1']);
  assert.equal(lines.filter((l) => l.includes('sim://web/web/0 0 Error')).length, 1, 'the grace-period timer no longer fires');
});

test('a disposed runtime restarts nothing', () => {
  const { clock, runtime } = startPod(webPod(READINESS));
  clock.advanceTo(1 * S);
  runtime.dispose();
  assert.equal(runtime.restartContainer('web'), 'not-running');
  assert.equal(clock.pendingTimers, 0);
});

test('B5: a crash loop played in fractional steps (as the editor plays a simulation) never re-syncs at one instant forever', () => {
  // The requeue is scheduled for the end of the back-off; off the clock's grid it could land a
  // hair early, find the container still backing off, and schedule itself at that same instant.
  for (const exitAfter of ['1.234567', '3.3', '6.999001']) {
    const { clock, events, runtime } = startPod(webPod(READINESS), { scenario: `containers: {web: {exitAfter: ${exitAfter}}}` });
    // Fail fast rather than hang: a runaway schedules without end.
    const schedule = clock.schedule.bind(clock);
    let scheduled = 0;
    clock.schedule = (delayMs, callback) => {
      assert.ok(++scheduled < 100_000, `a runaway at ${clock.now()} ms (exitAfter ${exitAfter})`);
      return schedule(delayMs, callback);
    };
    for (let i = 0; i < 400; i++) clock.advanceBy(6000 + ((i * 7919) % 700) / 100 + 0.13);
    runtime.dispose();
    // 2 400 s with exits every few seconds and back-off capped at 300 s: a handful of restarts.
    const restarts = events.filter((e) => e.type === 'container' && e.state === 'running').length;
    assert.ok(restarts > 5 && restarts < 20, `${restarts} starts`);
  }
});
