import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EngineEvent } from '../../../src/core/engine/events';
import { MARK_OUTCOMES } from '../../../src/core/timeline/columns';
import { TimelineStore } from '../../../src/core/timeline/store';
import { type ContainerLane, type PodLane, type ProbeLane, TimelineModel } from '../../../src/core/timeline/viewModel';
import { only, simulated, webPod } from '../../helpers/engine';

function modelOf(events: readonly EngineEvent[]): TimelineModel {
  const model = new TimelineModel();
  model.append(events);
  return model;
}

function probeLane(model: TimelineModel, probe: string, pod = 'web', container = 'web'): ProbeLane {
  const lane = model.lane(`probe:${pod}/${container}/${probe}`);
  assert.equal(lane?.kind, 'probe', `no ${probe} lane`);
  return lane as ProbeLane;
}

function containerLane(model: TimelineModel, pod = 'web', container = 'web'): ContainerLane {
  const lane = model.lane(`container:${pod}/${container}`);
  assert.equal(lane?.kind, 'container');
  return lane as ContainerLane;
}

/** A lane's attempts as `t outcome run`. */
function attemptRows(lane: ProbeLane): string[] {
  const rows: string[] = [];
  for (let i = 0; i < lane.attempts.length; i++) rows.push(`${lane.attempts.t[i]} ${MARK_OUTCOMES[lane.attempts.outcome[i] as number]} ${lane.attempts.run[i]}`);
  return rows;
}

const LIVENESS = `livenessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 10, failureThreshold: 3}`;
const READINESS = `readinessProbe: {tcpSocket: {port: http}, periodSeconds: 5}`;
const STARTUP = `startupProbe: {httpGet: {path: /started, port: 8080}, periodSeconds: 5, failureThreshold: 30}`;

test('lanes: pod, then each container, then its probes in the order the manifest writes them (worker lines)', () => {
  const model = modelOf(simulated(webPod(`${LIVENESS}\n${STARTUP}\n${READINESS}`), '', 60));
  assert.deepEqual(
    [...model.lanes()].map((lane) => lane.id),
    ['pod:web', 'container:web/web', 'probe:web/web/liveness', 'probe:web/web/startup', 'probe:web/web/readiness'],
  );
  const liveness = probeLane(model, 'liveness');
  assert.deepEqual(liveness.spec, { handler: 'httpGet http://:8080/healthz', initialDelaySeconds: 0, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 });
});

test('lanes: a recording without worker lines orders probes startup, readiness, liveness', () => {
  const events = simulated(webPod(`${LIVENESS}\n${STARTUP}\n${READINESS}`), '', 60).filter((e) => e.type !== 'worker');
  const model = modelOf(events);
  assert.deepEqual(
    model.pods[0]?.containers[0]?.probes.map((p) => p.probe),
    ['startup', 'readiness', 'liveness'],
  );
});

test('W7/W9: a liveness lane counts its run of failures up to the threshold, and the kill resets it', () => {
  const events = simulated(webPod(LIVENESS), 'containers: {web: {probes: {liveness: {attempts: [success, failure, failure, failure, failure]}}}}', 120);
  const model = modelOf(events);
  const rows = attemptRows(probeLane(model, 'liveness'));
  // The third failure (3/3) publishes Failure: the container is killed and the worker goes on hold (W9).
  assert.deepEqual(rows.slice(0, 4).map((r) => r.split(' ').slice(1).join(' ')), ['success 1', 'failure 1', 'failure 2', 'failure 3']);
  const killAt = Number(rows[3]?.split(' ')[0]);
  const kills = containerLane(model).markers.filter((m) => m.reason === 'Killing');
  assert.equal(kills[0]?.t, killAt);
  assert.equal(kills[0]?.probe, 'liveness');
  assert.equal(kills[0]?.message, 'Container web failed liveness probe, will be restarted');
  // After the restart the run starts over: the next failure is 1, not 4.
  const after = rows.slice(4).map((r) => r.split(' ').slice(1).join(' '));
  assert.equal(after[0], 'success 1', 'the restarted container replays the scenario from its start');
});

test('W10: a readiness run carries over a container restart (not reset by a new container ID)', () => {
  const model = new TimelineModel();
  const attempt = (t: number, containerId: string, outcome: 'success' | 'failure'): EngineEvent => ({ type: 'attempt', t, pod: 'p', container: 'c', probe: 'readiness', containerId, outcome, output: '', durationMs: 1 });
  model.append([attempt(1, 'sim://1', 'failure'), attempt(2, 'sim://1', 'failure'), { type: 'container', t: 3, pod: 'p', container: 'c', containerId: 'sim://2', state: 'running', restartCount: 1 }, attempt(4, 'sim://2', 'failure')]);
  assert.deepEqual(attemptRows(probeLane(model, 'readiness', 'p', 'c')), ['1 failure 1', '2 failure 2', '4 failure 3']);
});

