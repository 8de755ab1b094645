import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Backoff } from '../../../src/core/engine/backoff';
import { VirtualClock } from '../../../src/core/base/clock';
import { type Disposable, NO_OP } from '../../../src/core/base/disposable';
import type { EngineEvent } from '../../../src/core/engine/events';
import { type DesiredPod, desiredPods, Manager, podRuntimes } from '../../../src/core/engine/manager';
import { containersReady, isReady, isStarted } from '../../../src/core/engine/podStatus';
import { seededRandom } from '../../../src/core/base/random';
import type { AttemptRequest, ContainerProcesses, ProbeTarget } from '../../../src/core/engine/target';
import { parseManifest, type ProbeType } from '../../../src/core/manifest';
import type { ProbeOutcome } from '../../../src/core/probers/types';
import { parseScenario } from '../../../src/core/scenario/parse';
import { simulate } from '../../../src/core/targets/simulation';
import { SimulatedProcesses, SimulatedTarget } from '../../../src/core/targets/simulated';
import { containerLines, only, podManifest, type PodRun, scenario, startPod, webPod } from '../../helpers/engine';

const S = 1000;

// ---------------------------------------------------------------- helpers

const pod = podManifest;

function desired(yaml: string): DesiredPod[] {
  const pods = desiredPods(parseManifest(yaml));
  assert.ok(pods.length > 0, 'the manifest has a pod');
  return pods;
}

function uidOf(yaml: string): string {
  return (desired(yaml)[0] as DesiredPod).identity.uid;
}

/** `probe-lens simulate`: the whole event stream of a run. */
function sim(yaml: string, scenarioText: string, seconds: number, seed = 1): EngineEvent[] {
  const events: EngineEvent[] = [];
  simulate(parseManifest(yaml), { scenario: scenario(scenarioText), durationSeconds: seconds, seed, emit: (e) => events.push(e) });
  return events;
}

/** Start times (s) of attempts; an attempt event is stamped when it ends. */
function attemptStarts(events: readonly EngineEvent[], container: string, probe: ProbeType, containerId?: string): number[] {
  return only(events, 'attempt', container)
    .filter((e) => e.probe === probe && (containerId === undefined || e.containerId === containerId))
    .map((e) => Math.round(e.t * S - e.durationMs) / S);
}

function kubeletEvents(events: readonly EngineEvent[], reason?: string): { t: number; reason: string; message: string }[] {
  return only(events, 'event')
    .filter((e) => reason === undefined || e.reason === reason)
    .map((e) => ({ t: e.t, reason: e.reason, message: e.message }));
}

function resultLines(events: readonly EngineEvent[], container = 'web'): string[] {
  return only(events, 'result', container).map((e) => `${e.t} ${e.probe} ${e.containerId} ${e.value}`);
}

/** Seconds between each restart (a `running` line after the first) and the exit before it. */
function restartWaits(events: readonly EngineEvent[], container = 'web'): number[] {
  const waits: number[] = [];
  let exitedAt: number | undefined;
  for (const e of only(events, 'container', container)) {
    if (e.state === 'terminated') exitedAt = e.t;
    if (e.state === 'running' && exitedAt !== undefined) {
      waits.push(Math.round((e.t - exitedAt) * S) / S);
      exitedAt = undefined;
    }
  }
  return waits;
}

/** A target whose outcome is scripted per handler call; counts the calls per probe type. */
class ScriptedTarget implements ProbeTarget {
  readonly calls: Record<ProbeType, number> = { liveness: 0, readiness: 0, startup: 0 };
  readonly requests: AttemptRequest[] = [];

  constructor(private readonly answer: (type: ProbeType, call: number, request: AttemptRequest) => ProbeOutcome) {}

  attempt(request: AttemptRequest, done: (outcome: ProbeOutcome) => void): void {
    this.requests.push(request);
    const call = this.calls[request.type]++;
    done(this.answer(request.type, call, request));
  }

  dispose(): void {}
}

/** Container processes that exit by plan: `plan(instance)` gives seconds and exit code, or runs forever. */
class PlannedProcesses implements ContainerProcesses {
  constructor(
    private readonly clock: VirtualClock,
    private readonly plan: (container: string, instance: number) => { after: number; code: number } | undefined,
  ) {}

  start(request: { container: { name: string }; instance: number }, onExit: (exitCode: number) => void): Disposable {
    const exit = this.plan(request.container.name, request.instance);
    return exit === undefined ? NO_OP : this.clock.schedule(exit.after * S, () => onExit(exit.code));
  }
}

/** One pod on a `PodRuntime` (`startPod`), run until `seconds`. */
function runPod(
  yaml: string,
  options: { target?: ProbeTarget; processes?: (clock: VirtualClock) => ContainerProcesses; scenario?: string; seconds: number },
): PodRun {
  const run = startPod(yaml, options);
  run.clock.advanceTo(options.seconds * S);
  return run;
}

const OK: ProbeOutcome = { result: 'success', output: '' };

// ---------------------------------------------------------------- K2

const LIVENESS_TCP = 'livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: 3}';

test('K2: a thresholded liveness Failure kills with "Container web failed liveness probe, will be restarted"', () => {
  // Healthy until 25 s, then every probe hangs to its 1 s timeout: failures of the attempts at 30, 40, 50.
  const events = sim(webPod(LIVENESS_TCP), 'containers: {web: {failAfter: 25}}', 100);
  assert.deepEqual(attemptStarts(events, 'web', 'liveness', 'sim://web/web/0'), [10, 20, 30, 40, 50]);
  assert.deepEqual(kubeletEvents(events, 'Killing'), [{ t: 51, reason: 'Killing', message: 'Container web failed liveness probe, will be restarted' }]);
  const killing = only(events, 'event').find((e) => e.reason === 'Killing');
  assert.equal(killing?.eventType, 'Normal');
  assert.equal(killing?.container, 'web');
  assert.deepEqual(
    kubeletEvents(events, 'Unhealthy').map((e) => `${e.t} ${e.message}`),
    [31, 41, 51].map((t) => `${t} Liveness probe failed: dial tcp 10.244.0.10:8080: i/o timeout`),
  );
  // Default pod grace 30 s, then restarted at once (first restart, B2).
  assert.deepEqual(containerLines(events), ['0 running sim://web/web/0 0', '81 terminated sim://web/web/0 0 Error', '81 running sim://web/web/1 1']);
});

test('K2: a thresholded startup Failure kills with "Container web failed startup probe, will be restarted"', () => {
  const events = sim(webPod('startupProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: 3}'), 'containers: {web: {readyAfter: 1000}}', 60);
  // Workers start before the container (AddPod, then SyncPod): the first attempt is on the first tick.
  assert.deepEqual(attemptStarts(events, 'web', 'startup', 'sim://web/web/0'), [10, 20, 30]);
  assert.deepEqual(kubeletEvents(events, 'Killing'), [{ t: 30, reason: 'Killing', message: 'Container web failed startup probe, will be restarted' }]);
  assert.deepEqual(containerLines(events), ['0 running sim://web/web/0 0', '60 terminated sim://web/web/0 0 Error', '60 running sim://web/web/1 1']);
  assert.deepEqual(
    kubeletEvents(events, 'Unhealthy')
      .slice(0, 1)
      .map((e) => e.message),
    ['Startup probe failed: dial tcp 10.244.0.10:8080: connect: connection refused'],
  );
});

