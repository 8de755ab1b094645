import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EngineEvent } from '../../../src/core/engine/events';
import { hasClusterBand } from '../../../src/core/timeline/clusterLanes';
import { type ContainerLane, type PodLane, TimelineModel } from '../../../src/core/timeline/viewModel';
import { simulated, webPod } from '../../helpers/engine';
import { clusterSession } from './clusterSession';

function modelOf(events: readonly EngineEvent[]): TimelineModel {
  const model = new TimelineModel();
  model.append(events);
  return model;
}

const container = (model: TimelineModel) => model.lane('container:web/web') as ContainerLane;
const pod = (model: TimelineModel) => model.lane('pod:web') as PodLane;
const spans = <V>(list: readonly { start: number; end: number | undefined; value: V }[], show: (v: V) => string) => list.map((s) => `${s.start}-${s.end ?? '…'} ${show(s.value)}`);

test('kubelet lines: the kubelet\'s own Ready as a band per container and for the pod, changed only when what it says changes', () => {
  const model = modelOf(clusterSession());
  assert.deepEqual(spans(container(model).kubelet, (v) => `${v.ready ? 'Ready' : 'not ready'} started=${v.started} restarts=${v.restartCount}`), [
    '0-5 not ready started=true restarts=0',
    '5-40 Ready started=true restarts=0',
    '40-90 not ready started=true restarts=0',
    '90-108 Ready started=true restarts=0',
    '108-112 not ready started=false restarts=1',
    '112-200 Ready started=true restarts=1',
    '200-… not ready started=true restarts=0',
  ]);
  assert.deepEqual(spans(pod(model).kubelet, (v) => (v.ready ? 'Ready' : 'not ready')), ['0-5 not ready', '5-40 Ready', '40-90 not ready', '90-… Ready']);
  // Ours are untouched by the kubelet's.
  assert.deepEqual(spans(container(model).ready, String), ['2-… true']);
});

test('clusterEvent lines: markers on the container lane (the pod lane without a container), with their count, in time order even when listed late', () => {
  const events = clusterSession();
  const model = modelOf(events);
  assert.deepEqual(container(model).clusterEvents.map((m) => `${m.t} ${m.reason}×${m.count}${m.warning ? ' warning' : ''}`), ['38 Unhealthy×1 warning', '43 Unhealthy×2 warning', '106 Killing×1']);
  assert.deepEqual(pod(model).clusterEvents.map((m) => `${m.t} ${m.reason}`), ['198 Scheduled']);
  assert.equal(container(model).markers.length, 0, 'our own event markers stay ours');
  // An event the cluster listed when the watch started carries its own (earlier) time.
  model.append([{ type: 'clusterEvent', t: 1, pod: 'web', container: 'web', reason: 'Pulled', message: 'image pulled', eventType: 'Normal', count: 1 }]);
  assert.deepEqual(container(model).clusterEvents.map((m) => m.t), [1, 38, 43, 106]);
  assert.equal(model.events[container(model).clusterEvents[0]?.source as number]?.type, 'clusterEvent');
});

test('prediction lines: a pending kill, settled by the confirmed or missed line of the same container instance', () => {
  const lane = container(modelOf(clusterSession()));
  assert.deepEqual(
    lane.predictions.map((p) => `${p.t} ${p.state}${p.settled ? ` → ${p.settled.state}@${p.settled.t}` : ''}${p.predictedAt !== undefined ? ` (predicted @${p.predictedAt})` : ''}`),
    ['100 pending → confirmed@108', '108 confirmed (predicted @100)', '150 pending → missed@190', '190 missed (predicted @150)'],
  );
  // An outcome whose prediction the model does not hold (dropped) is still drawn, unlinked.
  const alone = container(modelOf([{ type: 'prediction', t: 9, pod: 'web', container: 'web', probe: 'startup', containerId: 'x', state: 'missed', message: 'm' }]));
  assert.deepEqual(alone.predictions.map((p) => [p.state, p.predictedAt]), [['missed', undefined]]);
});

test('disagreement lines: open → resolved is one stretch, with the cause and message of the open one and the words it ended with', () => {
  const lane = container(modelOf(clusterSession()));
  assert.equal(lane.disagreements.length, 1);
  const span = lane.disagreements[0];
  assert.deepEqual({ start: span?.start, end: span?.end, cause: span?.value.cause, ours: span?.value.ours, kubelet: span?.value.kubelet }, { start: 60, end: 90, cause: 'loopback-only', ours: true, kubelet: false });
  assert.equal(span?.value.message, 'the app likely listens on 127.0.0.1 only');
  assert.equal(span?.value.resolution, 'our probes and the kubelet agree again: Ready');
  // Open again; a second open while open, and a resolved with none open, change nothing.
  const d = (t: number, state: 'open' | 'resolved'): EngineEvent => ({ type: 'disagreement', t, pod: 'web', container: 'web', state, ours: false, kubelet: true, cause: 'pod-ip-only', message: `${state} ${t}` });
  const again = container(modelOf([d(1, 'resolved'), d(5, 'open'), d(7, 'open'), d(9, 'resolved')]));
  assert.deepEqual(spans(again.disagreements, (v) => `${v.cause} ${v.message} / ${v.resolution}`), ['5-9 pod-ip-only open 5 / resolved 9']);
});

test('target lines: the cluster pod probed, marked when it changes; a rollout\'s new containers are not restarts, a real restart is', () => {
  const model = modelOf(clusterSession());
  assert.deepEqual(pod(model).targets.map((g) => `${g.t} ${g.clusterPod} ${g.podIP} ${g.previous ?? '-'}`), ['0 web-a 10.244.1.6 -', '200 web-b 10.244.2.9 web-a']);
  assert.deepEqual(container(model).restarts.map((r) => `${r.t} ${r.containerId} ${r.restartCount}`), ['108 containerd://2 1']);
  assert.equal(container(model).lastContainerId, 'containerd://3');
});

test('only a cluster session\'s lanes have the cluster\'s band: a simulated one\'s have none, and nothing else changes', () => {
  const simulatedModel = modelOf(simulated(webPod('readinessProbe: {tcpSocket: {port: http}, periodSeconds: 5}'), '', 60));
  for (const lane of simulatedModel.lanes()) if (lane.kind !== 'probe') assert.equal(hasClusterBand(lane), false, lane.id);
  const model = modelOf(clusterSession());
  assert.equal(hasClusterBand(pod(model)), true);
  assert.equal(hasClusterBand(container(model)), true);
  assert.deepEqual([...model.lanes()].map((l) => l.id), ['pod:web', 'container:web/web', 'probe:web/web/readiness']);
});

test('cluster lines appended in pieces build the same lanes as appended at once (a live session)', () => {
  const events = clusterSession();
  const shape = (m: TimelineModel) => {
    const c = container(m);
    const p = pod(m);
    return JSON.stringify({ c: [c.kubelet, c.clusterEvents, c.predictions, c.disagreements, c.restarts], p: [p.kubelet, p.clusterEvents, p.targets], end: m.end });
  };
  const whole = modelOf(events);
  for (const size of [1, 3, 7]) {
    const pieces = new TimelineModel();
    for (let i = 0; i < events.length; i += size) pieces.append(events.slice(i, i + size));
    assert.equal(shape(pieces), shape(whole), `in pieces of ${size}`);
  }
});
