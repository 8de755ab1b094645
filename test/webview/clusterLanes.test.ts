import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EngineEvent } from '../../src/core/engine/events';
import { containerLaneKey } from '../../src/core/timeline/laneKeys';
import { type ContainerLane, type ProbeLane, TimelineModel } from '../../src/core/timeline/viewModel';
import { type DescribeContext, describeHit, laneDetail, laneSummary } from '../../src/webview/timeline/words/describe';
import { clusterFacts } from '../../src/webview/timeline/words/describeCluster';
import { EventFeed } from '../../src/webview/timeline/model/feed';
import { type Hit, hitTest } from '../../src/webview/timeline/model/hitTest';
import { CLUSTER_CONTAINER_ROW, CLUSTER_POD_ROW, CONTAINER_ROW, layoutRows, NO_FILTERS, POD_ROW, ROW_HEIGHT, type Row } from '../../src/webview/timeline/model/layout';
import { itemTime, laneItems, sameHit, stepItem } from '../../src/webview/timeline/model/markCursor';
import { Viewport } from '../../src/webview/timeline/model/viewport';
import { clusterSession } from '../core/timeline/clusterSession';
import { simulated, webPod } from '../helpers/engine';

function setup(events: readonly EngineEvent[] = clusterSession()) {
  const model = new TimelineModel();
  model.append(events);
  const layout = layoutRows(model.lanes(), NO_FILTERS, new Set());
  const viewport = new Viewport();
  viewport.setWidth(1100);
  viewport.setRange(0, 220, { start: 0, end: model.end });
  const pod = layout.byId.get('pod:web') as Row;
  const container = layout.byId.get('container:web/web') as Row;
  const at = (row: Row, t: number, inRow: number) => hitTest(layout, viewport, viewport.toX(t), row.y + inRow, { hiddenOutcomes: new Set(), now: model.end });
  return { model, layout, viewport, pod, container, at };
}

function context(model: TimelineModel): DescribeContext {
  return { events: model.events, clock: { kind: 'virtual' }, now: model.end, containerOf: (lane: ProbeLane) => model.lane(containerLaneKey(lane.pod, lane.container)) as ContainerLane | undefined, capacity: 600000 };
}

const kubeletY = (row: typeof CLUSTER_CONTAINER_ROW | typeof CLUSTER_POD_ROW) => row.kubeletTop + row.kubeletHeight / 2;

test('rows: a cluster session\'s pod and container rows are taller (the kubelet\'s band under ours); a simulated session\'s are as they were', () => {
  const { pod, container, layout } = setup();
  assert.equal(pod.height, CLUSTER_POD_ROW.height);
  assert.equal(container.height, CLUSTER_CONTAINER_ROW.height);
  assert.equal((layout.byId.get('probe:web/web/readiness') as Row).height, ROW_HEIGHT.probe);
  const local = setup(simulated(webPod('readinessProbe: {tcpSocket: {port: http}, periodSeconds: 5}'), '', 60));
  assert.equal(local.pod.height, ROW_HEIGHT.pod);
  assert.equal(local.container.height, ROW_HEIGHT.container);
});

test('hit test, container row: the kubelet\'s Ready under ours, the cluster\'s events over it, a disagreement across both, predictions on the markers\' line', () => {
  const { container, at } = setup();
  const kubelet = at(container, 20, kubeletY(CLUSTER_CONTAINER_ROW));
  assert.equal(kubelet?.kind, 'kubelet');
  assert.equal(kubelet?.kind === 'kubelet' && kubelet.span.value.ready, true);
  const ours = at(container, 20, CONTAINER_ROW.readyTop + 1);
  assert.equal(ours?.kind, 'ready', 'our ready strip is still ours');
  const event = at(container, 43, CLUSTER_CONTAINER_ROW.eventTop + 2);
  assert.equal(event?.kind === 'clusterEvent' && `${event.event.reason}×${event.event.count}`, 'Unhealthy×2');
  // Under the events' line it is the band, even at an event: a stretch between frequent events can be pointed at.
  assert.equal(at(container, 43, kubeletY(CLUSTER_CONTAINER_ROW))?.kind, 'kubelet');
  const disagreement = at(container, 75, kubeletY(CLUSTER_CONTAINER_ROW));
  assert.equal(disagreement?.kind === 'disagreement' && disagreement.span.value.cause, 'loopback-only');
  const pending = at(container, 100, 3);
  assert.equal(pending?.kind === 'prediction' && pending.prediction.state, 'pending');
  const missed = at(container, 190, 3);
  assert.equal(missed?.kind === 'prediction' && missed.prediction.state, 'missed');
  assert.equal(at(container, 130, CONTAINER_ROW.bandTop + 4)?.kind, 'state', 'the state band under the markers\' line');
});

