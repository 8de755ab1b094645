/**
 * A cluster session's snapshot with the cluster's verdicts beside ours (the `kubelet`,
 * `prediction`, `disagreement`, `clusterEvent` and `target` lines folded by `SessionState`), and
 * what the Probes view and the lenses say of them (src/extension/tree/format.ts,
 * src/core/session/clusterText.ts). The same in the real VS Code: test/extension/suite/clusterMode.vstest.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EngineEvent } from '../../src/core/engine/events';
import { clusterEventLine, disagreementDiagnostic, disagreementSentence, kubeletSuffix, kubeletWords, podsFor } from '../../src/core/session/clusterText';
import { containerCondition } from '../../src/core/session/headline';
import type { SessionSnapshot } from '../../src/core/session/snapshot';
import { SessionState } from '../../src/core/session/state';
import { presentContainer, presentPod, presentPodGroup, presentSession } from '../../src/extension/tree/format';

const ID = 'containerd://1111';
const RUNNING: EngineEvent = { type: 'container', t: 0, pod: 'web', container: 'web', containerId: ID, state: 'running', restartCount: 0 };
const TARGET: EngineEvent = { type: 'target', t: 0, pod: 'web', manifestPod: 'web', clusterPod: 'web-5d4f8b7c9-x2k4q', namespace: 'shop', podIP: '10.244.1.5' };
const OURS_READY: EngineEvent = { type: 'status', t: 2, pod: 'web', container: 'web', started: true, ready: true };
const KUBELET_NOT_READY: EngineEvent = { type: 'kubelet', t: 1, pod: 'web', container: 'web', started: true, ready: false, restartCount: 0 };
const REFUSED: EngineEvent = {
  type: 'clusterEvent',
  t: 3,
  pod: 'web',
  container: 'web',
  reason: 'Unhealthy',
  message: 'Readiness probe failed: Get "http://10.244.1.5:8080/ready": dial tcp 10.244.1.5:8080: connect: connection refused',
  eventType: 'Warning',
  count: 12,
};
const LOOPBACK = "the kubelet says web is not Ready (its probe of the pod IP is refused) while ours pass through port-forward, which containerd 1.7.27 connects to 127.0.0.1 inside the pod: the app likely listens on 127.0.0.1 only. Make it listen on 0.0.0.0 (or the pod IP).";
const OPEN: EngineEvent = { type: 'disagreement', t: 22, pod: 'web', container: 'web', state: 'open', ours: true, kubelet: false, cause: 'loopback-only', message: LOOPBACK };

function fold(events: readonly EngineEvent[], t = 30): SessionSnapshot {
  const state = new SessionState('cluster');
  for (const event of events) state.apply(event);
  return state.snapshot({ t, clock: { kind: 'wall' } });
}

test('the kubelet line sets the cluster\'s view of a container and of the pod, beside ours', () => {
  const snapshot = fold([TARGET, RUNNING, KUBELET_NOT_READY, { type: 'kubelet', t: 1, pod: 'web', ready: false }, OURS_READY, { type: 'pod', t: 2, pod: 'web', ready: true }]);
  const pod = snapshot.pods.get('web');
  assert.equal(pod?.ready, true);
  assert.equal(pod?.kubeletReady, false);
  assert.deepEqual(pod?.clusterPod, { name: 'web-5d4f8b7c9-x2k4q', namespace: 'shop', podIP: '10.244.1.5', manifestPod: 'web' });
  const container = pod?.containers.get('web');
  assert.equal(container?.ready, true);
  assert.deepEqual(container?.kubelet, { started: true, ready: false, restartCount: 0 });
  assert.equal(kubeletWords(container!.kubelet!), 'kubelet: not ready');
  // Not flagged until the comparer says they have differed long enough.
  assert.equal(kubeletSuffix(container!, true), 'kubelet: not ready');
});

test('an open disagreement is flagged with its explanation; a resolved one clears it', () => {
  const open = fold([TARGET, RUNNING, KUBELET_NOT_READY, OURS_READY, REFUSED, OPEN]);
  const container = open.pods.get('web')?.containers.get('web');
  assert.equal(container?.disagreement?.cause, 'loopback-only');
  assert.equal(kubeletSuffix(container!, true), '$(warning) kubelet: not ready');
  assert.equal(kubeletSuffix(container!, false), 'kubelet: not ready (disagrees)');
  assert.equal(containerCondition(container!, 'cluster').text, 'kubelet says not ready, ours ready');
  assert.equal(
    disagreementDiagnostic('web', container!.disagreement!),
    `web likely listens on 127.0.0.1 only: the kubelet's readiness probe is refused, ours passes\n${disagreementSentence(LOOPBACK)}`,
    'the cause first (the Problems panel shows one line), then the whole explanation',
  );
  const row = presentContainer('web', container, 'cluster');
  assert.equal(row.description, 'ready · restarts 0 · kubelet: not ready (disagrees)');
  assert.equal(row.icon.id, 'warning', 'a disagreement is a warning even while ours says ready');
  assert.match(row.tooltip.markdown, /The cluster's kubelet says: started, not Ready · restartCount 0\\\./);
  assert.match(row.tooltip.markdown, /\*\*Ours and the kubelet disagree\*\* \(loopback\\-only\): The kubelet says web is not Ready .* listens on 127\\\.0\\\.0\\\.1 only\\\./);
  const resolved = fold([TARGET, RUNNING, KUBELET_NOT_READY, OURS_READY, REFUSED, OPEN, { ...OPEN, t: 40, state: 'resolved', kubelet: true, cause: 'unexplained', message: 'our probes and the kubelet agree again: Ready' }]);
  assert.equal(resolved.pods.get('web')?.containers.get('web')?.disagreement, undefined);
});

test('a pending prediction is our kubelet\'s kill: "would restart now"; the cluster\'s restart confirms it and counts as the cluster\'s own', () => {
  const pending: EngineEvent = { type: 'prediction', t: 5, pod: 'web', container: 'web', probe: 'liveness', containerId: ID, state: 'pending', message: 'liveness would restart web now' };
  const predicted = fold([TARGET, RUNNING, pending]).pods.get('web')?.containers.get('web');
  assert.equal(predicted?.restarts, 0, 'a prediction is not a restart: the cluster counts its own');
  assert.equal(containerCondition(predicted!, 'cluster').text, 'would restart now · 0 restarts');
  assert.equal(presentContainer('web', predicted, 'cluster').description, 'would restart now (liveness failed) · restarts 0');
  const restarted: EngineEvent = { type: 'container', t: 9, pod: 'web', container: 'web', containerId: 'containerd://2222', state: 'running', restartCount: 1 };
  const confirmed: EngineEvent = { ...pending, t: 9, state: 'confirmed', message: 'the cluster restarted web (restart 1) 4 s after our liveness probe failed' };
  const after = fold([TARGET, RUNNING, pending, restarted, confirmed]).pods.get('web')?.containers.get('web');
  assert.equal(after?.killing, undefined);
  assert.equal(after?.restarts, 1);
  assert.equal(after?.prediction?.state, 'confirmed');
  const row = presentContainer('web', after, 'cluster');
  assert.equal(row.description, 'starting · restarts 1 (liveness)');
  assert.match(row.tooltip.markdown, /Restarts: 1, the cluster's; ours would have last restarted it for a failed liveness probe\./);
  assert.match(row.tooltip.markdown, /Prediction \(confirmed, t=9\.0s\): the cluster restarted web \\\(restart 1\\\) 4 s after/);
});

test('a missed prediction stops saying "would restart"', () => {
  const pending: EngineEvent = { type: 'prediction', t: 5, pod: 'web', container: 'web', probe: 'liveness', containerId: ID, state: 'pending', message: 'liveness would restart web now' };
  const missed: EngineEvent = { ...pending, t: 45, state: 'missed', message: 'the cluster did not stop web within 40 s' };
  const container = fold([TARGET, RUNNING, pending, missed]).pods.get('web')?.containers.get('web');
  assert.equal(container?.killing, undefined);
  assert.equal(container?.prediction?.state, 'missed');
});

test('the pod row: ours and the kubelet\'s Ready, where it is probed, the cluster\'s newest events first', () => {
  const killing: EngineEvent = { type: 'clusterEvent', t: 8, pod: 'web', container: 'web', reason: 'Killing', message: 'Container web failed liveness probe, will be restarted', eventType: 'Normal', count: 1 };
  const snapshot = fold([TARGET, RUNNING, OURS_READY, { type: 'pod', t: 2, pod: 'web', ready: true }, { type: 'kubelet', t: 2, pod: 'web', ready: false }, REFUSED, killing]);
  const row = presentPod('web', snapshot.pods.get('web'), 'cluster');
  assert.equal(row.description, 'Ready · kubelet: NotReady');
  assert.equal(row.icon.id, 'warning', 'ours and the cluster\'s differ: worth a look');
  // As read: without Markdown's escapes.
  const lines = row.tooltip.markdown.replace(/\\(.)/g, '$1').split('\n');
  assert.ok(lines.includes('Probed through pod web-5d4f8b7c9-x2k4q (10.244.1.5) in namespace shop.'), row.tooltip.markdown);
  assert.ok(lines.includes('The cluster says: **NotReady**.'));
  const events = lines.filter((l) => l.startsWith('- '));
  assert.equal(events.length, 2);
  assert.match(events[0] as string, /^- Normal Killing \(web\): Container web failed liveness probe/);
  assert.match(events[1] as string, /^- Warning Unhealthy ×12 \(web\): Readiness probe failed: Get "http:\/\/10\.244\.1\.5:8080\/ready": dial tcp/);
});

test('the pod keeps only the cluster\'s 5 newest events', () => {
  const events: EngineEvent[] = Array.from({ length: 8 }, (_, i) => ({ ...(REFUSED as Extract<EngineEvent, { type: 'clusterEvent' }>), t: i, count: i + 1 }));
  const kept = fold([TARGET, ...events]).pods.get('web')?.clusterEvents ?? [];
  assert.deepEqual(kept.map((e) => e.count), [4, 5, 6, 7, 8]);
});

test('--all-pods: each cluster pod under its own name, found for its manifest pod; the group row counts them', () => {
  const member = (name: string, ready: boolean): EngineEvent[] => [
    { type: 'target', t: 0, pod: name, manifestPod: 'web', clusterPod: name, namespace: 'shop' },
    { type: 'container', t: 0, pod: name, container: 'web', containerId: `containerd://${name}`, state: 'running', restartCount: 0 },
    { type: 'status', t: 1, pod: name, container: 'web', started: true, ready },
    { type: 'pod', t: 1, pod: name, ready },
  ];
  const snapshot = fold([...member('web-a', true), ...member('web-b', false)]);
  const pods = podsFor(snapshot.pods, 'web');
  assert.deepEqual(pods.map((p) => p.name), ['web-a', 'web-b']);
  assert.deepEqual(podsFor(snapshot.pods, 'web-a').map((p) => p.name), ['web-a'], 'a pod of its own name is itself');
  const group = presentPodGroup('web', pods, 'cluster');
  assert.equal(group.description, '2 pods · 1 Ready');
  assert.match(group.tooltip.markdown, /probed as 2 pods of the cluster, 1 Ready by our probes/);
});

test('the words: an event on one line, a disagreement as a sentence of its own', () => {
  assert.equal(clusterEventLine({ ...(REFUSED as Extract<EngineEvent, { type: 'clusterEvent' }>), message: 'Readiness probe failed:\n  refused', count: 1 }), 'Warning Unhealthy (web): Readiness probe failed: refused');
  assert.equal(disagreementSentence('the kubelet says web is Ready while our probes fail'), 'The kubelet says web is Ready while our probes fail.');
  assert.equal(disagreementSentence(LOOPBACK), LOOPBACK.charAt(0).toUpperCase() + LOOPBACK.slice(1));
});

test('the session row names the context and namespace it probes in, as the status bar does', () => {
  const state = fold([TARGET, RUNNING, OURS_READY, { type: 'pod', t: 2, pod: 'web', ready: true }]);
  const row = presentSession({ kind: 'cluster', label: 'web.yaml', detail: 'kind-dev · shop', state, startedAt: '12:01' });
  assert.equal(row.description, 'pod web Ready · kind-dev · shop');
  assert.equal(row.icon.id, 'cloud');
});

test('the session headline puts an open disagreement first, as a warning', () => {
  const state = fold([TARGET, RUNNING, KUBELET_NOT_READY, OURS_READY, { type: 'pod', t: 2, pod: 'web', ready: true }, REFUSED, OPEN]);
  const row = presentSession({ kind: 'cluster', label: 'web.yaml', detail: 'kind-dev · shop', state, startedAt: '12:01' });
  assert.equal(row.description, 'web: kubelet says not ready, ours ready · kind-dev · shop');
  assert.equal(row.icon.id, 'warning');
});