test('P5: an errored attempt is drawn as an error and leaves the run as it was', () => {
  const model = new TimelineModel();
  const base = { type: 'attempt', pod: 'p', container: 'c', probe: 'liveness', containerId: 'x', output: '', durationMs: 2 } as const;
  model.append([
    { ...base, t: 10, outcome: 'failure' },
    { ...base, t: 20, outcome: 'unknown', error: 'strconv.Atoi: parsing "http": invalid syntax' },
    { ...base, t: 30, outcome: 'failure' },
    { type: 'event', t: 20, pod: 'p', container: 'c', reason: 'Unhealthy', eventType: 'Warning', message: 'Liveness probe errored and resulted in unknown state: strconv.Atoi: parsing "http": invalid syntax' },
  ]);
  const lane = probeLane(model, 'liveness', 'p', 'c');
  assert.deepEqual(attemptRows(lane), ['10 failure 1', '20 error 1', '30 failure 2']);
  assert.deepEqual(lane.counts, { success: 0, warning: 0, failure: 2, unknown: 0, error: 1 });
  // A recording made before events named their probe still puts the event on its lane (by the kubelet's words).
  assert.deepEqual(lane.markers.map((m) => m.reason), ['Unhealthy']);
});

test('R2: the result band changes only when the cached result does', () => {
  const events = simulated(webPod(READINESS), 'containers: {web: {readyAfter: 12, failAfter: 40}}', 60);
  const lane = probeLane(modelOf(events), 'readiness');
  assert.deepEqual(
    lane.results.map((s) => `${s.value} ${s.start}–${s.end ?? 'now'}`),
    only(events, 'result').map((e, i, all) => `${e.value} ${e.t}–${all[i + 1]?.t ?? 'now'}`),
  );
  assert.deepEqual(
    lane.results.map((s) => s.value),
    ['Failure', 'Success', 'Failure'],
  );
});

test('K4/B2: restarts carry the new container id and restartCount; back-off waits are waiting spans with CrashLoopBackOff', () => {
  const events = simulated(webPod(LIVENESS), 'containers: {web: {probes: {liveness: [{from: 0, outcome: failure}]}}}', 400);
  const lane = containerLane(modelOf(events));
  const restarts = only(events, 'container').filter((e, i, all) => e.containerId !== '' && i > 0 && e.containerId !== all.slice(0, i).reverse().find((p) => p.containerId !== '')?.containerId);
  assert.ok(lane.restarts.length >= 3, `restarts: ${lane.restarts.length}`);
  assert.deepEqual(
    lane.restarts.map((r) => `${r.t} ${r.containerId} ${r.restartCount}`),
    restarts.map((e) => `${e.t} ${e.containerId} ${e.restartCount}`),
  );
  const backOff = lane.states.filter((s) => s.value.reason === 'CrashLoopBackOff');
  assert.ok(backOff.length >= 2, 'the second and later restarts wait out a back-off');
  for (const span of backOff) {
    assert.equal(span.value.state, 'waiting');
    const last = span === lane.states[lane.states.length - 1];
    assert.ok(last || (span.end !== undefined && span.end > span.start), 'a back-off wait ends when the container runs again (or is still going)');
  }
  assert.ok(lane.markers.some((m) => m.reason === 'BackOff'), 'BackOff events are on the container lane');
  // Spans tile the lane: each starts where the one before ended.
  for (let i = 1; i < lane.states.length; i++) assert.equal(lane.states[i]?.start, lane.states[i - 1]?.end);
});

test('W9: while the worker is on hold (a container being killed) no attempts are drawn', () => {
  // A hung app runs out the 30 s grace period: the liveness worker stays on hold until the new container.
  const events = simulated(webPod(LIVENESS), 'containers: {web: {probes: {liveness: [{from: 0, outcome: failure}]}}}', 200);
  const model = modelOf(events);
  const lane = probeLane(model, 'liveness');
  const kill = containerLane(model).markers.find((m) => m.reason === 'Killing');
  const restart = containerLane(model).restarts[0];
  assert.ok(kill && restart);
  const first = lane.attempts.lowerBound(kill.t + 1e-9);
  assert.ok((lane.attempts.t[first] as number) > restart.t, 'the next attempt comes after the new container started');
});

