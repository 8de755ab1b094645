import assert from 'node:assert/strict';
import { test } from 'node:test';
import { backOffEventMessage, crashLoopMessage } from '../../../src/core/engine/crashLoop';
import { attemptStartTimes, containerLines, kubeletEventLines, only, podManifest, simulated, webPod } from '../../helpers/engine';

test('B5: a BackOff event on every pod sync that finds the container backing off: the exit\'s, and each probe update\'s (K1)', () => {
  const yaml = webPod(`
    readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 7}
    livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 9}`);
  // The app exits 3 s after every start: at 3 (restarted at once), 6 (backs off 10 s), 19 (20 s), 42 (40 s).
  const events = simulated(yaml, 'containers: {web: {exitAfter: 3}}', 50);
  assert.deepEqual(
    containerLines(events).filter((line) => line.includes('running')),
    ['0 running sim://web/web/0 0', '3 running sim://web/web/1 1', '16 running sim://web/web/2 2', '39 running sim://web/web/3 3'],
  );
  // While backing off, the kubelet syncs the pod when it sees the exit (6, 19, 42), when the
  // liveness worker caches Failure for the stopped container (9, 27, 45) and when the readiness
  // worker does (10, 23, 46). A liveness Success (18: the new container's initial value) syncs nothing.
  assert.deepEqual(
    kubeletEventLines(events, 'BackOff').map((line) => Number(line.split(' ')[0])),
    [6, 9, 10, 19, 23, 27, 42, 45, 46],
  );
  const livenessSuccess = only(events, 'result', 'web').find((e) => e.probe === 'liveness' && e.value === 'Success' && e.t === 18);
  assert.ok(livenessSuccess, 'the liveness initial value for the container started at 16');
});

test('B5: with no probe to sync it, a pod backing off is synced again by the pod worker: at the end of the back-off, or after the 60 s resync', () => {
  const yaml = podManifest('containers: [{name: web, image: nginx}]');
  // Exits at 5, 10, 25, 50, 95, 180: the fifth exit backs off 80 s, the sixth 160 s.
  const events = simulated(yaml, 'containers: {web: {exitAfter: 5}}', 339);
  assert.deepEqual(
    kubeletEventLines(events, 'BackOff').map((line) => Number(line.split(' ')[0])),
    [10, 25, 50, 95, 155, 180, 240, 300],
  );
  assert.deepEqual(
    containerLines(events).filter((line) => line.includes('running')).map((line) => Number(line.split(' ')[0])),
    [0, 5, 20, 45, 90, 175],
    'each restart on the sync at the end of its back-off, exactly (the kubelet\'s jitter is not simulated)',
  );
});

test('B6: the CrashLoopBackOff message and the BackOff event text, as the kubelet formats them', () => {
  const pod = 'web_default(8c1a2f3e-0b1c-4d2e-8f3a-4b5c6d7e8f90)';
  assert.equal(crashLoopMessage(10_000, 'web', pod), `back-off 10s restarting failed container=web pod=${pod}`);
  assert.equal(crashLoopMessage(80_000, 'web', pod), `back-off 1m20s restarting failed container=web pod=${pod}`);
  assert.equal(crashLoopMessage(300_000, 'web', pod), `back-off 5m0s restarting failed container=web pod=${pod}`);
  assert.equal(backOffEventMessage('web', pod), `Back-off restarting failed container web in pod ${pod}`);
});

test('K1: a liveness Success update does not sync the pod (no readiness trigger, W13); readiness and startup updates do', () => {
  const yaml = podManifest(`
containers:
  - {name: web, image: nginx, readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10}}
  - {name: side, image: busybox, livenessProbe: {tcpSocket: {port: 9000}, periodSeconds: 7}}`);
  const events = simulated(yaml, 'containers: {web: {readyAfter: 1000}}', 45);
  assert.deepEqual(
    only(events, 'result', 'side').map((e) => `${e.t} ${e.probe} ${e.value}`),
    ['7 liveness Success'],
  );
  // web is started and not ready, so every sync triggers its readiness worker: a sync at 7 would
  // have probed it then and moved its grid to 17, 27, 37.
  assert.deepEqual(attemptStartTimes(events, 'web', 'readiness'), [0, 0, 10, 20, 30, 40]);
});