test('hit test, pod row: the cluster pod probed where it changed, the kubelet\'s pod Ready, the cluster\'s pod event', () => {
  const { pod, at } = setup();
  const target = at(pod, 200, POD_ROW.bandTop + 4);
  assert.equal(target?.kind === 'target' && target.target.clusterPod, 'web-b');
  assert.equal(at(pod, 150, POD_ROW.bandTop + 4)?.kind, 'ready');
  const kubelet = at(pod, 60, kubeletY(CLUSTER_POD_ROW));
  assert.equal(kubelet?.kind === 'kubelet' && kubelet.span.value.ready, false);
  const event = at(pod, 198, CLUSTER_POD_ROW.eventTop + 2);
  assert.equal(event?.kind === 'clusterEvent' && event.event.reason, 'Scheduled');
});

/** A tooltip as one text: its title, then its lines. */
function say(hit: Hit | undefined, model: TimelineModel): string {
  assert.ok(hit);
  const tip = describeHit(hit, context(model));
  return [tip.title, ...tip.lines].join('\n');
}

test('tooltips say whose verdict it is: the kubelet\'s, ours, the cluster\'s event and its count, the disagreement\'s cause, the prediction\'s outcome, the pod probed', () => {
  const { model: m, container, pod, at } = setup();
  const tell = (hit: Hit | undefined) => say(hit, m);
  assert.match(tell(at(container, 20, kubeletY(CLUSTER_CONTAINER_ROW))), /^Ready by the cluster's kubelet · web\/web\n5s → 40s \(35s\)\nstarted, restartCount 0\n/);
  assert.match(tell(at(container, 20, CONTAINER_ROW.readyTop + 1)), /^Ready by our probes · web\/web\n.*\nthrough the tunnel; the cluster's kubelet's is the band below$/);
  assert.match(tell(at(container, 43, CLUSTER_CONTAINER_ROW.eventTop + 2)), /^Unhealthy \(Warning\) · the cluster's event · web\/web\n43s\nReadiness probe failed: .*connection refused\nseen 2 times by the cluster\nfrom the cluster/);
  const disagreement = tell(at(container, 75, kubeletY(CLUSTER_CONTAINER_ROW)));
  assert.match(disagreement, /^Our probes and the kubelet disagree · web\/web\n1m → 1m30s \(30s\)\nour probes: Ready · the kubelet: not ready\nlikely cause: loopback-only\nthe app likely listens on 127\.0\.0\.1 only\nthen: our probes and the kubelet agree again: Ready$/);
  assert.match(tell(at(container, 100, 3)), /^Predicted kill \(liveness\) · web\/web\n1m40s\nliveness would restart web now\nthen confirmed at 1m48s: the cluster restarted web/);
  assert.match(tell(at(container, 190, 3)), /^Prediction missed \(liveness\) · web\/web\n3m10s\nthe cluster did not stop web within 40 s\npredicted at 2m30s \(40s before\)/);
  assert.match(tell(at(pod, 200, POD_ROW.bandTop + 4)), /^Probing web-b · web\n3m20s\nnamespace shop, pod IP 10\.244\.2\.9\nwas web-a: the cluster replaced the pod/);
  // A local session's ready says nothing of a kubelet.
  const local = setup(simulated(webPod('readinessProbe: {tcpSocket: {port: http}, periodSeconds: 5}'), '', 60));
  const ready = local.at(local.container, 30, CONTAINER_ROW.readyTop + 1);
  assert.equal(ready?.kind, 'ready');
  assert.doesNotMatch(say(ready, local.model), /kubelet|our probes/);
});

test('the lane list: summaries add the kubelet\'s verdict, a disagreement open now, predictions and the pod probed; details the cluster pod', () => {
  const { model } = setup();
  assert.equal(laneSummary(model.lane('pod:web') as never), 'pod web: Ready, the kubelet: Ready, probing web-b, 1 cluster event');
  assert.equal(laneSummary(model.lane('container:web/web') as never), 'web / web: running, 1 restart, ready, the kubelet: not ready, 2 kills predicted, 1 confirmed, 1 missed, 3 cluster events');
  assert.equal(laneDetail(model.lane('pod:web') as never), '→ web-b');
  const open = setup(clusterSession().filter((e) => !(e.type === 'disagreement' && e.state === 'resolved')));
  assert.match(laneSummary(open.model.lane('container:web/web') as never), /disagrees with the kubelet \(loopback-only\)/);
  assert.equal(laneDetail(open.model.lane('container:web/web') as never), '1 restart · ≠ kubelet');
});

test('keyboard path: a container\'s and a pod\'s cluster items are stepped through in time order with the rest', () => {
  const { container, pod, viewport } = setup();
  const kinds = laneItems(container).map((item) => `${item.kind}@${itemTime(item)}`);
  for (const expected of ['kubelet@5', 'clusterEvent@38', 'disagreement@60', 'prediction@100', 'prediction@108', 'restart@108']) assert.ok(kinds.includes(expected), `${expected} in ${kinds.join(' ')}`);
  const times = laneItems(container).map(itemTime);
  assert.deepEqual(times, [...times].sort((a, b) => a - b));
  assert.ok(laneItems(pod).some((item) => item.kind === 'target'));
  // Stepping right from the disagreement reaches the next item, and the same item again is the same hit.
  const items = laneItems(container);
  const disagreement = items.find((item) => item.kind === 'disagreement');
  const next = stepItem(container, 'ArrowRight', disagreement, viewport, new Set());
  assert.ok(next && !sameHit(next, disagreement) && itemTime(next) >= 60);
  assert.ok(sameHit(laneItems(container).find((item) => item.kind === 'clusterEvent'), items.find((item) => item.kind === 'clusterEvent')));
  const [first, second] = items.filter((item) => item.kind === 'clusterEvent');
  assert.ok(first && second && !sameHit(first, second), 'two of the cluster\'s events are two items');
});

test('a live session: the first kubelet line for a lane already drawn lays the rows out again (it grows the cluster\'s band)', () => {
  const events = clusterSession();
  const feed = new EventFeed(false);
  // Our lines first (a local-looking start), then the cluster's.
  feed.reset(events.filter((e) => e.type === 'worker' || e.type === 'container' || e.type === 'status'), [], 10);
  const before = feed.structure;
  assert.equal(feed.hasCluster, false);
  assert.equal(layoutRows(feed.model.lanes(), NO_FILTERS, new Set()).byId.get('container:web/web')?.height, ROW_HEIGHT.container);
  feed.append([{ type: 'kubelet', t: 11, pod: 'web', container: 'web', started: true, ready: true, restartCount: 0 }], [], 11);
  assert.ok(feed.structure > before, 'laid out again');
  assert.equal(feed.hasCluster, true);
  assert.equal(layoutRows(feed.model.lanes(), NO_FILTERS, new Set()).byId.get('container:web/web')?.height, CLUSTER_CONTAINER_ROW.height);
  const again = feed.structure;
  feed.append([{ type: 'kubelet', t: 12, pod: 'web', container: 'web', started: true, ready: false, restartCount: 0 }], [], 12);
  assert.equal(feed.structure, again, 'more of the cluster\'s lines: no new layout');
});

test('the test hooks\' view of the cluster: the kubelet\'s spans, events with counts, predictions, disagreements, pods probed; nothing for a local lane', () => {
  const { model } = setup();
  assert.deepEqual(clusterFacts(model.lane('container:web/web') as never), {
    kubelet: [
      { start: 0, end: 5, ready: false },
      { start: 5, end: 40, ready: true },
      { start: 40, end: 90, ready: false },
      { start: 90, end: 108, ready: true },
      { start: 108, end: 112, ready: false },
      { start: 112, end: 200, ready: true },
      { start: 200, end: null, ready: false },
    ],
    events: ['Unhealthy×1', 'Unhealthy×2', 'Killing×1'],
    predictions: ['pending', 'confirmed', 'pending', 'missed'],
    disagreements: [{ start: 60, end: 90, cause: 'loopback-only' }],
    targets: [],
  });
  assert.deepEqual(clusterFacts(model.lane('pod:web') as never)?.targets, ['web-a', 'web-b']);
  const local = setup(simulated(webPod('readinessProbe: {tcpSocket: {port: http}, periodSeconds: 5}'), '', 60));
  assert.equal(clusterFacts(local.model.lane('container:web/web') as never), undefined);
});
