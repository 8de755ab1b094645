import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EngineEvent } from '../../src/core/engine/events';
import { AttemptColumns, MARK_OUTCOMES } from '../../src/core/timeline/columns';
import { type ProbeLane, TimelineModel } from '../../src/core/timeline/viewModel';
import { attemptNear, hitTest, markerNear, spanAt } from '../../src/webview/timeline/model/hitTest';
import { CONTAINER_ROW, layoutRows, NO_FILTERS, PROBE_ROW } from '../../src/webview/timeline/model/layout';
import { Viewport } from '../../src/webview/timeline/model/viewport';
import { simulated, webPod } from '../helpers/engine';

const LIVENESS = 'livenessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 10, failureThreshold: 3}';

function setup(events: readonly EngineEvent[], start: number, end: number, width = 1000) {
  const model = new TimelineModel();
  model.append(events);
  const layout = layoutRows(model.lanes(), NO_FILTERS, new Set());
  const viewport = new Viewport();
  viewport.setWidth(width);
  viewport.setRange(start, end, { start: 0, end: model.end });
  return { model, layout, viewport };
}

const code = (o: string) => MARK_OUTCOMES.indexOf(o as never);

test('a mark under the pointer: the attempt at that x, with the time and outcome it is drawn with', () => {
  const events = simulated(webPod(LIVENESS), 'containers: {web: {probes: {liveness: {attempts: [success, failure, failure, failure]}}}}', 60);
  const { layout, viewport, model } = setup(events, 0, 60);
  const row = layout.byId.get('probe:web/web/liveness');
  assert.ok(row);
  const lane = row.lane as ProbeLane;
  const third = 2;
  const x = viewport.toX(lane.attempts.t[third] as number);
  const hit = hitTest(layout, viewport, x + 2, row.y + PROBE_ROW.markTop + 8, { hiddenOutcomes: new Set(), now: model.end });
  assert.equal(hit?.kind, 'mark');
  assert.equal(hit?.kind === 'mark' && hit.index, third);
  // In the result band under the marks, between marks: the cached result.
  const between = viewport.toX(((lane.attempts.t[0] as number) + (lane.attempts.t[1] as number)) / 2);
  const band = hitTest(layout, viewport, between, row.y + PROBE_ROW.bandTop + 2, { hiddenOutcomes: new Set(), now: model.end });
  assert.equal(band?.kind, 'result');
  assert.equal(band?.kind === 'result' && band.span.value, 'Success');
});

test('a hidden outcome is not hit; a Killing marker and a restart are found on the container lane', () => {
  const events = simulated(webPod(LIVENESS), 'containers: {web: {probes: {liveness: {attempts: [success, failure, failure, failure]}}}}', 120);
  const { layout, viewport, model } = setup(events, 0, 120);
  const row = layout.byId.get('probe:web/web/liveness');
  assert.ok(row);
  const lane = row.lane as ProbeLane;
  const x = viewport.toX(lane.attempts.t[1] as number);
  const hidden = hitTest(layout, viewport, x, row.y + PROBE_ROW.markTop + 8, { hiddenOutcomes: new Set(['failure']), now: model.end });
  assert.notEqual(hidden?.kind, 'mark');
  const container = layout.byId.get('container:web/web');
  assert.ok(container && container.lane.kind === 'container');
  const kill = container.lane.markers.find((m) => m.reason === 'Killing');
  assert.ok(kill);
  const killHit = hitTest(layout, viewport, viewport.toX(kill.t), container.y + 3, { hiddenOutcomes: new Set(), now: model.end });
  assert.equal(killHit?.kind === 'marker' && killHit.marker.reason, 'Killing');
  const restart = container.lane.restarts[0];
  assert.ok(restart);
  const restartHit = hitTest(layout, viewport, viewport.toX(restart.t), container.y + CONTAINER_ROW.bandTop + 2, { hiddenOutcomes: new Set(), now: model.end });
  assert.equal(restartHit?.kind, 'restart');
});

test('dense marks: in the pointer column the worst outcome wins, as drawn; otherwise the nearest', () => {
  const a = new AttemptColumns();
  a.push(10.0, 1, code('success'), 1, 0);
  a.push(10.1, 1, code('failure'), 1, 1);
  a.push(10.2, 1, code('success'), 1, 2);
  a.push(20, 1, code('error'), 1, 3);
  const v = new Viewport();
  v.setWidth(100);
  v.setRange(0, 100, { start: 0, end: 100 });
  assert.equal(attemptNear(a, v, v.toX(10.05), 5, new Set()), 1, 'failure wins within the column');
  assert.equal(attemptNear(a, v, v.toX(10.05), 5, new Set(['failure'])), 0);
  assert.equal(attemptNear(a, v, v.toX(20) + 3, 5, new Set()), 3, 'nearest within the tolerance');
  assert.equal(attemptNear(a, v, v.toX(50), 5, new Set()), -1);
});

test('spans and markers by time: open spans last until now', () => {
  const spans = [
    { start: 0, end: 10, value: 'a' },
    { start: 10, end: undefined, value: 'b' },
  ];
  assert.equal(spanAt(spans, 5, 20)?.value, 'a');
  assert.equal(spanAt(spans, 15, 20)?.value, 'b');
  assert.equal(spanAt(spans, 25, 20), undefined);
  assert.equal(spanAt(spans, -1, 20), undefined);
  const markers = [
    { t: 5, reason: 'Unhealthy', message: '', warning: true, source: 0 },
    { t: 5, reason: 'Killing', message: '', warning: false, source: 1 },
    { t: 9, reason: 'BackOff', message: '', warning: true, source: 2 },
  ];
  assert.equal(markerNear(markers, 5.2, 0.5)?.reason, 'Unhealthy');
  assert.equal(markerNear(markers, 8.8, 0.5)?.reason, 'BackOff');
  assert.equal(markerNear(markers, 7, 0.5), undefined);
});
