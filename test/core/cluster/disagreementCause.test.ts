import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type DisagreementEvidence, explainDisagreement } from '../../../src/core/cluster/disagreementCause';
import { dialledAddresses, dialWords, readRuntimeVersion, runtimeWords, UNKNOWN_RUNTIME } from '../../../src/core/cluster/nodeRuntime';
import { VerdictComparer } from '../../../src/core/cluster/verdicts';
import { VirtualClock } from '../../../src/core/base/clock';
import type { EngineEvent } from '../../../src/core/engine/events';

// Why our readiness and the cluster kubelet's differ, said only as far as the evidence goes: what
// each side last said, and what the node's runtime does with a port-forward (containerd 1.7–2.3
// and CRI-O dial localhost inside the pod; containerd #14074 falls back to the pod IP).

const KUBELET_REFUSED = 'Readiness probe failed: Get "http://10.244.1.5:8080/ready": dial tcp 10.244.1.5:8080: connect: connection refused';
const OURS_REFUSED = 'Get "http://10.244.1.5:8080/ready": dial tcp 10.244.1.5:8080: connect: connection refused';
const CONTAINERD_LOOPBACK_ONLY =
  'error forwarding port 8080 to pod 4b2f, uid : failed to execute portforward in network namespace "/var/run/netns/cni-1": failed to connect to localhost:8080 inside namespace "4b2f", IPv4: dial tcp4 127.0.0.1:8080: connect: connection refused IPv6 dial tcp6 [::1]:8080: connect: connection refused ';
const CONTAINERD_POD_IP_TOO = 'error forwarding port 8080 to pod 4b2f, uid : failed to execute portforward in network namespace "/var/run/netns/cni-1": dial tcp 10.244.1.5:8080: connect: connection refused';
const CRIO = 'error forwarding port 8080 to pod 4b2f, uid : port forward into network namespace "/var/run/netns/2c9a": failed to connect to localhost:8080 inside namespace 77aa: dial tcp 127.0.0.1:8080: connect: connection refused';

function evidence(over: Partial<DisagreementEvidence>): DisagreementEvidence {
  return { container: 'web', oursReady: true, ourFailure: undefined, ourErrorOnly: undefined, kubeletFailure: undefined, runtime: UNKNOWN_RUNTIME, runtimeRefusal: undefined, ...over };
}

