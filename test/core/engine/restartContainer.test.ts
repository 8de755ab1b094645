import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VirtualClock } from '../../../src/core/engine/clock';
import type { EngineEvent } from '../../../src/core/engine/events';
import { type DesiredPod, desiredPods } from '../../../src/core/engine/manager';
import { PodRuntime } from '../../../src/core/engine/podRuntime';
import { parseManifest } from '../../../src/core/manifest';
import { parseScenario } from '../../../src/core/scenario/parse';
import { SimulatedProcesses, SimulatedTarget } from '../../../src/core/targets/simulated';

const S = 1000;

/** A Pod `web` with one container `web` (port 8080) and the given pod-level fields and probes. */
function webPod(probes: string, podFields = ''): string {
  return [
    'apiVersion: v1',
    'kind: Pod',
    'metadata: {name: web}',
    'spec:',
    ...(podFields ? [`  ${podFields}`] : []),
    '  containers:',
    '    - name: web',
    '      image: nginx',
    '      ports: [{containerPort: 8080}]',
    ...probes.split('\n').filter(Boolean).map((line) => `      ${line.trim()}`),
    '',
  ].join('\n');
}

const READINESS = 'readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 5}';
const LIVENESS = 'livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: 3}';

function start(yaml: string, scenarioText = '') {
  const parsed = parseScenario(scenarioText);
  if (!parsed.ok) throw new Error(parsed.error);
  const clock = new VirtualClock();
  const events: EngineEvent[] = [];
  const pod = desiredPods(parseManifest(yaml))[0] as DesiredPod;
  const runtime = new PodRuntime(pod.identity, pod.spec, {
    clock,
    epoch: 0,
    kubeletStartedAt: -3600 * S,
    random: () => 0,
    target: new SimulatedTarget(parsed.scenario, clock),
    processes: new SimulatedProcesses(parsed.scenario, clock),
    emit: (e) => events.push(e),
    idScheme: 'sim',
  }).start();
  return { clock, events, runtime };
}

function containerLines(events: readonly EngineEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'container' ? [`${e.t} ${e.state} ${e.containerId} ${e.restartCount}${e.reason ? ` ${e.reason}` : ''}`] : []));
}

test('B2: a restarted (killed) container is started again at once the first time, without a Killing event', () => {
  const { clock, events, runtime } = start(webPod(READINESS));
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
  const { clock, events, runtime } = start(webPod(READINESS));
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
  const backOff = events.filter((e) => e.type === 'event' && e.reason === 'BackOff');
  assert.equal(backOff.length, 1);
});

test('a container waiting out its back-off is not running: nothing to restart', () => {
  const { clock, runtime } = start(webPod(READINESS));
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
  const { clock, events, runtime } = start(webPod(READINESS, 'restartPolicy: Never'));
  clock.advanceTo(5 * S);
  assert.equal(runtime.restartContainer('web'), 'stopped');
  clock.advanceTo(60 * S);
  assert.deepEqual(containerLines(events), ['0 running sim://web/web/0 0', '5 terminated sim://web/web/0 0 Error']);
  assert.equal(runtime.phase, 'Failed');
  assert.equal(runtime.restartContainer('web'), 'not-running');
});

test('K3: a restart during a liveness kill\'s grace period ends the kill now, once', () => {
  // Healthy until 5 s, then hangs: liveness fails at 10, 20, 30 → Killing at 31, grace 30 s.
  const { clock, events, runtime } = start(webPod(LIVENESS), 'containers: {web: {failAfter: 5}}');
  clock.advanceTo(40 * S);
  assert.equal(events.filter((e) => e.type === 'event' && e.reason === 'Killing').length, 1);
  assert.equal(runtime.restartContainer('web'), 'restarting');
  clock.advanceTo(100 * S);
  const lines = containerLines(events);
  assert.deepEqual(lines.slice(0, 3), ['0 running sim://web/web/0 0', '40 terminated sim://web/web/0 0 Error', '40 running sim://web/web/1 1']);
  assert.equal(lines.filter((l) => l.includes('sim://web/web/0 0 Error')).length, 1, 'the grace-period timer no longer fires');
});

test('a disposed runtime restarts nothing', () => {
  const { clock, runtime } = start(webPod(READINESS));
  clock.advanceTo(1 * S);
  runtime.dispose();
  assert.equal(runtime.restartContainer('web'), 'not-running');
  assert.equal(clock.pendingTimers, 0);
});
