import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VirtualClock } from '../../../src/core/base/clock';
import type { EngineEvent } from '../../../src/core/engine/events';
import { desiredPods } from '../../../src/core/engine/manager';
import { type ObservedContainer, ObservedPodRuntime } from '../../../src/core/engine/observedPod';
import type { AttemptRequest, ProbeTarget } from '../../../src/core/engine/target';
import { parseManifest } from '../../../src/core/manifest';
import type { ProbeOutcome } from '../../../src/core/probers/types';
import { webPod } from '../../helpers/engine';

/** A target whose answer the test sets, recording each attempt's container instance and time. */
class ScriptedTarget implements ProbeTarget {
  answer: ProbeOutcome = { result: 'success', output: '' };
  readonly attempts: { readonly t: number; readonly containerId: string; readonly probe: string }[] = [];

  constructor(private readonly clock: VirtualClock) {}

  attempt(request: AttemptRequest, done: (outcome: ProbeOutcome) => void): void {
    this.attempts.push({ t: this.clock.now() / 1000, containerId: request.containerId, probe: request.type });
    done(this.answer);
  }

  dispose(): void {}
}

function observedWeb(probes: string, podFields = '') {
  const clock = new VirtualClock();
  const events: EngineEvent[] = [];
  const target = new ScriptedTarget(clock);
  const [pod] = desiredPods(parseManifest(webPod(probes, podFields)));
  assert.ok(pod);
  const runtime = new ObservedPodRuntime(pod.identity, pod.spec, { clock, epoch: 0, kubeletStartedAt: -3_600_000, random: () => 0, target, emit: (e) => events.push(e) }).start();
  const running = (containerId: string, startedAtSeconds: number, extra: Partial<ObservedContainer> = {}): ObservedContainer => ({
    name: 'web',
    containerId,
    state: 'running',
    startedAt: startedAtSeconds * 1000,
    restartCount: 0,
    started: true,
    ready: true,
    ...extra,
  });
  const observe = (container: ObservedContainer, ready = container.ready) => runtime.observe({ phase: 'Running', deleting: false, ready, containers: [container] });
  return { clock, events, target, runtime, running, observe };
}

const of = <T extends EngineEvent['type']>(events: readonly EngineEvent[], type: T) => events.filter((e): e is Extract<EngineEvent, { type: T }> => e.type === type);

test('W5 (observed): no attempt before the cluster reports the container; initialDelaySeconds counts from its real start', () => {
  const { clock, target, running, observe } = observedWeb('readinessProbe: {tcpSocket: {port: 8080}, initialDelaySeconds: 20, periodSeconds: 5}');
  clock.advanceBy(12_000);
  assert.equal(target.attempts.length, 0, 'no container observed yet: W5 step 3');
  // The container started at t = 4, so its delay ends at t = 24. Seen at t = 12, started and not
  // ready, it pokes the readiness worker (W13): that tick, within the delay, restarts the grid
  // (17, 22 within the delay too), and the first attempt is at 27.
  observe(running('containerd://a', 4));
  clock.advanceBy(30_000);
  const first = target.attempts[0];
  assert.ok(first);
  assert.equal(first.t, 27);
  assert.equal(first.containerId, 'containerd://a');
});

test('S2 (observed): our ready comes from our probes; the kubelet\'s own verdict is its own line', () => {
  const { clock, events, target, running, observe } = observedWeb('readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 1}');
  target.answer = { result: 'failure', output: 'dial tcp 10.244.1.5:8080: connect: connection refused' };
  observe(running('containerd://a', 0));
  clock.advanceBy(5_000);
  const ours = of(events, 'status').at(-1);
  assert.deepEqual([ours?.started, ours?.ready], [true, false]);
  const kubelet = of(events, 'kubelet');
  assert.deepEqual(
    kubelet.map((e) => [e.container, e.ready]),
    [
      ['web', true],
      [undefined, true],
    ],
  );
  assert.equal(of(events, 'pod').at(-1)?.ready, false);
});