test('disagreement, ours never ran: every attempt a prober error says nothing about the app (not "our probes fail")', () => {
  const why = explainDisagreement(evidence({ oursReady: false, ourErrorOnly: 'port-forward to pod web-1 refused: error dialing backend: dial tcp 172.18.0.3:10250: i/o timeout' }));
  assert.equal(why.cause, 'ours-errored');
  assert.match(why.message, /^our readiness probe of web could not run \(port-forward to pod web-1 refused: error dialing backend/);
  assert.match(why.message, /says nothing about the app/);
  assert.doesNotMatch(why.message, /our probes fail/);
  // An answered failure is not an error: the usual reading stands.
  assert.equal(explainDisagreement(evidence({ oursReady: false, ourFailure: OURS_REFUSED })).cause, 'pod-ip-only');
});

test('disagreement, loopback-only: said for the runtime that connects the port-forward, not for a pod under a RuntimeClass', () => {
  const containerd = explainDisagreement(evidence({ kubeletFailure: KUBELET_REFUSED, runtime: { name: 'containerd', version: '2.0.5', runtimeClass: undefined } }));
  assert.equal(containerd.cause, 'loopback-only');
  assert.match(containerd.message, /through port-forward, which containerd 2\.0\.5 connects to 127\.0\.0\.1 inside the pod: the app likely listens on 127\.0\.0\.1 only/);
  assert.match(explainDisagreement(evidence({ kubeletFailure: KUBELET_REFUSED })).message, /which the node's container runtime connects/);
  const kata = explainDisagreement(evidence({ kubeletFailure: KUBELET_REFUSED, runtime: { name: 'containerd', version: '2.0.5', runtimeClass: 'kata' } }));
  assert.equal(kata.cause, 'unexplained');
  assert.match(kata.message, /RuntimeClass "kata", whose port-forward may reach the app another way/);
});

test('disagreement, pod-IP-only: only where the runtime dialled the loopback alone; a runtime that dialled the pod IP too rules it out', () => {
  const loopbackOnly = explainDisagreement(evidence({ oursReady: false, ourFailure: OURS_REFUSED, runtimeRefusal: CONTAINERD_LOOPBACK_ONLY, runtime: { name: 'containerd', version: '1.7.27', runtimeClass: undefined } }));
  assert.equal(loopbackOnly.cause, 'pod-ip-only');
  assert.match(loopbackOnly.message, /refused on the pod's loopback, where containerd 1\.7\.27 connects the port-forward/);
  assert.equal(explainDisagreement(evidence({ oursReady: false, ourFailure: OURS_REFUSED, runtimeRefusal: CRIO, runtime: { name: 'cri-o', version: '1.31.1', runtimeClass: undefined } })).cause, 'pod-ip-only');
  const fallback = explainDisagreement(evidence({ oursReady: false, ourFailure: OURS_REFUSED, runtimeRefusal: CONTAINERD_POD_IP_TOO, runtime: { name: 'containerd', version: '2.4.0', runtimeClass: undefined } }));
  assert.equal(fallback.cause, 'unexplained');
  assert.match(fallback.message, /although containerd 2\.4\.0 dialled the pod IP as well as 127\.0\.0\.1 \(.*dial tcp 10\.244\.1\.5:8080.*\), while the kubelet, dialling the pod IP too, finds it Ready: the address the app listens on is not the cause/);
  const kata = explainDisagreement(evidence({ oursReady: false, ourFailure: OURS_REFUSED, runtime: { name: 'containerd', version: undefined, runtimeClass: 'kata-qemu' } }));
  assert.equal(kata.cause, 'unexplained');
  assert.match(kata.message, /RuntimeClass "kata-qemu"/);
});

test('disagreement: HTTP errors and kubelet timeouts keep their readings', () => {
  assert.equal(explainDisagreement(evidence({ oursReady: false, ourFailure: 'HTTP probe failed with statuscode: 403' })).cause, 'host-or-source');
  assert.equal(explainDisagreement(evidence({ kubeletFailure: 'Readiness probe failed: Get "http://10.244.1.5:8080/ready": context deadline exceeded (Client.Timeout exceeded while awaiting headers)' })).cause, 'kubelet-timeout');
  assert.equal(explainDisagreement(evidence({})).cause, 'unexplained');
});

test('what the runtime dialled, read from its own words', () => {
  assert.deepEqual(dialledAddresses(CONTAINERD_LOOPBACK_ONLY), { loopback: true, other: false });
  assert.deepEqual(dialledAddresses(CRIO), { loopback: true, other: false });
  assert.deepEqual(dialledAddresses(CONTAINERD_POD_IP_TOO), { loopback: false, other: true });
  assert.deepEqual(dialledAddresses('dial tcp [fd00::5]:8080: connect: connection refused'), { loopback: false, other: true });
});

test('a node runtime version as status.nodeInfo says it, and in words', () => {
  assert.deepEqual(readRuntimeVersion('containerd://2.0.5'), { name: 'containerd', version: '2.0.5' });
  assert.deepEqual(readRuntimeVersion('cri-o://1.31.1'), { name: 'cri-o', version: '1.31.1' });
  assert.deepEqual(readRuntimeVersion('docker://v20.10.24'), { name: 'docker', version: '20.10.24' });
  assert.equal(readRuntimeVersion('unknown'), undefined);
  assert.equal(runtimeWords({ name: 'cri-o', version: '1.31.1', runtimeClass: undefined }), 'CRI-O 1.31.1');
  assert.equal(runtimeWords({ name: 'containerd', version: undefined, runtimeClass: undefined }), "the node's runtime (containerd)");
});

/** The comparer after `differ` ms of ours and the kubelet's verdicts apart, having seen `events`. */
function compare(events: EngineEvent[], refusal?: string): EngineEvent[] {
  const clock = new VirtualClock();
  const said: EngineEvent[] = [];
  const comparer = new VerdictComparer(clock, 0, (e) => said.push(e), 20_000, () => ({ name: 'containerd', version: '1.7.27', runtimeClass: undefined }));
  if (refusal) comparer.seeRuntimeRefusal('web', 'web', refusal);
  for (const event of events) {
    comparer.see(event);
    clock.advanceBy(1_000);
  }
  clock.advanceBy(25_000);
  comparer.dispose();
  return said;
}

const attempt = (t: number, over: Partial<Extract<EngineEvent, { type: 'attempt' }>>): EngineEvent => ({ type: 'attempt', t, pod: 'web', container: 'web', probe: 'readiness', containerId: 'c1', outcome: 'failure', output: '', durationMs: 3, ...over });
const KUBELET_READY: EngineEvent = { type: 'kubelet', t: 0, pod: 'web', container: 'web', started: true, ready: true, restartCount: 0 };
const OURS_NOT_READY: EngineEvent = { type: 'status', t: 0, pod: 'web', container: 'web', started: true, ready: false };

test('the comparer: only errors since the verdicts parted → ours-errored; an answer among them → its own reading', () => {
  const errorsOnly = compare([KUBELET_READY, OURS_NOT_READY, attempt(1, { outcome: 'unknown', error: 'port-forward to pod web refused: error dialing backend' }), attempt(2, { outcome: 'unknown', error: 'port-forward to pod web refused: error dialing backend' })]);
  assert.deepEqual(errorsOnly.map((e) => e.type === 'disagreement' && e.cause), ['ours-errored']);
  const answered = compare([KUBELET_READY, OURS_NOT_READY, attempt(1, { outcome: 'unknown', error: 'cut' }), attempt(2, { output: OURS_REFUSED })], CONTAINERD_LOOPBACK_ONLY);
  assert.deepEqual(answered.map((e) => e.type === 'disagreement' && e.cause), ['pod-ip-only']);
  const fallback = compare([KUBELET_READY, OURS_NOT_READY, attempt(1, { output: OURS_REFUSED })], CONTAINERD_POD_IP_TOO);
  assert.deepEqual(fallback.map((e) => e.type === 'disagreement' && e.cause), ['unexplained']);
});

test('the dials a runtime names, without its wrapping', () => {
  assert.equal(dialWords(CONTAINERD_POD_IP_TOO), 'dial tcp 10.244.1.5:8080: connect: connection refused');
  assert.equal(dialWords(CONTAINERD_LOOPBACK_ONLY), 'dial tcp4 127.0.0.1:8080: connect: connection refused; dial tcp6 [::1]:8080: connect: connection refused');
  assert.equal(dialWords(CRIO), 'dial tcp 127.0.0.1:8080: connect: connection refused');
  assert.equal(dialWords('something else'), 'something else');
});