test('K2: readiness never kills, however long it fails', () => {
  const events = sim(webPod('readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: 1}'), 'containers: {web: {readyAfter: 100000}}', 600);
  assert.deepEqual(kubeletEvents(events, 'Killing'), []);
  assert.deepEqual(containerLines(events), ['0 running sim://web/web/0 0']);
  assert.ok(attemptStarts(events, 'web', 'readiness').length >= 60);
  assert.ok(only(events, 'status', 'web').every((e) => !e.ready));
});

// ---------------------------------------------------------------- K3

test('K3: kill grace: probe-level terminationGracePeriodSeconds, else the pod’s, never below 2 s', () => {
  const cases: [label: string, podFields: string, probeGrace: string, terminatedAt: number][] = [
    ['pod default 30', '', '', 81],
    ['probe 5 beats pod 60', 'terminationGracePeriodSeconds: 60', ', terminationGracePeriodSeconds: 5', 56],
    ['probe 90 beats pod 10, even larger', 'terminationGracePeriodSeconds: 10', ', terminationGracePeriodSeconds: 90', 141],
    ['pod 60', 'terminationGracePeriodSeconds: 60', '', 111],
    ['pod 0 → minimum 2', 'terminationGracePeriodSeconds: 0', '', 53],
    ['probe 1 → minimum 2', '', ', terminationGracePeriodSeconds: 1', 53],
  ];
  for (const [label, podFields, probeGrace, terminatedAt] of cases) {
    const yaml = webPod(`livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: 3${probeGrace}}`, podFields);
    const events = sim(yaml, 'containers: {web: {failAfter: 25}}', terminatedAt + 1);
    assert.deepEqual(kubeletEvents(events, 'Killing').map((e) => e.t), [51], label);
    const terminated = only(events, 'container', 'web').find((e) => e.state === 'terminated');
    assert.equal(terminated?.t, terminatedAt, label);
  }
});

test('K3: a startup kill uses the startup probe’s grace, a liveness kill the liveness probe’s', () => {
  const yaml = webPod(`
    startupProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: 3, terminationGracePeriodSeconds: 7}
    livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: 3, terminationGracePeriodSeconds: 4}`);
  const startupKill = sim(yaml, 'containers: {web: {readyAfter: 1000}}', 40);
  assert.deepEqual(kubeletEvents(startupKill, 'Killing').map((e) => `${e.t} ${e.message}`), ['30 Container web failed startup probe, will be restarted']);
  assert.equal(only(startupKill, 'container', 'web').find((e) => e.state === 'terminated')?.t, 37);

  // Started at once, then the app hangs from 25 s: liveness failures at 31, 41, 51.
  const livenessKill = sim(yaml, 'containers: {web: {failAfter: 25}}', 60);
  assert.deepEqual(kubeletEvents(livenessKill, 'Killing').map((e) => `${e.t} ${e.message}`), ['51 Container web failed liveness probe, will be restarted']);
  assert.equal(only(livenessKill, 'container', 'web').find((e) => e.state === 'terminated')?.t, 55);
});

test('K3/A5: a deleted pod’s containers get the pod’s grace period, not the probe’s', () => {
  const yaml = webPod('livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, terminationGracePeriodSeconds: 5}', 'terminationGracePeriodSeconds: 20');
  const events = sim(yaml, 'pod: {deleteAfter: 30}', 100);
  assert.deepEqual(containerLines(events), ['0 running sim://web/web/0 0', '50 terminated sim://web/web/0 0 Error']);
});

// ---------------------------------------------------------------- K4 + the full cycle

const FULL = webPod(`
  startupProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 5, failureThreshold: 10}
  livenessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 10, failureThreshold: 3}
  readinessProbe: {httpGet: {path: /ready, port: 8080}, periodSeconds: 10}`);
/** Listening after 12 s, hanging after 60 s — since each container's own start. */
const FULL_SCENARIO = 'containers: {web: {readyAfter: 12, failAfter: 60}}';

test('K4/B2/W13: full cycle: started → ready → liveness fails → kill → restart → startup gates again → ready → killed again → CrashLoopBackOff', () => {
  const events = sim(FULL, FULL_SCENARIO, 260);
  const uid = uidOf(FULL);
  const id0 = 'sim://web/web/0';
  const id1 = 'sim://web/web/1';
  const id2 = 'sim://web/web/2';

  // First container: startup fails at 5, 10 (refused; no container yet at 0), succeeds at 15; readiness is triggered at once (W13).
  assert.deepEqual(attemptStarts(events, 'web', 'startup', id0), [5, 10, 15]);
  // Readiness: triggered at 15 (W13), then on a grid from there; its third failure (at 86) triggers it again.
  assert.deepEqual(attemptStarts(events, 'web', 'readiness', id0), [15, 25, 35, 45, 55, 65, 75, 85, 86, 96, 106]);
  assert.deepEqual(attemptStarts(events, 'web', 'liveness', id0), [20, 30, 40, 50, 60, 70, 80]);
  // Liveness fails at 60, 70, 80 (each a 1 s timeout) → Failure at 81 → Killing.
  assert.deepEqual(
    kubeletEvents(events, 'Killing').map((e) => `${e.t} ${e.message}`),
    ['81 Container web failed liveness probe, will be restarted', '201 Container web failed liveness probe, will be restarted'],
  );

  // K4: a new container ID after the 30 s grace; first restart immediate, second after a 10 s back-off (B2, B4).
  assert.deepEqual(containerLines(events), [
    `0 running ${id0} 0`,
    `111 terminated ${id0} 0 Error`,
    `111 running ${id1} 1`,
    `231 terminated ${id1} 1 Error`,
    `231 waiting ${id1} 1 CrashLoopBackOff`,
    `241 running ${id2} 2`,
  ]);
  assert.deepEqual(kubeletEvents(events, 'BackOff'), [{ t: 231, reason: 'BackOff', message: `Back-off restarting failed container web in pod web_default(${uid})` }]);

  // K4/W2: the new ID gets the initial values on each worker's next tick; liveness is gated until startup succeeds again.
  const id1Results = resultLines(events).filter((line) => line.includes(id1));
  assert.deepEqual(id1Results.slice(0, 5), [
    `115 startup ${id1} Unknown`,
    `116 readiness ${id1} Failure`,
    `120 liveness ${id1} Success`,
    `125 startup ${id1} Success`,
    `125 readiness ${id1} Success`,
  ]);
  assert.deepEqual(attemptStarts(events, 'web', 'startup', id1), [115, 120, 125]);
  assert.equal(attemptStarts(events, 'web', 'liveness', id1)[0], 130, 'no liveness attempt before the new startup success (W5.9)');
  assert.equal(attemptStarts(events, 'web', 'readiness', id1)[0], 125, 'readiness triggered by the startup success (W13)');
  // A liveness-killed container's replacement gets the full budget (W10): three failures again.
  assert.deepEqual(
    only(events, 'attempt', 'web')
      .filter((e) => e.probe === 'liveness' && e.containerId === id1 && e.outcome === 'failure')
      .map((e) => e.t),
    [181, 191, 201],
  );

  // Status and pod lines (S1, S2, S4), published on change only.
  const statuses = only(events, 'status', 'web').map((e) => `${e.t} ${e.started ? 'started' : '-'} ${e.ready ? 'ready' : '-'}`);
  assert.deepEqual(statuses, [
    '0 - -',
    '15 started -',
    '15 started ready',
    '86 started -',
    '111 - -',
    '125 started -',
    '125 started ready',
    '196 started -',
    '231 - -',
    '255 started -',
    '255 started ready',
  ]);
  assert.deepEqual(
    only(events, 'pod').map((e) => `${e.t} ${e.ready}`),
    ['0 false', '15 true', '86 false', '125 true', '196 false', '255 true'],
  );
});

