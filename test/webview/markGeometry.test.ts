import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type ProbeLane, TimelineModel } from '../../src/core/timeline/viewModel';
import { attemptNear } from '../../src/webview/timeline/model/hitTest';
import { layoutRows, MARK_HEIGHT, NO_FILTERS, PROBE_ROW } from '../../src/webview/timeline/model/layout';
import { estimatePeriod, markBox, markWidthFor } from '../../src/webview/timeline/render/markGeometry';
import { Viewport } from '../../src/webview/timeline/model/viewport';
import { simulated, webPod } from '../helpers/engine';

test('marks are 1 px when denser than 5 px apart, then 40% of the spacing, 2 to 5 px', () => {
  assert.deepEqual([1, 4.9, 5, 7, 10, 12.4, 100].map(markWidthFor), [1, 1, 2, 3, 4, 5, 5]);
  assert.equal(estimatePeriod(new Float64Array([0, 10, 20, 30]), 4), 10);
  assert.equal(estimatePeriod(new Float64Array([5]), 1), 10, 'one attempt: a default');
});

test('a mark\'s box is where the hit test finds it: its middle hits that attempt', () => {
  const model = new TimelineModel();
  model.append(simulated(webPod('livenessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 10, failureThreshold: 3}'), 'containers: {web: {probes: {liveness: {attempts: [success, failure]}}}}', 60));
  const row = layoutRows(model.lanes(), NO_FILTERS, new Set()).byId.get('probe:web/web/liveness');
  assert.ok(row);
  const lane = row.lane as ProbeLane;
  const viewport = new Viewport();
  viewport.setWidth(600);
  viewport.setRange(0, 60, { start: 0, end: 60 });
  for (let i = 0; i < lane.attempts.length; i++) {
    const box = markBox(lane, i, viewport.toX(lane.attempts.t[i] as number), row.y, viewport.pxPerSecond);
    assert.equal(box.w, markWidthFor(10 * viewport.pxPerSecond));
    assert.equal(box.y + box.h, row.y + PROBE_ROW.markTop + PROBE_ROW.markHeight, 'bars rise from one baseline');
    assert.ok(box.h === MARK_HEIGHT.success || box.h === MARK_HEIGHT.failure);
    assert.equal(attemptNear(lane.attempts, viewport, box.x + box.w / 2, 5, new Set()), i);
  }
});
