// A cluster session's recording, written by hand as `probe-lens run --target cluster --format
// jsonl` writes one: manifest pod `web` probed through cluster pod web-7d9f8c-x2kqp, container
// `web` with a readiness and a liveness probe. What happens, and where the timeline shows it:
//   0 s    probing starts through web-7d9f8c-x2kqp (10.244.1.6); both verdicts Ready by 8 s
//   60 s   the app listens on 127.0.0.1 only: ours (through port-forward) still pass, the kubelet's
//          readiness is refused (the cluster's Unhealthy events); from 82 s the disagreement is
//          said (loopback-only), resolved at 140 s when the kubelet is Ready again
//   174 s  liveness fails 3 times: at 194 s a predicted kill, confirmed at 203 s when the cluster
//          restarts web (its Unhealthy ×3 and Killing events, restart 1)
//   274 s  our liveness fails alone (through the tunnel): predicted at 294 s, missed at 334 s
//   345 s  a rollout replaces the pod: probing follows web-7d9f8c-m8rtz (10.244.2.9)
//   end at 400 s

/** `CLUSTER_LANES`: the lanes the recording draws, top to bottom. */
export const CLUSTER_LANES = ['pod:web', 'container:web/web', 'probe:web/web/readiness', 'probe:web/web/liveness'];
export const CLUSTER_END = 400;
/** When the readiness disagreement is open, and when the liveness kill was predicted and confirmed. */
export const DISAGREEMENT = { open: 82, resolved: 140 };
export const CONFIRMED_PREDICTION = { pending: 194, confirmed: 203 };

const FIRST = 'containerd://6f1d0c3b9a7e4c2d8b5a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c';
const SECOND = 'containerd://a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f901';
const THIRD = 'containerd://0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d';