test('R2: result lines only on change, per container ID and probe', () => {
  const events = sim(FULL, FULL_SCENARIO, 600);
  const last = new Map<string, string>();
  for (const e of only(events, 'result')) {
    const key = `${e.container} ${e.probe} ${e.containerId}`;
    assert.notEqual(last.get(key), e.value, `${e.t}: ${key} repeated ${e.value}`);
    last.set(key, e.value);
  }
  assert.ok(last.size >= 9);
});

test('W10: a container that dies by itself after k−1 liveness failures: the replacement is killed on its first failure', () => {
  // Liveness always fails (failureThreshold 3); the app exits by itself at 25 s, after the failures at 10 and 20.
  const yaml = webPod(LIVENESS_TCP);
  const events = sim(yaml, 'containers: {web: {exitAfter: 25, probes: {liveness: {attempts: [failure]}}}}', 40);
  assert.deepEqual(containerLines(events).slice(0, 3), ['0 running sim://web/web/0 0', '25 terminated sim://web/web/0 0 Error', '25 running sim://web/web/1 1']);
  assert.deepEqual(attemptStarts(events, 'web', 'liveness', 'sim://web/web/1'), [30]);
  assert.deepEqual(kubeletEvents(events, 'Killing').map((e) => `${e.t} ${e.message}`), ['30 Container web failed liveness probe, will be restarted']);
});

test('W4: the kubelet started less than a period ago → each worker first waits a seeded random part of its period', () => {
  const yaml = webPod('livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10}');
  const random = seededRandom(7);
  const jitter = Math.round(random() * 10 * S) / S;
  assert.ok(jitter > 0 && jitter < 10);
  const jittered = sim(yaml, 'kubelet: {startedAgo: 5}', 35, 7);
  assert.deepEqual(attemptStarts(jittered, 'web', 'liveness').map((t) => Math.round(t * S) / S), [jitter, jitter + 10, jitter + 20, jitter + 30].map((t) => Math.round(t * S) / S));
  // Up exactly one period (or longer): no jitter, the first tick at 10 probes.
  const steady = sim(yaml, 'kubelet: {startedAgo: 10}', 35, 7);
  assert.deepEqual(attemptStarts(steady, 'web', 'liveness'), [10, 20, 30]);
});

// ---------------------------------------------------------------- B1–B4

test('B2/B5: waits between successive restarts are 0, 10, 20, 40, 80, 160, 300, 300 s, in CrashLoopBackOff with the kubelet\'s message, a BackOff event on every sync', () => {
  const yaml = pod('containers: [{name: web, image: nginx}]');
  // Exits at 5, 10, 25, 50, 95, 180, 345, 650, 955 (each 5 s after a start); no probes, so the
  // only syncs while backing off are the exit's and the pod worker's requeues (B5): at the
  // back-off's end, or after the 60 s resync interval when that comes first.
  const events = sim(yaml, 'containers: {web: {exitAfter: 5}}', 1258);
  assert.deepEqual(restartWaits(events), [0, 10, 20, 40, 80, 160, 300, 300, 300]);
  const formatted = `web_default(${uidOf(yaml)})`;
  const waiting = only(events, 'container', 'web').filter((e) => e.state === 'waiting');
  assert.deepEqual(
    waiting.map((e) => `${e.t} ${e.reason} ${e.message}`),
    [
      [10, '10s'],
      [25, '20s'],
      [50, '40s'],
      [95, '1m20s'],
      [180, '2m40s'],
      [345, '5m0s'],
      [650, '5m0s'],
      [955, '5m0s'],
    ].map(([t, delay]) => `${t} CrashLoopBackOff back-off ${delay} restarting failed container=web pod=${formatted}`),
  );
  const backOffs = only(events, 'event').filter((e) => e.reason === 'BackOff');
  assert.deepEqual(
    backOffs.map((e) => e.t),
    [10, 25, 50, 95, 155, 180, 240, 300, 345, 405, 465, 525, 585, 650, 710, 770, 830, 890, 955, 1015, 1075, 1135, 1195],
  );
  assert.ok(backOffs.every((e) => e.message === `Back-off restarting failed container web in pod ${formatted}` && e.eventType === 'Warning' && e.container === 'web'));
  const running = only(events, 'container', 'web').filter((e) => e.state === 'running');
  assert.deepEqual(
    running.map((e) => e.restartCount),
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  );
  assert.ok(running.every((e) => e.message === undefined && e.reason === undefined), 'a running container has no waiting message');
});

test('B3: a container that ran longer than 600 s restarts without back-off; exactly 600 s does not reset', () => {
  const yaml = pod('containers: [{name: web, image: nginx}]');
  assert.deepEqual(restartWaits(sim(yaml, 'containers: {web: {exitAfter: 601}}', 1850)), [0, 0, 0]);
  assert.deepEqual(restartWaits(sim(yaml, 'containers: {web: {exitAfter: 600}}', 1850)), [0, 10, 20]);
});

test('B3: after a reset the back-off starts over at the initial 10 s', () => {
  // Runs of 5 s, except the fifth instance, which runs 700 s.
  const yaml = pod('containers: [{name: web, image: nginx}]');
  const { events, runtime } = runPod(yaml, {
    processes: (clock) => new PlannedProcesses(clock, (_, instance) => ({ after: instance === 4 ? 700 : 5, code: 1 })),
    seconds: 1000,
  });
  assert.deepEqual(restartWaits(events), [0, 10, 20, 40, 0, 10, 20, 40, 80]);
  runtime.dispose();
});

test('B2/B3: Backoff keeps one entry per key, doubles to the cap, expires after 600 s', () => {
  const backoff = new Backoff();
  const key = 'uid/web';
  assert.equal(backoff.isInBackoffSince(key, 0, 0), false, 'no entry → not in back-off');
  backoff.next(key, 0, 0);
  assert.equal(backoff.delayMs(key), 10 * S);
  assert.equal(backoff.isInBackoffSince(key, 5 * S, 14.999 * S), true);
  assert.equal(backoff.isInBackoffSince(key, 5 * S, 15 * S), false);
  const delays = [];
  for (let i = 0; i < 7; i++) {
    backoff.next(key, 0, 0);
    delays.push(backoff.delayMs(key) / S);
  }
  assert.deepEqual(delays, [20, 40, 80, 160, 300, 300, 300]);
  assert.equal(backoff.isInBackoffSince('uid/other', 0, 0), false, 'keys are independent');
  // Last update at 0: an exit at 600 s is still inside the window, at 600.001 s it is expired.
  assert.equal(backoff.isInBackoffSince(key, 600 * S, 601 * S), true);
  assert.equal(backoff.isInBackoffSince(key, 600.001 * S, 601 * S), false);
  backoff.next(key, 600.001 * S, 601 * S);
  assert.equal(backoff.delayMs(key), 10 * S);
});

