import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readClusterPod, choosePod, observedPodOf } from '../../../src/core/cluster/clusterPod';
import { podListPath } from '../../../src/core/cluster/podFollower';
import { type DisagreementEvidence, explainDisagreement } from '../../../src/core/cluster/disagreementCause';
import { UNKNOWN_RUNTIME } from '../../../src/core/cluster/nodeRuntime';
import { VerdictComparer } from '../../../src/core/cluster/verdicts';
import { VirtualClock } from '../../../src/core/base/clock';
import type { EngineEvent } from '../../../src/core/engine/events';
import { desiredPods } from '../../../src/core/engine/manager';
import { parseManifest } from '../../../src/core/manifest';

const REFUSED_BY_KUBELET = 'Readiness probe failed: Get "http://10.244.1.5:8080/ready": dial tcp 10.244.1.5:8080: connect: connection refused';

/** Evidence of one container: what is not given was not seen. */
function evidence(over: Partial<DisagreementEvidence>): DisagreementEvidence {
  return { container: 'web', oursReady: true, ourFailure: undefined, ourErrorOnly: undefined, kubeletFailure: undefined, runtime: UNKNOWN_RUNTIME, runtimeRefusal: undefined, ...over };
}

test('disagreement: ours Ready, the kubelet refused at the pod IP → the app listens on 127.0.0.1 only, where the runtime connects', () => {
  const why = explainDisagreement(evidence({ kubeletFailure: REFUSED_BY_KUBELET, runtime: { name: 'containerd', version: '1.7.27', runtimeClass: undefined } }));
  assert.equal(why.cause, 'loopback-only');
  assert.match(why.message, /which containerd 1\.7\.27 connects to 127\.0\.0\.1 inside the pod: the app likely listens on 127\.0\.0\.1 only/);
  assert.match(explainDisagreement(evidence({ kubeletFailure: REFUSED_BY_KUBELET, runtime: { name: 'cri-o', version: undefined, runtimeClass: undefined } })).message, /which the node's runtime \(CRI-O\) connects/);
});

test('disagreement: ours refused on the loopback, the kubelet Ready → the app listens on the pod IP only', () => {
  const refused = 'Get "http://10.244.1.5:8080/ready": dial tcp 10.244.1.5:8080: connect: connection refused';
  assert.equal(explainDisagreement(evidence({ oursReady: false, ourFailure: refused })).cause, 'pod-ip-only');
  assert.equal(explainDisagreement(evidence({ oursReady: false, ourFailure: 'HTTP probe failed with statuscode: 403' })).cause, 'host-or-source');
  assert.equal(explainDisagreement(evidence({ kubeletFailure: 'Readiness probe failed: context deadline exceeded (Client.Timeout exceeded while awaiting headers)' })).cause, 'kubelet-timeout');
});

test('disagreement: said only after the verdicts differ for 20 s, and resolved when they agree', () => {
  const clock = new VirtualClock();
  const said: EngineEvent[] = [];
  const comparer = new VerdictComparer(clock, 0, (e) => said.push(e));
  comparer.see({ type: 'kubelet', t: 0, pod: 'web', container: 'web', started: true, ready: false, restartCount: 0 });
  comparer.see({ type: 'clusterEvent', t: 0, pod: 'web', container: 'web', reason: 'Unhealthy', message: REFUSED_BY_KUBELET, eventType: 'Warning', count: 3 });
  comparer.see({ type: 'status', t: 0, pod: 'web', container: 'web', started: true, ready: true });
  clock.advanceBy(19_000);
  assert.equal(said.length, 0, 'a short difference is the two schedules, not a disagreement');
  clock.advanceBy(1_000);
  const open = said[0];
  assert.equal(open?.type === 'disagreement' && open.state, 'open');
  assert.equal(open?.type === 'disagreement' && open.cause, 'loopback-only');
  comparer.see({ type: 'kubelet', t: 25, pod: 'web', container: 'web', started: true, ready: true, restartCount: 0 });
  assert.equal(said[1]?.type === 'disagreement' && said[1].state, 'resolved');
  comparer.dispose();
});

const POD = {
  kind: 'Pod',
  metadata: { name: 'web-7d9c-x2x', namespace: 'shop', uid: 'u1', labels: { app: 'web' } },
  spec: { containers: [{ name: 'web' }] },
  status: {
    phase: 'Running',
    podIP: '10.244.1.5',
    conditions: [{ type: 'Ready', status: 'True' }],
    containerStatuses: [{ name: 'web', containerID: 'containerd://abc', ready: true, started: true, restartCount: 2, state: { running: { startedAt: '2026-11-24T10:00:00Z' } } }],
  },
};

test('a cluster pod from the API: its containers\' ids, restarts and start on the engine clock', () => {
  const pod = readClusterPod(POD);
  assert.ok(pod);
  assert.deepEqual([pod.name, pod.namespace, pod.podIP, pod.phase, pod.ready], ['web-7d9c-x2x', 'shop', '10.244.1.5', 'Running', true]);
  const observed = observedPodOf(pod, (wall) => wall - Date.parse('2026-11-24T10:00:00Z') + 500);
  assert.deepEqual(observed.containers[0], { name: 'web', containerId: 'containerd://abc', restartCount: 2, started: true, ready: true, state: 'running', startedAt: 500 });
});

test('the pod to probe: the one probed so far while it runs, else a Ready one, never one being deleted', () => {
  const a = readClusterPod({ ...POD, metadata: { ...POD.metadata, name: 'web-a' }, status: { ...POD.status, conditions: [] } });
  const b = readClusterPod({ ...POD, metadata: { ...POD.metadata, name: 'web-b' } });
  const gone = readClusterPod({ ...POD, metadata: { ...POD.metadata, name: 'web-c', deletionTimestamp: '2026-11-24T10:00:00Z' } });
  assert.ok(a && b && gone);
  assert.equal(choosePod([a, b, gone], undefined)?.name, 'web-b');
  assert.equal(choosePod([a, b], 'web-a')?.name, 'web-a', 'a flapping Ready does not move the probes');
  assert.equal(choosePod([gone], 'web-c'), undefined);
});

test('the list a manifest pod is found by: a Pod by name, a workload by its selector, in its namespace', () => {
  const [pod, deployment] = desiredPods(
    parseManifest(`apiVersion: v1
kind: Pod
metadata: {name: web}
spec: {containers: [{name: web, image: nginx}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  selector: {matchLabels: {app: api, tier: back}}
  template:
    metadata: {labels: {app: api, tier: back}}
    spec: {containers: [{name: api, image: api}]}
`),
  );
  assert.ok(pod && deployment);
  assert.equal(podListPath(pod.spec, 'shop'), '/api/v1/namespaces/shop/pods?fieldSelector=metadata.name%3Dweb');
  assert.equal(podListPath(deployment.spec, 'shop'), '/api/v1/namespaces/shop/pods?labelSelector=app%3Dapi%2Ctier%3Dback');
});