/** The recording's lines, the header first, in time order. */
export function clusterRecordingLines() {
  const lines = [{ type: 'run', schemaVersion: 1, t: 0, mode: 'run', target: 'cluster', file: 'web.yaml', startedAt: '2025-06-02T09:30:00.000Z' }];
  const events = [];
  const at = (t, event) => events.push({ t, ...event });
  const pod = 'web';
  const container = 'web';
  at(0, { type: 'target', pod, manifestPod: pod, clusterPod: 'web-7d9f8c-x2kqp', namespace: 'shop', podIP: '10.244.1.6' });
  at(0, { type: 'container', pod, container, containerId: FIRST, state: 'running', restartCount: 0 });
  at(0, { type: 'kubelet', pod, container, started: true, ready: false, restartCount: 0 });
  at(0, { type: 'kubelet', pod, ready: false });
  at(0, { type: 'worker', pod, container, probe: 'readiness', handler: 'httpGet http://:8080/ready (port http)', initialDelaySeconds: 0, periodSeconds: 5, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 });
  at(0, { type: 'worker', pod, container, probe: 'liveness', handler: 'httpGet http://:8080/healthz (port http)', initialDelaySeconds: 0, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 });
  const attempt = (t, probe, containerId, ok, output) => at(t, { type: 'attempt', pod, container, probe, containerId, outcome: ok ? 'success' : 'failure', output, durationMs: ok ? 4 : 6 });
  const result = (t, probe, containerId, value) => at(t, { type: 'result', pod, container, probe, containerId, value });
  const status = (t, started, ready) => at(t, { type: 'status', pod, container, started, ready });
  const kubelet = (t, line) => at(t, { type: 'kubelet', pod, ...line });
  const clusterEvent = (t, line) => at(t, { type: 'clusterEvent', pod, ...line });

  // Readiness: ours through the tunnel pass throughout, except while the container restarts.
  let readyResult;
  for (let t = 2; t < CLUSTER_END; t += 5) {
    const id = t < 203 ? FIRST : t < 345 ? SECOND : THIRD;
    const restarting = (t >= 203 && t < 207) || (t >= 345 && t < 352);
    attempt(t, 'readiness', id, !restarting, restarting ? 'dial tcp 127.0.0.1:8080: connect: connection refused' : 'ok');
    const value = restarting ? 'Failure' : 'Success';
    if (value !== readyResult) {
      readyResult = value;
      result(t, 'readiness', id, value);
      status(t, true, value === 'Success');
      at(t, { type: 'pod', pod, ready: value === 'Success' });
    }
  }
  // Liveness: fails 170–190 s (the cluster's too), and 270–290 s through the tunnel only.
  let liveResult;
  let run = 0;
  for (let t = 4; t < CLUSTER_END; t += 10) {
    const id = t < 203 ? FIRST : t < 345 ? SECOND : THIRD;
    const failing = (t >= 174 && t <= 194) || (t >= 274 && t <= 294);
    attempt(t, 'liveness', id, !failing, failing ? 'HTTP probe failed with statuscode: 500' : 'ok');
    run = failing ? run + 1 : 0;
    if (failing) at(t, { type: 'event', pod, container, reason: 'Unhealthy', message: 'Liveness probe failed: HTTP probe failed with statuscode: 500', eventType: 'Warning', probe: 'liveness' });
    const value = failing && run >= 3 ? 'Failure' : failing ? liveResult : 'Success';
    if (value !== liveResult) {
      liveResult = value;
      result(t, 'liveness', id, value);
      if (value === 'Failure') at(t, { type: 'prediction', pod, container, probe: 'liveness', containerId: id, state: 'pending', message: 'liveness would restart web now' });
    }
  }
  // The kubelet's own verdicts and events.
  kubelet(8, { container, started: true, ready: true, restartCount: 0 });
  kubelet(8, { ready: true });
  for (const [i, t] of [58, 63, 68, 73, 78, 83, 88, 93, 98, 103, 108, 113, 118, 123, 128].entries()) {
    clusterEvent(t, { container, reason: 'Unhealthy', message: 'Readiness probe failed: Get "http://10.244.1.6:8080/ready": dial tcp 10.244.1.6:8080: connect: connection refused', eventType: 'Warning', count: i + 1 });
  }
  kubelet(62, { container, started: true, ready: false, restartCount: 0 });
  kubelet(62, { ready: false });
  at(DISAGREEMENT.open, {
    type: 'disagreement',
    pod,
    container,
    state: 'open',
    ours: true,
    kubelet: false,
    cause: 'loopback-only',
    message: "the kubelet says web is not Ready (its probe of the pod IP is refused) while ours pass through port-forward, which containerd 1.7.27 connects to 127.0.0.1 inside the pod: the app likely listens on 127.0.0.1 only. Make it listen on 0.0.0.0 (or the pod IP).",
  });
  kubelet(DISAGREEMENT.resolved, { container, started: true, ready: true, restartCount: 0 });
  kubelet(DISAGREEMENT.resolved, { ready: true });
  at(DISAGREEMENT.resolved, { type: 'disagreement', pod, container, state: 'resolved', ours: true, kubelet: true, cause: 'unexplained', message: 'our probes and the kubelet agree again: Ready' });
  for (const [i, t] of [181, 191, 201].entries()) clusterEvent(t, { container, reason: 'Unhealthy', message: 'Liveness probe failed: HTTP probe failed with statuscode: 500', eventType: 'Warning', count: i + 1 });
  clusterEvent(201, { container, reason: 'Killing', message: 'Container web failed liveness probe, will be restarted', eventType: 'Normal', count: 1 });
  at(CONFIRMED_PREDICTION.confirmed, { type: 'container', pod, container, containerId: SECOND, state: 'running', restartCount: 1 });
  kubelet(CONFIRMED_PREDICTION.confirmed, { container, started: false, ready: false, restartCount: 1 });
  kubelet(CONFIRMED_PREDICTION.confirmed, { ready: false });
  at(CONFIRMED_PREDICTION.confirmed, { type: 'prediction', pod, container, probe: 'liveness', containerId: FIRST, state: 'confirmed', message: 'the cluster restarted web (restart 1) 9 s after our liveness probe failed' });
  kubelet(205, { container, started: true, ready: false, restartCount: 1 });
  kubelet(212, { container, started: true, ready: true, restartCount: 1 });
  kubelet(212, { ready: true });
  at(334, { type: 'prediction', pod, container, probe: 'liveness', containerId: SECOND, state: 'missed', message: "the cluster did not stop web within 40 s: its kubelet's liveness probe did not fail as ours did" });
  // The rollout: a new pod, the same labels.
  clusterEvent(343, { reason: 'Scheduled', message: 'Successfully assigned shop/web-7d9f8c-m8rtz to node-2', eventType: 'Normal', count: 1 });
  at(345, { type: 'target', pod, manifestPod: pod, clusterPod: 'web-7d9f8c-m8rtz', namespace: 'shop', podIP: '10.244.2.9' });
  at(345, { type: 'container', pod, container, containerId: THIRD, state: 'running', restartCount: 0 });
  kubelet(345, { container, started: true, ready: false, restartCount: 0 });
  kubelet(345, { ready: false });
  kubelet(354, { container, started: true, ready: true, restartCount: 0 });
  kubelet(354, { ready: true });
  // In time order, as a writer emits them (stable: lines of one instant keep their order).
  events.sort((a, b) => a.t - b.t);
  return [...lines, ...events];
}

/** The recording as a `.jsonl` file's text. */
export function clusterRecordingText() {
  return `${clusterRecordingLines()
    .map((line) => JSON.stringify(line))
    .join('\n')}\n`;
}