// ---------------------------------------------------------------- restart policies

test('K2/B2: restartPolicy Always restarts a container that exited 0, with back-off', () => {
  const yaml = pod('restartPolicy: Always\ncontainers: [{name: web, image: nginx}]');
  const { events, runtime } = runPod(yaml, { processes: (clock) => new PlannedProcesses(clock, () => ({ after: 5, code: 0 })), seconds: 30 });
  assert.deepEqual(containerLines(events).slice(0, 5), [
    '0 running sim://web/web/0 0',
    '5 terminated sim://web/web/0 0 Completed',
    '5 running sim://web/web/1 1',
    '10 terminated sim://web/web/1 1 Completed',
    '10 waiting sim://web/web/1 1 CrashLoopBackOff',
  ]);
  assert.deepEqual(restartWaits(events), [0, 10]);
  assert.equal(runtime.phase, 'Running');
  runtime.dispose();
});

test('K2: restartPolicy OnFailure: exit 0 completes the pod (Succeeded, PodCompleted, workers gone); exit 1 restarts', () => {
  const yaml = pod(`restartPolicy: OnFailure
containers:
  - name: web
    image: nginx
    readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10}
    livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10}`);
  const done = runPod(yaml, { processes: (clock) => new PlannedProcesses(clock, () => ({ after: 25, code: 0 })), seconds: 100 });
  assert.deepEqual(containerLines(done.events), ['0 running sim://web/web/0 0', '25 terminated sim://web/web/0 0 Completed']);
  assert.equal(done.runtime.phase, 'Succeeded');
  assert.deepEqual(
    only(done.events, 'pod').map((e) => `${e.t} ${e.ready}`),
    ['0 false', '0 true', '25 false'],
  );
  assert.equal(done.clock.pendingTimers, 0, 'every worker exited (W5.2), nothing left on the clock');
  assert.ok(attemptStarts(done.events, 'web', 'readiness').every((t) => t < 25));
  done.runtime.dispose();

  const failed = sim(yaml, 'containers: {web: {exitAfter: 25}}', 40);
  assert.deepEqual(containerLines(failed), ['0 running sim://web/web/0 0', '25 terminated sim://web/web/0 0 Error', '25 running sim://web/web/1 1']);
});

test('K2: restartPolicy OnFailure: a liveness kill "will be restarted" and is', () => {
  const yaml = webPod(LIVENESS_TCP, 'restartPolicy: OnFailure');
  const events = sim(yaml, 'containers: {web: {failAfter: 25}}', 90);
  assert.deepEqual(kubeletEvents(events, 'Killing').map((e) => e.message), ['Container web failed liveness probe, will be restarted']);
  assert.deepEqual(containerLines(events).slice(1), ['81 terminated sim://web/web/0 0 Error', '81 running sim://web/web/1 1']);
});

test('K2/W5.6: restartPolicy Never: a liveness kill without "will be restarted", no restart, workers exit, pod Failed', () => {
  const yaml = webPod(
    `
    livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: 3}
    readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10}`,
    'restartPolicy: Never',
  );
  const run = runPod(yaml, { scenario: 'containers: {web: {failAfter: 25}}', seconds: 300 });
  assert.deepEqual(kubeletEvents(run.events, 'Killing'), [{ t: 51, reason: 'Killing', message: 'Container web failed liveness probe' }]);
  assert.deepEqual(containerLines(run.events), ['0 running sim://web/web/0 0', '81 terminated sim://web/web/0 0 Error']);
  assert.equal(run.runtime.phase, 'Failed');
  assert.equal(run.clock.pendingTimers, 0, 'all workers exited');
  const lastAttempt = Math.max(...only(run.events, 'attempt').map((e) => e.t));
  assert.ok(lastAttempt <= 81, `no attempt after the container terminated (last at ${lastAttempt})`);
  assert.deepEqual(
    only(run.events, 'pod').map((e) => `${e.t} ${e.ready}`).slice(-1),
    ['51 false'],
  );
  run.runtime.dispose();
});

test('K2/W5.6: sidecars restart whatever the pod’s restartPolicy', () => {
  for (const policy of ['Never', 'OnFailure', 'Always']) {
    const yaml = pod(`restartPolicy: ${policy}
initContainers:
  - name: proxy
    image: envoy
    restartPolicy: Always
    readinessProbe: {tcpSocket: {port: 9901}, periodSeconds: 10}
containers:
  - name: web
    image: nginx`);
    // The sidecar exits 0 every 15 s; the app container runs on.
    const run = runPod(yaml, {
      processes: (clock) => new PlannedProcesses(clock, (name) => (name === 'proxy' ? { after: 15, code: 0 } : undefined)),
      seconds: 80,
    });
    // Exits at 15, 30, 55, 90 …: restarted at 15, 40, 75.
    assert.deepEqual(restartWaits(run.events, 'proxy'), [0, 10, 20], policy);
    // I1/I2: web waits for the sidecar, which has no startup probe: running is started, at once.
    assert.deepEqual(containerLines(run.events, 'web'), ['0 waiting  0 PodInitializing', '0 running sim://web/web/0 0'], policy);
    assert.ok(attemptStarts(run.events, 'proxy', 'readiness', 'sim://web/proxy/2').length > 0, `${policy}: the readiness worker follows the sidecar`);
    run.runtime.dispose();
  }
});

// ---------------------------------------------------------------- A5

test('A5: deletion: liveness and startup stop, readiness keeps probing until the container ends after the pod’s grace', () => {
  const yaml = webPod(
    `
    startupProbe: {tcpSocket: {port: 8080}, periodSeconds: 10}
    livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10}
    readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10}`,
    'terminationGracePeriodSeconds: 30',
  );
  const run = runPod(yaml, { seconds: 0 });
  run.runtime.deleteAfter(100 * S);
  run.clock.advanceTo(300 * S);
  const events = run.events;
  // Startup succeeds on its first tick (10); liveness, gated until the sync that follows, starts at 20.
  assert.deepEqual(attemptStarts(events, 'web', 'liveness'), [20, 30, 40, 50, 60, 70, 80, 90]);
  assert.deepEqual(attemptStarts(events, 'web', 'startup'), [10]);
  assert.deepEqual(attemptStarts(events, 'web', 'readiness').filter((t) => t >= 90), [90, 100, 110, 120]);
  assert.deepEqual(containerLines(events), ['0 running sim://web/web/0 0', '130 terminated sim://web/web/0 0 Error']);
  assert.deepEqual(kubeletEvents(events, 'Killing').filter((e) => e.message.includes('probe')), [], 'no probe kills');
  assert.equal(run.runtime.phase, 'Failed');
  assert.equal(run.clock.pendingTimers, 0, 'every worker has exited');
  run.runtime.dispose();
});

test('A5/W5.7: a startup probe still failing when the pod is deleted caches Success (quiet shutdown) and never kills', () => {
  const yaml = webPod('startupProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: 100}');
  const events = sim(yaml, 'containers: {web: {readyAfter: 1000}}\npod: {deleteAfter: 30}', 100);
  assert.deepEqual(attemptStarts(events, 'web', 'startup'), [10, 20]);
  assert.deepEqual(resultLines(events), ['10 startup sim://web/web/0 Unknown', '30 startup sim://web/web/0 Success']);
  assert.deepEqual(kubeletEvents(events, 'Killing').filter((e) => e.message.includes('probe')), []);
});

