import type { EngineEvent } from '../../../src/core/engine/events';

/**
 * A cluster session's lines, as the cluster target writes them (a short version of the recording
 * in test/e2e/ui/clusterRecording.mjs): manifest pod `web` probed through web-a (10.244.1.6),
 * container `web` with a readiness probe. Ready by both from 5 s; from 40 s the kubelet's probe
 * is refused (ours pass), said as a loopback-only disagreement at 60 s, resolved at 90 s; a
 * predicted kill at 100 s confirmed at 108 s (restart 1), another at 150 s missed at 190 s; a
 * rollout to web-b (10.244.2.9) at 200 s; the session's last line at 220 s.
 */
export function clusterSession(): EngineEvent[] {
  const pod = 'web';
  const container = 'web';
  const e: EngineEvent[] = [
    { type: 'target', t: 0, pod, manifestPod: pod, clusterPod: 'web-a', namespace: 'shop', podIP: '10.244.1.6' },
    { type: 'container', t: 0, pod, container, containerId: 'containerd://1', state: 'running', restartCount: 0 },
    { type: 'kubelet', t: 0, pod, container, started: true, ready: false, restartCount: 0 },
    { type: 'kubelet', t: 0, pod, ready: false },
    { type: 'worker', t: 0, pod, container, probe: 'readiness', handler: 'httpGet http://:8080/ready', initialDelaySeconds: 0, periodSeconds: 5, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 },
    { type: 'attempt', t: 2, pod, container, probe: 'readiness', containerId: 'containerd://1', outcome: 'success', output: 'ok', durationMs: 3 },
    { type: 'result', t: 2, pod, container, probe: 'readiness', containerId: 'containerd://1', value: 'Success' },
    { type: 'status', t: 2, pod, container, started: true, ready: true },
    { type: 'pod', t: 2, pod, ready: true },
    { type: 'kubelet', t: 5, pod, container, started: true, ready: true, restartCount: 0 },
    { type: 'kubelet', t: 5, pod, ready: true },
    // The same again: the watch reports the pod, nothing the kubelet says changed.
    { type: 'kubelet', t: 20, pod, container, started: true, ready: true, restartCount: 0 },
    { type: 'clusterEvent', t: 38, pod, container, reason: 'Unhealthy', message: 'Readiness probe failed: dial tcp 10.244.1.6:8080: connect: connection refused', eventType: 'Warning', count: 1 },
    { type: 'kubelet', t: 40, pod, container, started: true, ready: false, restartCount: 0 },
    { type: 'kubelet', t: 40, pod, ready: false },
    { type: 'clusterEvent', t: 43, pod, container, reason: 'Unhealthy', message: 'Readiness probe failed: dial tcp 10.244.1.6:8080: connect: connection refused', eventType: 'Warning', count: 2 },
    { type: 'disagreement', t: 60, pod, container, state: 'open', ours: true, kubelet: false, cause: 'loopback-only', message: 'the app likely listens on 127.0.0.1 only' },
    { type: 'kubelet', t: 90, pod, container, started: true, ready: true, restartCount: 0 },
    { type: 'kubelet', t: 90, pod, ready: true },
    { type: 'disagreement', t: 90, pod, container, state: 'resolved', ours: true, kubelet: true, cause: 'unexplained', message: 'our probes and the kubelet agree again: Ready' },
    { type: 'prediction', t: 100, pod, container, probe: 'liveness', containerId: 'containerd://1', state: 'pending', message: 'liveness would restart web now' },
    { type: 'clusterEvent', t: 106, pod, container, reason: 'Killing', message: 'Container web failed liveness probe, will be restarted', eventType: 'Normal', count: 1 },
    { type: 'container', t: 108, pod, container, containerId: 'containerd://2', state: 'running', restartCount: 1 },
    { type: 'kubelet', t: 108, pod, container, started: false, ready: false, restartCount: 1 },
    { type: 'prediction', t: 108, pod, container, probe: 'liveness', containerId: 'containerd://1', state: 'confirmed', message: 'the cluster restarted web (restart 1) 8 s after our liveness probe failed' },
    { type: 'kubelet', t: 112, pod, container, started: true, ready: true, restartCount: 1 },
    { type: 'prediction', t: 150, pod, container, probe: 'liveness', containerId: 'containerd://2', state: 'pending', message: 'liveness would restart web now' },
    { type: 'prediction', t: 190, pod, container, probe: 'liveness', containerId: 'containerd://2', state: 'missed', message: 'the cluster did not stop web within 40 s' },
    { type: 'clusterEvent', t: 198, pod, reason: 'Scheduled', message: 'Successfully assigned shop/web-b to node-2', eventType: 'Normal', count: 1 },
    { type: 'target', t: 200, pod, manifestPod: pod, clusterPod: 'web-b', namespace: 'shop', podIP: '10.244.2.9' },
    { type: 'container', t: 200, pod, container, containerId: 'containerd://3', state: 'running', restartCount: 0 },
    { type: 'kubelet', t: 200, pod, container, started: true, ready: false, restartCount: 0 },
    // Found again after a reconnect: the same pod, not a change.
    { type: 'target', t: 210, pod, manifestPod: pod, clusterPod: 'web-b', namespace: 'shop', podIP: '10.244.2.9' },
    { type: 'attempt', t: 220, pod, container, probe: 'readiness', containerId: 'containerd://3', outcome: 'success', output: 'ok', durationMs: 3 },
  ];
  return e;
}
