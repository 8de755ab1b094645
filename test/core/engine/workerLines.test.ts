import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseManifest } from '../../../src/core/manifest';
import { desiredPods } from '../../../src/core/engine/manager';
import { only, simulated, startPod, webPod } from '../../helpers/engine';

const PROBES = [
  'readinessProbe: {tcpSocket: {port: http}, periodSeconds: 5}',
  'livenessProbe: {httpGet: {path: /healthz, port: http}, failureThreshold: 2, periodSeconds: 10}',
  'startupProbe: {exec: {command: [cat, /tmp/started]}, failureThreshold: 30}',
].join('\n');

test('W1: a worker line per probe when the pod starts, in the order the manifest writes them, with what its lane needs', () => {
  const events = simulated(webPod(PROBES), '', 1);
  assert.deepEqual(
    only(events, 'worker').map((e) => `${e.t} ${e.probe} ${e.handler} p=${e.periodSeconds} f=${e.failureThreshold} s=${e.successThreshold} d=${e.initialDelaySeconds} to=${e.timeoutSeconds}`),
    ['0 readiness tcpSocket :8080 (port http) p=5 f=3 s=1 d=0 to=1', '0 liveness httpGet http://:8080/healthz (port http) p=10 f=2 s=1 d=0 to=1', '0 startup exec cat /tmp/started p=10 f=30 s=1 d=0 to=1'],
  );
});

test('W1: an edited probe gets a new worker, and a new worker line', () => {
  const run = startPod(webPod(PROBES));
  run.clock.advanceBy(30_000);
  const edited = desiredPods(parseManifest(webPod(PROBES.replace('failureThreshold: 2', 'failureThreshold: 4'))))[0];
  assert.ok(edited);
  const liveness = edited.spec.containers[0]?.probe('liveness');
  run.runtime.replaceProbe('web', liveness, 'liveness');
  run.clock.advanceBy(30_000);
  const workers = only(run.events, 'worker').filter((e) => e.probe === 'liveness');
  assert.deepEqual(
    workers.map((e) => e.failureThreshold),
    [2, 4],
  );
  assert.ok((workers[1]?.t ?? 0) >= 30, 'the replacement starts when the edit lands');
});

test('P3/K2: Unhealthy and ProbeWarning events name their probe; a probe-caused Killing names its cause, a deletion none', () => {
  const events = simulated(
    webPod('livenessProbe: {httpGet: {path: /healthz, port: 8080}, failureThreshold: 1}\nreadinessProbe: {httpGet: {path: /ready, port: 8080}}'),
    'containers: {web: {probes: {readiness: [{from: 0, outcome: warning}], liveness: {attempts: [success, failure, success]}}}}\npod: {deleteAfter: 60}',
    120,
  );
  const kubelet = only(events, 'event');
  assert.ok(kubelet.some((e) => e.reason === 'ProbeWarning' && e.probe === 'readiness'));
  assert.ok(kubelet.some((e) => e.reason === 'Unhealthy' && e.probe === 'liveness' && e.message.startsWith('Liveness probe failed')));
  const kills = kubelet.filter((e) => e.reason === 'Killing');
  assert.deepEqual(
    kills.map((e) => `${e.message.replace(/\(.*\)/, '(…)')} · ${e.probe ?? '-'}`),
    ['Container web failed liveness probe, will be restarted · liveness', 'Deleting pod web_default(…) · -', 'Stopping container web · -'],
  );
});