test('A5: deleting a pod whose container waits in CrashLoopBackOff ends the pod: no restart, every worker exits', () => {
  const yaml = webPod(`
    livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10}
    readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10}`);
  // Exits at 5 (restarted at once) and at 10 (back-off until 20); deleted at 12.
  const run = runPod(yaml, { scenario: 'containers: {web: {exitAfter: 5}}', seconds: 0 });
  run.runtime.deleteAfter(12 * S);
  run.clock.advanceTo(200 * S);
  assert.deepEqual(containerLines(run.events).slice(-3), [
    '10 terminated sim://web/web/1 1 Error',
    '10 waiting sim://web/web/1 1 CrashLoopBackOff',
    '12 terminated sim://web/web/1 1 Error',
  ]);
  assert.ok(only(run.events, 'attempt').every((e) => e.t <= 12));
  assert.equal(run.clock.pendingTimers, 0, 'the deleted pod leaves no worker behind');
  assert.equal(run.runtime.phase, 'Failed');
  run.runtime.dispose();
});

// ---------------------------------------------------------------- S1–S4

test('S1: started = running and (no startup probe, or startup Success)', () => {
  assert.equal(isStarted(true, false, undefined), true);
  assert.equal(isStarted(true, true, 'Success'), true);
  for (const value of ['Unknown', 'Failure', undefined] as const) assert.equal(isStarted(true, true, value), false, String(value));
  assert.equal(isStarted(false, false, undefined), false);
  assert.equal(isStarted(false, true, 'Success'), false);
});

test('S2: ready = started, running and (no readiness probe, or readiness Success)', () => {
  assert.equal(isReady(true, true, false, undefined), true);
  assert.equal(isReady(true, true, true, 'Success'), true);
  assert.equal(isReady(true, true, true, 'Failure'), false);
  assert.equal(isReady(true, true, true, undefined), false);
  assert.equal(isReady(false, true, true, 'Success'), false, 'not started');
  assert.equal(isReady(false, true, false, undefined), false, 'not started, no probe');
  assert.equal(isReady(true, false, true, 'Success'), false, 'terminated');
});

test('S4: ContainersReady: True iff every container is known and ready', () => {
  assert.deepEqual(containersReady(new Map([['a', true], ['b', true]]), false), { status: true });
});

test('S4: ContainersNotReady names unknown and unready containers, unknown first, joined by ", "', () => {
  const both = containersReady(
    new Map([
      ['a', undefined],
      ['b', undefined],
      ['c', false],
      ['d', true],
    ]),
    false,
  );
  assert.deepEqual(both, { status: false, reason: 'ContainersNotReady', message: 'containers with unknown status: [a b], containers with unready status: [c]' });
  assert.deepEqual(containersReady(new Map([['a', false], ['b', true], ['c', false]]), false), {
    status: false,
    reason: 'ContainersNotReady',
    message: 'containers with unready status: [a c]',
  });
  assert.deepEqual(containersReady(new Map([['a', undefined], ['b', true]]), false), {
    status: false,
    reason: 'ContainersNotReady',
    message: 'containers with unknown status: [a]',
  });
});

test('S4: PodCompleted when the pod Succeeded and every status is known; UnknownContainerStatuses with no statuses', () => {
  assert.deepEqual(containersReady(new Map([['a', false]]), true), { status: false, reason: 'PodCompleted' });
  assert.equal(containersReady(new Map([['a', undefined], ['b', false]]), true).reason, 'ContainersNotReady', 'unknown statuses: not PodCompleted');
  assert.deepEqual(containersReady(new Map(), false), { status: false, reason: 'UnknownContainerStatuses' });
  assert.deepEqual(containersReady(new Map([['a', undefined]]), false), { status: false, reason: 'UnknownContainerStatuses' });
});

test('S2/S4: pod lines: the pod is ready only when every container, sidecars included, is ready', () => {
  const yaml = pod(`initContainers:
  - name: setup
    image: busybox
  - name: proxy
    image: envoy
    restartPolicy: Always
    readinessProbe: {tcpSocket: {port: 9901}, periodSeconds: 10}
containers:
  - name: web
    image: nginx
    readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10}
  - name: worker
    image: busybox`);
  const events = sim(yaml, 'containers: {web: {readyAfter: 20}, proxy: {readyAfter: 35}}', 60);
  // S3/I1: the plain init container, not in the scenario, runs and exits 0 at once; it is ready
  // once it exited 0, and is not counted in the pod's readiness.
  assert.deepEqual(containerLines(events, 'setup'), ['0 running sim://web/setup/0 0', '0 terminated sim://web/setup/0 0 Completed']);
  assert.deepEqual(
    only(events, 'status')
      .filter((e) => e.t > 0 || e.started || e.ready)
      .map((e) => `${e.t} ${e.container} ${e.started ? 'started' : '-'} ${e.ready ? 'ready' : '-'}`),
    ['0 setup started -', '0 setup - ready', '0 proxy started -', '0 web started -', '0 worker started ready', '20 web started ready', '40 proxy started ready'],
  );
  assert.deepEqual(
    only(events, 'pod').map((e) => `${e.t} ${e.ready}`),
    ['0 false', '40 true'],
  );
});

// ---------------------------------------------------------------- P2–P5

test('P2: a handler error is retried: three handler calls per attempt; a failure or success is one call', () => {
  const yaml = webPod(`
    livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: 1}
    readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: 1}`);
  const target = new ScriptedTarget((type) => (type === 'liveness' ? { result: 'unknown', output: '', error: 'connection reset' } : { result: 'failure', output: 'no' }));
  const { events, runtime } = runPod(yaml, { target, seconds: 35 });
  const livenessAttempts = only(events, 'attempt', 'web').filter((e) => e.probe === 'liveness');
  const readinessAttempts = only(events, 'attempt', 'web').filter((e) => e.probe === 'readiness');
  assert.equal(livenessAttempts.length, 3);
  assert.equal(target.calls.liveness, 3 * livenessAttempts.length);
  assert.equal(target.calls.readiness, readinessAttempts.length);
  assert.deepEqual(kubeletEvents(events, 'Killing'), [], 'errors never kill (P5)');
  runtime.dispose();
});

test('P2: the first non-error outcome of the three tries is used', () => {
  const yaml = webPod('livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: 1}');
  // Per attempt: error, error, failure → the failure counts (liveness failureThreshold 1 → kill).
  const target = new ScriptedTarget((_, call) => (call % 3 === 2 ? { result: 'failure', output: 'third time' } : { result: 'unknown', output: '', error: 'flaky' }));
  const { events, runtime } = runPod(yaml, { target, seconds: 15 });
  assert.equal(target.calls.liveness, 3);
  assert.deepEqual(
    only(events, 'attempt').map((e) => [e.outcome, e.output, e.error]),
    [['failure', 'third time', undefined]],
  );
  assert.deepEqual(kubeletEvents(events).map((e) => `${e.t} ${e.reason} ${e.message}`), [
    '10 Unhealthy Liveness probe failed: third time',
    '10 Killing Container web failed liveness probe, will be restarted',
  ]);
  runtime.dispose();
});

