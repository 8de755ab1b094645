/**
 * The recording index the insights read (src/core/history/history.ts): instances and what ended
 * them (K2 kills, exits, deletion), attempts per instance, the config in force, pauses, `--at`,
 * and the kill mode a header implies — over real engine runs on a virtual clock.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EngineEvent } from '../../../src/core/engine/events';
import { buildHistory, type ContainerHistory, instanceAt, pausedDuring, recordingKills } from '../../../src/core/history/history';
import { runHeader } from '../../../src/core/timeline/jsonl';
import { simulated, webPod } from '../../helpers/engine';

const LIVENESS = 'livenessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 10, failureThreshold: 3}';
const READINESS = 'readinessProbe: {httpGet: {path: /ready, port: 8080}, periodSeconds: 5}';

function containerOf(events: readonly EngineEvent[], until?: number): ContainerHistory {
  const history = buildHistory(runHeader({ mode: 'simulate' }), events, until === undefined ? {} : { until });
  const container = history.pods.get('web')?.containers.get('web');
  assert.ok(container, 'the container is indexed');
  return container;
}

test('K2: each instance a liveness failure killed ends with that probe as its cause and cites its Killing event', () => {
  const events = simulated(webPod(LIVENESS), 'containers: {web: {readyAfter: 1000}}', 300);
  const container = containerOf(events);
  assert.ok(container.instances.length >= 3, `several instances, got ${container.instances.length}`);
  for (const instance of container.instances.slice(0, -1)) {
    assert.equal(instance.end?.cause, 'liveness');
    const killing = instance.end?.killing;
    assert.ok(killing);
    assert.equal(events[killing.index], killing.event, 'the cited index is the Killing line');
    assert.equal(killing.event.reason, 'Killing');
    assert.equal(events[instance.end!.terminated.index]?.type, 'container');
  }
  // Every attempt sits in the instance whose ID it carries.
  for (const instance of container.instances) {
    for (const attempt of instance.attempts.get('liveness') ?? []) assert.equal(attempt.event.containerId, instance.containerId);
  }
  const all = container.probes.get('liveness')?.attempts.length ?? 0;
  const perInstance = container.instances.reduce((n, i) => n + (i.attempts.get('liveness')?.length ?? 0), 0);
  assert.equal(perInstance, all, 'no attempt is lost between the probe and its instances');
});

test('an instance that exits by itself ends with cause exit, no Killing', () => {
  const events = simulated(webPod(READINESS), 'containers: {web: {readyAfter: 0, exitAfter: 30}}', 45);
  const first = containerOf(events).instances[0];
  assert.equal(first?.end?.cause, 'exit');
  assert.equal(first?.end?.killing, undefined);
  assert.equal(first?.end?.terminated.event.t, 30);
});

test('A5: containers of a deleted pod end with cause deletion', () => {
  const events = simulated(webPod(READINESS), 'containers: {web: {readyAfter: 0, stopAfter: 1}}\npod: {deleteAfter: 20}', 60);
  assert.equal(containerOf(events).instances[0]?.end?.cause, 'deletion');
});

test('the workers give the config in force; results and statuses keep their order', () => {
  const events = simulated(webPod(`${READINESS}\n${LIVENESS}`), 'containers: {web: {readyAfter: 12}}', 60);
  const container = containerOf(events);
  assert.deepEqual([...container.probes.keys()], ['readiness', 'liveness'], 'in the order the recording names them');
  assert.equal(container.probes.get('readiness')?.workers.at(-1)?.event.periodSeconds, 5);
  const ready = container.statuses.find((s) => s.event.ready);
  assert.ok(ready && ready.event.t >= 12, 'ready once the app answers');
  const times = container.probes.get('readiness')?.attempts.map((a) => a.event.t) ?? [];
  assert.deepEqual(times, [...times].sort((a, b) => a - b));
});

test('--at: only the lines up to that time are indexed, and instanceAt finds the one running then', () => {
  const events = simulated(webPod(LIVENESS), 'containers: {web: {readyAfter: 1000}}', 300);
  const full = containerOf(events);
  const early = containerOf(events, 35);
  assert.ok(early.instances.length < full.instances.length);
  assert.ok((early.probes.get('liveness')?.attempts ?? []).every((a) => a.event.t <= 35));
  const second = full.instances[1];
  assert.ok(second);
  assert.equal(instanceAt(full, second.startedAt + 1), second);
  assert.equal(instanceAt(full, -1), undefined);
});

test('pause lines become spans, open while the debugger still holds the program', () => {
  const events: EngineEvent[] = [
    { type: 'pause', t: 10, pod: 'web', state: 'paused', debugSession: 'Launch api' },
    { type: 'pause', t: 25, pod: 'web', state: 'continued', debugSession: 'Launch api' },
    { type: 'pause', t: 40, pod: 'web', state: 'paused', debugSession: 'Launch api' },
  ];
  const pod = buildHistory(undefined, events).pods.get('web');
  assert.ok(pod);
  assert.deepEqual(pod.pauses, [
    { from: 10, to: 25, debugSession: 'Launch api' },
    { from: 40, to: undefined, debugSession: 'Launch api' },
  ]);
  assert.equal(pausedDuring(pod, 26, 39), false);
  assert.equal(pausedDuring(pod, 24, 26), true);
  assert.equal(pausedDuring(pod, 1000, 1001), true, 'still paused at the end');
});

test('the kill mode a header implies: simulations carry kills out, local runs report them, clusters own them', () => {
  assert.equal(recordingKills(runHeader({ mode: 'simulate' })), 'carried-out');
  assert.equal(recordingKills(runHeader({ mode: 'run', target: 'local' })), 'reported');
  assert.equal(recordingKills(runHeader({ mode: 'run', target: 'cluster' })), 'cluster');
  assert.equal(recordingKills(runHeader({ mode: 'session', kind: 'local' })), 'reported');
  assert.equal(recordingKills(runHeader({ mode: 'session', kind: 'simulated' })), 'carried-out');
  assert.equal(recordingKills(undefined, [{ type: 'kubelet', t: 0, pod: 'p', ready: true }]), 'cluster');
  assert.equal(recordingKills(undefined), 'carried-out');
});

test('a wall-clock header gives the start time; a simulation has none', () => {
  assert.equal(buildHistory(runHeader({ startedAt: '2026-11-24T12:00:00.000Z' }), []).startedAtMs, Date.parse('2026-11-24T12:00:00.000Z'));
  assert.equal(buildHistory(runHeader({ mode: 'simulate' }), []).startedAtMs, undefined);
});