test('K2 (observed): a liveness failure is a prediction, confirmed when the cluster restarts the container', () => {
  const { clock, events, target, running, observe } = observedWeb('livenessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 2, failureThreshold: 2}');
  observe(running('containerd://a', 0));
  clock.advanceBy(3_000);
  target.answer = { result: 'failure', output: 'HTTP probe failed with statuscode: 500' };
  clock.advanceBy(6_000);
  const [pending] = of(events, 'prediction');
  assert.equal(pending?.state, 'pending');
  assert.equal(pending?.message, 'liveness would restart web now');
  assert.equal(of(events, 'event').filter((e) => e.reason === 'Killing').length, 0, 'no kill of ours: the cluster owns the container');
  // W9: held until a new container: no more liveness attempts on containerd://a.
  const before = target.attempts.length;
  clock.advanceBy(10_000);
  assert.equal(target.attempts.length, before);
  // The cluster restarts it: a new id, restartCount 1; the hold lifts (W6) and probing resumes on the new instance.
  target.answer = { result: 'success', output: '' };
  observe(running('containerd://b', clock.now() / 1000, { restartCount: 1, ready: false }));
  clock.advanceBy(4_000);
  const settled = of(events, 'prediction').at(-1);
  assert.equal(settled?.state, 'confirmed');
  assert.match(settled?.message ?? '', /^the cluster restarted web \(restart 1\) \d+ s after our liveness probe failed$/);
  assert.ok(target.attempts.some((a) => a.containerId === 'containerd://b'));
  assert.equal(of(events, 'container').at(-1)?.restartCount, 1);
});

test('K2 (observed): a prediction the cluster does not carry out within the grace period and a period is missed', () => {
  const { clock, events, target, running, observe } = observedWeb('livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 5, failureThreshold: 1}', 'terminationGracePeriodSeconds: 30');
  target.answer = { result: 'failure', output: 'dial tcp 10.244.1.5:8080: connect: connection refused' };
  observe(running('containerd://a', 0));
  clock.advanceBy(6_000);
  const pending = of(events, 'prediction').at(-1);
  assert.equal(pending?.state, 'pending');
  clock.advanceTo(((pending?.t ?? 0) + 44) * 1000);
  assert.equal(of(events, 'prediction').at(-1)?.state, 'pending', 'still within 30 s grace + 5 s period + 10 s');
  clock.advanceBy(2_000);
  const missed = of(events, 'prediction').at(-1);
  assert.equal(missed?.state, 'missed');
  assert.equal(missed?.message, "the cluster did not stop web within 45 s: its kubelet's liveness probe did not fail as ours did");
});

test('K2 (observed): restartPolicy Never predicts a kill, not a restart', () => {
  const { clock, events, target, running, observe } = observedWeb('livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 1, failureThreshold: 1}', 'restartPolicy: Never');
  target.answer = { result: 'failure', output: 'refused' };
  observe(running('containerd://a', 0));
  clock.advanceBy(3_000);
  assert.equal(of(events, 'prediction')[0]?.message, 'liveness would kill web now');
});

test('W6 (observed): a rollout\'s new pod is a new container instance: results start over, the initial delay counts again', () => {
  const { clock, events, target, running, observe } = observedWeb('startupProbe: {tcpSocket: {port: 8080}, initialDelaySeconds: 10, periodSeconds: 1}');
  observe(running('containerd://old', 0));
  clock.advanceBy(15_000);
  assert.equal(of(events, 'status').at(-1)?.started, true);
  observe(running('containerd://new', 15, { restartCount: 0, started: false, ready: false }));
  clock.advanceBy(5_000);
  assert.equal(of(events, 'status').at(-1)?.started, false, 'a new instance has not started until its own startup probe succeeds');
  assert.ok(!target.attempts.some((a) => a.containerId === 'containerd://new'), 'its initial delay runs from its own start');
  clock.advanceBy(7_000);
  assert.ok(target.attempts.some((a) => a.containerId === 'containerd://new'));
  assert.equal(of(events, 'status').at(-1)?.started, true);
});