test('P3: event texts for failure, warning (ProbeWarning), error; unknown without error counts as Failure with no event', () => {
  const yaml = webPod('readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: 1}');
  const script: ProbeOutcome[] = [
    { result: 'failure', output: 'HTTP probe failed with statuscode: 503' },
    { result: 'warning', output: 'Probe terminated redirects, Response body: moved' },
    { result: 'unknown', output: '', error: 'read: connection reset by peer' },
    { result: 'unknown', output: '', error: 'read: connection reset by peer' },
    { result: 'unknown', output: '', error: 'read: connection reset by peer' },
    { result: 'unknown', output: '' },
    OK,
  ];
  const target = new ScriptedTarget((_, call) => script[Math.min(call, script.length - 1)] as ProbeOutcome);
  const { events, runtime } = runPod(yaml, { target, seconds: 60 });
  const warnings = only(events, 'event').map((e) => `${e.reason} ${e.eventType} ${e.message}`);
  assert.deepEqual(warnings, [
    'Unhealthy Warning Readiness probe failed: HTTP probe failed with statuscode: 503',
    'ProbeWarning Warning Readiness probe warning: Probe terminated redirects, Response body: moved',
    'Unhealthy Warning Readiness probe errored and resulted in unknown state: read: connection reset by peer',
  ]);
  // failure (already Failure), warning → Success, error → unchanged, unknown → Failure, success → Success.
  assert.deepEqual(
    resultLines(events).map((l) => l.split(' ').slice(1).join(' ').replace('sim://web/web/0 ', '')),
    ['readiness Failure', 'readiness Success', 'readiness Failure', 'readiness Success'],
  );
  assert.deepEqual(
    only(events, 'attempt')
      .map((e) => e.outcome)
      .slice(0, 5),
    ['failure', 'warning', 'unknown', 'unknown', 'success'],
  );
  runtime.dispose();
});

test('P3: `unknown` without an error counts towards the liveness threshold and records no event', () => {
  const yaml = webPod('livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: 2}');
  const target = new ScriptedTarget(() => ({ result: 'unknown', output: '' }));
  const { events, runtime } = runPod(yaml, { target, seconds: 25 });
  assert.equal(target.calls.liveness, 2, 'not retried: no error');
  assert.deepEqual(kubeletEvents(events).map((e) => `${e.t} ${e.reason} ${e.message}`), ['20 Killing Container web failed liveness probe, will be restarted']);
  runtime.dispose();
});

test('P3: event titles are capitalised per probe type: Liveness, Readiness, Startup', () => {
  const yaml = webPod(`
    startupProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: 3}
    livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: 1}
    readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10}`);
  // Startup fails once (10 s), then succeeds (20 s); liveness and readiness always fail.
  const target = new ScriptedTarget((type, call) => (type === 'startup' ? (call === 0 ? { result: 'failure', output: 'down' } : OK) : { result: 'failure', output: 'down' }));
  const { events, runtime } = runPod(yaml, { target, seconds: 35 });
  const titles = new Set(kubeletEvents(events, 'Unhealthy').map((e) => e.message.split(' ')[0]));
  assert.deepEqual([...titles].sort(), ['Liveness', 'Readiness', 'Startup']);
  runtime.dispose();
});

test('P4: every handler is bounded by timeoutSeconds: a slower answer is a failure after exactly that long', () => {
  const handlers: [string, string][] = [
    ['tcpSocket: {port: 8080}', 'dial tcp 10.244.0.10:8080: i/o timeout'],
    ['httpGet: {path: /healthz, port: 8080}', 'Get "http://10.244.0.10:8080/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)'],
    ['grpc: {port: 9090}', 'timeout: health rpc did not complete within 2s'],
    ['exec: {command: [cat, /tmp/healthy]}', 'command "cat /tmp/healthy" timed out'],
  ];
  for (const [handler, output] of handlers) {
    const slow = sim(webPod(`readinessProbe: {${handler}, timeoutSeconds: 2}`), 'containers: {web: {latency: 2.5}}', 5);
    const first = only(slow, 'attempt')[0];
    assert.equal(first?.outcome, 'failure', handler);
    assert.equal(first?.output, output);
    assert.equal(first?.durationMs, 2000);
    assert.equal(first?.t, 2);

    const inTime = sim(webPod(`readinessProbe: {${handler}, timeoutSeconds: 3}`), 'containers: {web: {latency: 2.5}}', 5);
    assert.equal(only(inTime, 'attempt')[0]?.outcome, 'success', handler);
    assert.equal(only(inTime, 'attempt')[0]?.durationMs, 2500);
  }
});

test('P4: the target receives the probe’s timeoutSeconds (defaulted to 1)', () => {
  const target = new ScriptedTarget(() => OK);
  const { runtime } = runPod(webPod('readinessProbe: {tcpSocket: {port: 8080}, timeoutSeconds: 4}\nlivenessProbe: {tcpSocket: {port: 8080}}'), { target, seconds: 15 });
  const timeouts = new Set(target.requests.map((r) => `${r.type}=${r.probe.timeoutSeconds}`));
  assert.deepEqual([...timeouts].sort(), ['liveness=1', 'readiness=4']);
  runtime.dispose();
});

test('P5: a named port that does not exist → errors only: never Ready, never restarted', () => {
  const yaml = webPod(`
    livenessProbe: {tcpSocket: {port: metrics}, periodSeconds: 10, failureThreshold: 1}
    readinessProbe: {httpGet: {path: /ready, port: metrics}, periodSeconds: 10, failureThreshold: 1}`);
  const events = sim(yaml, '', 120);
  const attempts = only(events, 'attempt');
  assert.ok(attempts.length >= 20);
  assert.ok(attempts.every((e) => e.outcome === 'unknown' && e.error === 'strconv.Atoi: parsing "metrics": invalid syntax'));
  assert.deepEqual(new Set(kubeletEvents(events).map((e) => `${e.reason} ${e.message}`)), new Set([
    'Unhealthy Liveness probe errored and resulted in unknown state: strconv.Atoi: parsing "metrics": invalid syntax',
    'Unhealthy Readiness probe errored and resulted in unknown state: strconv.Atoi: parsing "metrics": invalid syntax',
  ]));
  // Readiness adopts the container at once (the first sync's W13 trigger), liveness on its first tick.
  assert.deepEqual(resultLines(events), ['0 readiness sim://web/web/0 Failure', '10 liveness sim://web/web/0 Success']);
  assert.deepEqual(containerLines(events), ['0 running sim://web/web/0 0']);
  assert.ok(only(events, 'pod').every((e) => !e.ready));
  // The declared name resolves (N2).
  const named = sim(webPod('readinessProbe: {tcpSocket: {port: http}, periodSeconds: 10}'), '', 5);
  assert.equal(only(named, 'attempt')[0]?.outcome, 'success');
});

test('P1/P5: a probe without a handler errors with "missing probe handler" and never fails', () => {
  const events = sim(webPod('livenessProbe: {periodSeconds: 10, failureThreshold: 1}'), '', 60);
  const errors = new Set(only(events, 'attempt').map((e) => e.error));
  assert.deepEqual([...errors], ['missing probe handler for web:web']);
  assert.deepEqual(kubeletEvents(events, 'Killing'), []);
});

// ---------------------------------------------------------------- Manager