test('pod: the Ready condition as a band; tunnel-down periods per tunnel', () => {
  const model = new TimelineModel();
  model.append([
    { type: 'pod', t: 0, pod: 'api-0', ready: false },
    { type: 'tunnel', t: 1, pod: 'api-0', state: 'up', local: '127.0.0.1:41000', remote: '8080' },
    { type: 'pod', t: 15, pod: 'api-0', ready: true },
    { type: 'tunnel', t: 30, pod: 'api-0', state: 'down', local: '127.0.0.1:41000', remote: '8080' },
    { type: 'tunnel', t: 31, pod: 'api-0', state: 'down', local: '127.0.0.1:41000', remote: '8080' },
    { type: 'tunnel', t: 40, pod: 'api-0', state: 'up', local: '127.0.0.1:41000', remote: '8080' },
    { type: 'tunnel', t: 50, pod: 'api-0', state: 'down', local: '127.0.0.1:41000', remote: '8080' },
    { type: 'pod', t: 15.5, pod: 'api-0', ready: true },
  ]);
  model.advanceTo(70);
  const pod = model.lane('pod:api-0') as PodLane;
  assert.deepEqual(
    pod.ready.map((s) => `${s.value} ${s.start}–${s.end ?? 'now'}`),
    ['false 0–15', 'true 15–now'],
  );
  assert.deepEqual(
    pod.tunnelsDown.map((s) => `${s.start}–${s.end ?? 'now'} ${s.value}`),
    ['30–40 127.0.0.1:41000 → 8080', '50–now 127.0.0.1:41000 → 8080'],
  );
  assert.equal(model.end, 70);
});

test('an edited probe (a second worker line) marks a worker restart and starts its run afresh', () => {
  const model = new TimelineModel();
  const worker = (t: number, failureThreshold: number): EngineEvent => ({ type: 'worker', t, pod: 'p', container: 'c', probe: 'liveness', handler: 'tcpSocket :80', initialDelaySeconds: 0, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold });
  const failure = (t: number): EngineEvent => ({ type: 'attempt', t, pod: 'p', container: 'c', probe: 'liveness', containerId: 'x', outcome: 'failure', output: 'dial tcp 127.0.0.1:80: connect: connection refused', durationMs: 1 });
  model.append([worker(0, 3), failure(10), failure(20), worker(25, 5), failure(35)]);
  const lane = probeLane(model, 'liveness', 'p', 'c');
  assert.deepEqual(lane.workerRestarts, [25]);
  assert.equal(lane.spec?.failureThreshold, 5);
  assert.deepEqual(attemptRows(lane), ['10 failure 1', '20 failure 2', '35 failure 1']);
});

test('truncated store: the lanes that lost events say through when', () => {
  const events = simulated(webPod(`${LIVENESS}\n${READINESS}`), 'containers: {web: {readyAfter: 30}}', 3600);
  const store = new TimelineStore(500);
  for (const event of events) store.push(event);
  const model = modelOf(store.events());
  model.markDropped(store.dropped());
  const readiness = probeLane(model, 'readiness');
  const liveness = probeLane(model, 'liveness');
  assert.ok(readiness.dropped && readiness.dropped.count > 0, 'the busier lane dropped events');
  assert.ok(readiness.dropped.throughT < (readiness.attempts.t[0] as number), 'its first kept attempt comes after the last dropped event');
  // The pod and container lanes, small, kept everything.
  assert.equal(model.lane('pod:web')?.dropped, undefined);
  assert.equal(containerLane(model).dropped, undefined);
  assert.equal(store.size, 500);
  assert.ok(liveness.attempts.length > 0);
});

test('append in pieces builds the same lanes as append at once (a live session)', () => {
  const events = simulated(webPod(`${LIVENESS}\n${READINESS}`), 'containers: {web: {readyAfter: 20, failAfter: 200}}', 600);
  const whole = modelOf(events);
  const pieces = new TimelineModel();
  for (let i = 0; i < events.length; i += 7) pieces.append(events.slice(i, i + 7));
  const shape = (m: TimelineModel) =>
    [...m.lanes()].map((lane) => (lane.kind === 'probe' ? `${lane.id} ${attemptRows(lane).join(',')} ${lane.results.map((s) => `${s.value}@${s.start}`).join(',')}` : lane.kind === 'container' ? `${lane.id} ${lane.states.length} ${lane.restarts.length}` : `${lane.id} ${lane.ready.length}`));
  assert.deepEqual(shape(pieces), shape(whole));
});
