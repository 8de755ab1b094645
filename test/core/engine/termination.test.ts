import assert from 'node:assert/strict';
import { test } from 'node:test';
import { graceGivenSeconds, SIGKILL_EXIT_CODE, SIGTERM_EXIT_CODE, stopOutcome } from '../../../src/core/engine/termination';
import { containerLines, kubeletEventLines, simulated, startPod, webPod } from '../../helpers/engine';

const S = 1000;
const LIVENESS = 'livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: 3}';

test('K5: an app that honours SIGTERM (stopAfter) ends a liveness kill early with exit 143; one that does not runs out the 30 s grace (137)', () => {
  // Healthy until 25 s, then hung: liveness failures at 30, 40, 50 → Killing at 51.
  for (const [scenario, terminatedAt, exitCode] of [
    ['containers: {web: {failAfter: 25, stopAfter: 4}}', 55, SIGTERM_EXIT_CODE],
    ['containers: {web: {failAfter: 25}}', 81, SIGKILL_EXIT_CODE],
  ] as const) {
    const { clock, events, runtime } = startPod(webPod(LIVENESS), { scenario });
    clock.advanceTo((terminatedAt - 1) * S);
    assert.equal(runtime.container('web')?.state, 'running', `${scenario}: still stopping`);
    clock.advanceTo(terminatedAt * S);
    assert.deepEqual(kubeletEventLines(events, 'Killing'), ['51 Container web failed liveness probe, will be restarted'], scenario);
    assert.deepEqual(containerLines(events).slice(1, 3), [`${terminatedAt} terminated sim://web/web/0 0 Error`, `${terminatedAt} running sim://web/web/1 1`], scenario);
    assert.equal(runtime.container('web')?.exitCode, exitCode, `${scenario}: the last exit's code`);
    runtime.dispose();
  }
  const honoured = startPod(webPod(LIVENESS, 'restartPolicy: Never'), { scenario: 'containers: {web: {failAfter: 25, stopAfter: 4}}' });
  honoured.clock.advanceTo(100 * S);
  assert.equal(honoured.runtime.container('web')?.exitCode, SIGTERM_EXIT_CODE);
  assert.equal(honoured.runtime.phase, 'Failed');
  honoured.runtime.dispose();
});

test('K5: stopAfter shortens a startup kill (stopAfter 0: at once) and a deletion\'s grace (A5)', () => {
  const startup = simulated(webPod('startupProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: 3}'), 'containers: {web: {readyAfter: 1000, stopAfter: 0}}', 31);
  assert.deepEqual(kubeletEventLines(startup, 'Killing'), ['30 Container web failed startup probe, will be restarted']);
  assert.deepEqual(containerLines(startup), ['0 running sim://web/web/0 0', '30 terminated sim://web/web/0 0 Error', '30 running sim://web/web/1 1']);

  const deleted = simulated(webPod(LIVENESS, 'terminationGracePeriodSeconds: 20'), 'containers: {web: {stopAfter: 2}}\npod: {deleteAfter: 30}', 100);
  assert.deepEqual(kubeletEventLines(deleted, 'Killing').slice(1), ['30 Stopping container web']);
  assert.deepEqual(containerLines(deleted), ['0 running sim://web/web/0 0', '32 terminated sim://web/web/0 0 Error']);
});

test('K5/K3: a stopAfter as long as the grace period or longer changes nothing: SIGKILL when the grace runs out', () => {
  for (const stopAfter of [30, 100]) {
    const events = simulated(webPod(LIVENESS), `containers: {web: {failAfter: 25, stopAfter: ${stopAfter}}}`, 90);
    assert.deepEqual(containerLines(events).slice(1, 2), ['81 terminated sim://web/web/0 0 Error'], `stopAfter ${stopAfter}`);
  }
});

test('K5: restartPolicy OnFailure restarts a container that SIGTERM ended (exit 143 is a failure)', () => {
  const events = simulated(webPod(LIVENESS, 'restartPolicy: OnFailure'), 'containers: {web: {failAfter: 25, stopAfter: 1}}', 60);
  assert.deepEqual(containerLines(events).slice(1, 3), ['52 terminated sim://web/web/0 0 Error', '52 running sim://web/web/1 1']);
});

test('K3/K5: the grace and the stop, as decisions', () => {
  assert.equal(graceGivenSeconds(30, undefined, false), 30);
  assert.equal(graceGivenSeconds(30, 5, false), 5);
  assert.equal(graceGivenSeconds(30, 5, true), 30, 'a deleted pod\'s grace wins');
  assert.equal(graceGivenSeconds(0, undefined, false), 2, 'never below 2 s');
  assert.deepEqual(stopOutcome(30_000, undefined), { afterMs: 30_000, exitCode: 137 });
  assert.deepEqual(stopOutcome(30_000, 3_000), { afterMs: 3_000, exitCode: 143 });
  assert.deepEqual(stopOutcome(30_000, 30_000), { afterMs: 30_000, exitCode: 137 });
});