function managerRig(scenarioText: string) {
  const clock = new VirtualClock();
  const events: EngineEvent[] = [];
  const script = scenario(scenarioText);
  const target = new SimulatedTarget(script, clock);
  const manager = new Manager(podRuntimes({
    clock,
    epoch: 0,
    kubeletStartedAt: -3600 * S,
    random: () => 0,
    target,
    processes: new SimulatedProcesses(script, clock),
    emit: (e) => events.push(e),
    idScheme: 'sim',
  }));
  return { clock, events, manager, target };
}

function editablePod(readinessPeriod: number): string {
  return webPod(`
    livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: 3}
    readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: ${readinessPeriod}}`);
}

test('Manager: an edited probe restarts only its own worker; the other workers’ counters keep going', () => {
  // Readiness always succeeds; liveness fails from 15 s on (attempts at 20, 30 fail before the edit).
  const { clock, events, manager } = managerRig('containers: {web: {probes: {readiness: [{from: 0, outcome: success}], liveness: [{from: 0, outcome: success}, {from: 15, outcome: failure}]}}}');
  manager.sync(desired(editablePod(10)));
  clock.advanceTo(35 * S);
  manager.sync(desired(editablePod(5)));
  clock.advanceTo(52 * S);
  // Liveness kept its run of two failures: the next one (at 40) trips failureThreshold 3.
  assert.deepEqual(attemptStarts(events, 'web', 'liveness'), [10, 20, 30, 40]);
  assert.deepEqual(kubeletEvents(events, 'Killing').map((e) => `${e.t} ${e.message}`), ['40 Container web failed liveness probe, will be restarted']);
  // Readiness: the new worker probes at once and then every 5 s.
  assert.deepEqual(attemptStarts(events, 'web', 'readiness').filter((t) => t >= 30), [30, 35, 40, 45, 50]);
  manager.dispose();
  assert.equal(clock.pendingTimers, 0);
});

test('Manager: an unchanged manifest changes nothing', () => {
  const { clock, events, manager } = managerRig('');
  manager.sync(desired(editablePod(10)));
  clock.advanceTo(25 * S);
  const before = events.length;
  manager.sync(desired(editablePod(10)));
  assert.equal(events.length, before);
  clock.advanceTo(45 * S);
  assert.deepEqual(attemptStarts(events, 'web', 'liveness'), [10, 20, 30, 40]);
  manager.dispose();
});

test('W1/W14: editing a probe while its attempt is in flight never runs two attempts of that probe at once', () => {
  const { clock, events, manager } = managerRig('containers: {web: {latency: 0.5}}');
  const yaml = (failureThreshold: number) => webPod(`livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: ${failureThreshold}}`);
  manager.sync(desired(yaml(3)));
  clock.advanceTo(20.3 * S); // the liveness attempt of 20 s runs until 20.5 s
  manager.sync(desired(yaml(4)));
  clock.advanceTo(45 * S);
  const spans = only(events, 'attempt')
    .filter((e) => e.probe === 'liveness')
    .map((e) => [Math.round(e.t * S - e.durationMs), Math.round(e.t * S)] as const);
  for (let i = 1; i < spans.length; i++) {
    const [start] = spans[i] as readonly [number, number];
    const [, previousEnd] = spans[i - 1] as readonly [number, number];
    assert.ok(start >= previousEnd, `liveness attempt at ${start / S} s overlaps the one ending at ${previousEnd / S} s`);
  }
  manager.dispose();
});

test('W14/Manager: a removed pod is disposed: no more events, nothing left on the clock', () => {
  const { clock, events, manager } = managerRig('');
  manager.sync(desired(editablePod(10)));
  clock.advanceTo(25 * S);
  assert.equal(manager.runtimes.length, 1);
  manager.sync([]);
  assert.equal(manager.runtimes.length, 0);
  assert.equal(clock.pendingTimers, 0);
  const before = events.length;
  clock.advanceTo(100 * S);
  assert.equal(events.length, before);
});

test('W14/Manager: a pod removed mid-attempt: the attempt is not cancelled, then nothing is left on the clock', () => {
  const { clock, events, manager } = managerRig('containers: {web: {latency: 2}}');
  manager.sync(desired(editablePod(10)));
  clock.advanceTo(21 * S);
  const before = events.length;
  manager.sync([]);
  clock.advanceTo(23 * S);
  assert.equal(clock.pendingTimers, 0);
  assert.equal(events.length, before, 'a disposed pod reports nothing');
});

// ---------------------------------------------------------------- scenarios

test('Scenario: parse errors name the field', () => {
  const cases: [string, string][] = [
    ['containers: {web: {readyAfter: -1}}', 'containers.web.readyAfter: must be a number of seconds, 0 or more'],
    ['containers: {web: {redyAfter: 5}}', 'containers.web.redyAfter: unknown field (did you mean "readyAfter"?)'],
    ['containers: {web: {stopafter: 5}}', 'containers.web.stopafter: unknown field (did you mean "stopAfter"?)'],
    ['containers: {web: {crashAfter: 5}}', 'containers.web.crashAfter: unknown field (expected one of readyAfter, failAfter, exitAfter, exitCode, stopAfter, latency, probes)'],
    ['containers: {web: {stopAfter: -1}}', 'containers.web.stopAfter: must be a number of seconds, 0 or more'],
    ['containers: {web: {exitCode: 1.5}}', 'containers.web.exitCode: must be a whole number from 0 to 255'],
    ['containers: {web: {exitCode: 256}}', 'containers.web.exitCode: must be a whole number from 0 to 255'],
    ['containers: {web: {exitCode: "1"}}', 'containers.web.exitCode: must be a whole number from 0 to 255'],
    ['containers: {web: {probes: {liveness: {attempts: [success, crash]}}}}', 'containers.web.probes.liveness.attempts[1]: must be one of success, failure, warning'],
    ['containers: {web: {probes: {readiness: [{from: 0, outcome: ok}]}}}', 'containers.web.probes.readiness[0].outcome: must be one of success, failure, warning'],
    ['containers: {web: {probes: {liveness: {attempts: []}}}}', 'containers.web.probes.liveness.attempts: must be a non-empty list of outcomes (success, failure, warning)'],
    ['containers: {web: {probes: {livenes: {attempts: [success]}}}}', 'containers.web.probes.livenes: unknown field (did you mean "liveness"?)'],
    ['containers: {web: {latency: fast}}', 'containers.web.latency: must be a number of seconds, 0 or more'],
    ['pod: {deleteAfter: soon}', 'pod.deleteAfter: must be a number of seconds, 0 or more'],
    ['kubelet: {startedAgo: 1, extra: 2}', 'kubelet.extra: unknown field (expected one of startedAgo)'],
    ['containers: [web]', 'containers: must be a mapping'],
    ['podz: {}', 'podz: unknown field (did you mean "pod"?)'],
    ['nodes: {}', 'nodes: unknown field (expected one of containers, pod, kubelet)'],
  ];
  for (const [text, error] of cases) assert.deepEqual(parseScenario(text), { ok: false, error }, text);
  const bad = parseScenario('containers: {web: [');
  assert.equal(bad.ok, false);
  assert.match(bad.ok ? '' : bad.error, /^scenario is not valid YAML: /);
});

