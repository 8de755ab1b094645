import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EngineEvent } from '../../src/core/engine/events';
import { containerLaneKey } from '../../src/core/timeline/laneKeys';
import { type ContainerLane, type ProbeLane, TimelineModel } from '../../src/core/timeline/viewModel';
import { containerFacts, type DescribeContext, describeHit, laneKeyTitle, laneSummary, notesFor, runText, shortContainerId } from '../../src/webview/timeline/words/describe';
import { layoutRows, NO_FILTERS } from '../../src/webview/timeline/model/layout';
import { simulated, webPod } from '../helpers/engine';

const LIVENESS = 'livenessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 10, failureThreshold: 3}';
const FAILING = 'containers: {web: {probes: {liveness: {attempts: [success, failure, failure, failure]}}}}';

function modelOf(events: readonly EngineEvent[]): TimelineModel {
  const model = new TimelineModel();
  model.append(events);
  return model;
}

function context(model: TimelineModel): DescribeContext {
  return {
    events: model.events,
    clock: { kind: 'virtual' },
    now: model.end,
    containerOf: (lane: ProbeLane) => model.lane(containerLaneKey(lane.pod, lane.container)) as ContainerLane | undefined,
    capacity: 600000,
  };
}

test('a failed mark says when, what, the run toward the threshold, the kubelet\'s words, and the kill it caused', () => {
  const model = modelOf(simulated(webPod(LIVENESS), FAILING, 60));
  const layout = layoutRows(model.lanes(), NO_FILTERS, new Set());
  const row = layout.byId.get('probe:web/web/liveness');
  assert.ok(row && row.lane.kind === 'probe');
  const lane = row.lane;
  const tip = describeHit({ kind: 'mark', row, lane, index: 3 }, context(model));
  assert.equal(tip.title, 'web/web liveness · attempt');
  assert.match(tip.lines[0] ?? '', /^\d+(\.\d+)?s · failure · \d+ ms$/);
  assert.equal(tip.lines[1], '3/3 failures in a row: the container is killed');
  assert.ok(tip.lines.some((l) => /^Output: /.test(l)), tip.lines.join('\n'));
  assert.ok(tip.lines.some((l) => /^Unhealthy: Liveness probe failed: /.test(l)), tip.lines.join('\n'));
  assert.ok(tip.lines.includes('Killing: Container web failed liveness probe, will be restarted'), tip.lines.join('\n'));
  const second = describeHit({ kind: 'mark', row, lane, index: 2 }, context(model));
  assert.equal(second.lines[1], '2/3 failures in a row');
  assert.ok(!second.lines.some((l) => l.startsWith('Killing')), 'only the last failure caused the kill');
});

test('run text: thresholds, successes, errors, readiness', () => {
  const lane = { probe: 'readiness', spec: { handler: '', initialDelaySeconds: 0, periodSeconds: 5, timeoutSeconds: 1, successThreshold: 2, failureThreshold: 3 } } as unknown as ProbeLane;
  assert.equal(runText(lane, 'failure', 3), '3/3 failures in a row: not ready');
  assert.equal(runText(lane, 'failure', 5), '5 failures in a row (threshold 3)');
  assert.equal(runText(lane, 'success', 1), '1/2 successes in a row');
  assert.equal(runText(lane, 'warning', 2), '2/2 successes in a row: Success');
  assert.equal(runText(lane, 'error', 2), 'a prober error: the kubelet discards it, the run is unchanged');
  assert.equal(runText({ probe: 'liveness', spec: undefined } as unknown as ProbeLane, 'failure', 2), '2 failures in a row');
});

test('lane summaries for the lane list: counts and the current state', () => {
  const model = modelOf(simulated(webPod(LIVENESS), FAILING, 120));
  assert.match(laneSummary(model.lane('probe:web/web/liveness') as ProbeLane), /^web \/ web liveness: \d+ attempts, \d+ failed, result (Success|Failure)$/);
  assert.match(laneSummary(model.lane('container:web/web') as ContainerLane), /^web \/ web: running, \d+ restarts?, (ready|not ready), \d+ kills?$/);
  assert.match(laneSummary(model.lanes().next().value as never), /^pod web: (Ready|not ready)$/);
  assert.equal(containerFacts(model.lane('container:web/web') as ContainerLane).kills[0], 'Container web failed liveness probe, will be restarted');
  assert.equal(runText({ probe: 'liveness', spec: undefined } as unknown as ProbeLane, 'success', 1), '1 success in a row');
  assert.equal(runText({ probe: 'liveness', spec: undefined } as unknown as ProbeLane, 'unknown', 1), '1 failure in a row');
});

test('notes: dropped events with where the lane becomes complete, skipped lines, loading, ended', () => {
  const base = { capacity: 600000, clock: { kind: 'virtual' } as const, skipped: 0, problems: [], loading: false, events: 0, ended: undefined, failed: undefined };
  assert.deepEqual(notesFor({ ...base, dropped: [] }), []);
  assert.deepEqual(notesFor({ ...base, dropped: [{ lane: 'probe:web/app/liveness', count: 1234, throughT: 11520 }] }), [
    'kept the newest 600 000 events; 1 234 older events of web/app liveness dropped, complete after 3h12m',
  ]);
  const many = notesFor({
    ...base,
    dropped: [1, 2, 3, 4].map((i) => ({ lane: `probe:web-${i}/app/liveness`, count: i * 10, throughT: 60 * i })),
  });
  assert.equal(many[0], 'kept the newest 600 000 events; 100 older events of 4 lanes dropped: web-4/app liveness complete after 4m, web-3/app liveness complete after 3m, web-2/app liveness complete after 2m, 1 more');
  assert.deepEqual(notesFor({ ...base, dropped: [], skipped: 2, problems: [{ line: 3, message: 'not JSON' }], loading: true, events: 1500, ended: { now: 600, reason: 'stopped' } }), [
    'Loading… 1 500 events so far',
    '2 lines of the file skipped (line 3: not JSON; …)',
    'Session ended at 10m: stopped',
  ]);
});

test('names: short container ids, lane keys as people say them', () => {
  assert.equal(shortContainerId('containerd://4f9b2c1d8e7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0'), '4f9b2c1d8e7a');
  assert.equal(shortContainerId('sim://web-0/app/1'), 'web-0/app/1');
  assert.equal(shortContainerId('sim://worker-0/worker/3'), 'worker/3');
  assert.equal(laneKeyTitle('probe:web-0/app/liveness'), 'web-0/app liveness');
  assert.equal(laneKeyTitle('container:web-0/app'), 'web-0/app');
  assert.equal(laneKeyTitle('pod:web-0'), 'web-0');
});