test('Scenario: defaults and a full file', () => {
  assert.deepEqual(parseScenario(''), { ok: true, scenario: { containers: {}, kubeletStartedAgo: 3600 } });
  const parsed = parseScenario(`containers:
  web:
    readyAfter: 45
    failAfter: 600
    exitAfter: 900
    exitCode: 3
    stopAfter: 2.5
    latency: 0.2
    probes:
      readiness: [{from: 30, outcome: success}, {from: 0, outcome: failure}]
      liveness: {attempts: [success, failure]}
pod: {deleteAfter: 1200}
kubelet: {startedAgo: 3}`);
  assert.deepEqual(parsed, {
    ok: true,
    scenario: {
      containers: {
        web: {
          readyAfter: 45,
          failAfter: 600,
          exitAfter: 900,
          exitCode: 3,
          stopAfter: 2.5,
          latency: 0.2,
          probes: {
            readiness: {
              kind: 'timed',
              steps: [
                { from: 0, outcome: 'failure' },
                { from: 30, outcome: 'success' },
              ],
            },
            liveness: { kind: 'attempts', outcomes: ['success', 'failure'] },
          },
        },
      },
      deleteAfter: 1200,
      kubeletStartedAgo: 3,
    },
  });
});

// ---------------------------------------------------------------- rules covered elsewhere in substance, named here

test('B1: the back-off starts at 10 s, doubles, and is capped at 300 s', () => {
  const backoff = new Backoff();
  const delays: number[] = [];
  for (let restart = 0, at = 0; restart < 8; restart++, at += 1000) {
    backoff.next('pod/web', at, at);
    delays.push(backoff.delayMs('pod/web') / S);
  }
  assert.deepEqual(delays, [10, 20, 40, 80, 160, 300, 300, 300]);
});

test('B4: a container that exits by itself backs off exactly as a probe-killed one does', () => {
  // No probe at all: the process exits 5 s after every start; restarts follow B2's waits.
  const events = sim(webPod('readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 3600}'), 'containers: {web: {exitAfter: 5}}', 100);
  const starts = only(events, 'container', 'web')
    .filter((e) => e.state === 'running')
    .map((e) => e.t);
  assert.deepEqual(starts, [0, 5, 20, 45, 90]);
  assert.deepEqual(restartWaits(events), [0, 10, 20, 40]);
});

test('K1: results reach the pod only through a sync: readiness sets ready, liveness Success is ignored', () => {
  const yaml = webPod(`
    readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10}
    livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10}`);
  const events = sim(yaml, 'containers: {web: {readyAfter: 15}}', 40);
  const readySuccess = only(events, 'result', 'web').find((e) => e.probe === 'readiness' && e.value === 'Success');
  const readyStatus = only(events, 'status', 'web').find((e) => e.ready);
  assert.ok(readySuccess && readyStatus);
  // The status follows the result at the same instant, after it (the sync runs after the update).
  assert.equal(readyStatus.t, readySuccess.t);
  assert.ok(events.indexOf(readyStatus) > events.indexOf(readySuccess));
  assert.deepEqual(kubeletEvents(events, 'Killing'), [], 'liveness Success updates never kill');
});

test('R1: prober outcomes and cached results are two vocabularies: warning → Success, unknown → Failure', () => {
  const outcomes: [ProbeOutcome['result'], 'Success' | 'Failure'][] = [
    ['success', 'Success'],
    ['warning', 'Success'],
    ['failure', 'Failure'],
    ['unknown', 'Failure'],
  ];
  for (const [result, cached] of outcomes) {
    const target = new ScriptedTarget(() => ({ result, output: 'x' }));
    const { events, runtime } = runPod(webPod('readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: 1}'), { target, seconds: 5 });
    // Readiness starts at Failure (W2); only a cached Success changes it.
    const becameReady = resultLines(events).includes('0 readiness sim://web/web/0 Success');
    assert.equal(becameReady, cached === 'Success', result);
    const words = only(events, 'attempt', 'web').map((e) => e.outcome);
    assert.ok(words.length > 0 && words.every((w) => w === result), `the attempt lines keep the prober-level word: ${words.join(', ')}`);
    runtime.dispose();
  }
});

test('R3: one results cache per probe type: a liveness Failure and a readiness Success for the same container', () => {
  const yaml = webPod(`
    readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10}
    livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: 1}`);
  const target = new ScriptedTarget((type) => (type === 'liveness' ? { result: 'failure', output: 'down' } : OK));
  const { events, runtime } = runPod(yaml, { target, seconds: 11 });
  const lines = resultLines(events);
  assert.ok(lines.includes('0 readiness sim://web/web/0 Success'), lines.join('\n'));
  assert.ok(lines.includes('10 liveness sim://web/web/0 Failure'), lines.join('\n'));
  runtime.dispose();
});

test('S3: a sidecar follows S1/S2 and its readiness counts towards the pod', () => {
  const yaml = pod(`
initContainers:
  - {name: proxy, image: envoy, restartPolicy: Always, readinessProbe: {tcpSocket: {port: 15000}, periodSeconds: 10}}
containers:
  - {name: web, image: nginx, readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10}}`);
  const events = sim(yaml, 'containers: {proxy: {readyAfter: 35}}', 60);
  const webReady = only(events, 'status', 'web').find((e) => e.ready)?.t;
  const proxyReady = only(events, 'status', 'proxy').find((e) => e.ready)?.t;
  const podReady = only(events, 'pod').find((e) => e.ready)?.t;
  assert.equal(webReady, 0);
  assert.equal(proxyReady, 40);
  assert.equal(podReady, 40, 'the pod waits for its sidecar');
});

test('W11: after start-up succeeds the startup worker stays, and probes the restarted container again', () => {
  const yaml = webPod(`
    startupProbe: {tcpSocket: {port: 8080}, periodSeconds: 5, failureThreshold: 10}
    livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 5, failureThreshold: 1, terminationGracePeriodSeconds: 2}`);
  const target = new ScriptedTarget((type) => (type === 'liveness' ? { result: 'failure', output: 'down' } : OK));
  const { events, runtime } = runPod(yaml, { target, seconds: 30 });
  const ids = new Set(only(events, 'attempt', 'web').filter((e) => e.probe === 'startup').map((e) => e.containerId));
  assert.ok(ids.has('sim://web/web/0') && ids.has('sim://web/web/1'), [...ids].join(', '));
  runtime.dispose();
});

test('X2/W6: initialDelaySeconds counts from container start, not from the startup probe success', () => {
  const yaml = webPod(`
    startupProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: 30}
    livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, initialDelaySeconds: 20}`);
  const events = sim(yaml, 'containers: {web: {readyAfter: 25}}', 70);
  // Started at 30; 30 s since the container start is past the 20 s delay, so liveness runs at once.
  assert.equal(attemptStarts(events, 'web', 'liveness')[0], 40);
});

test('X3/P5: prober errors never count, whatever the probe: no result change, no kill, never Ready', () => {
  const yaml = webPod(`
    readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: 1}
    livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 10, failureThreshold: 1}`);
  const target = new ScriptedTarget(() => ({ result: 'unknown', output: '', error: 'boom' }));
  const { events, runtime } = runPod(yaml, { target, seconds: 60 });
  assert.deepEqual(resultLines(events), ['0 readiness sim://web/web/0 Failure', '10 liveness sim://web/web/0 Success']);
  assert.deepEqual(kubeletEvents(events, 'Killing'), []);
  runtime.dispose();
});
