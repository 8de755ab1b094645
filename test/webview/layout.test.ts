import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EngineEvent } from '../../src/core/engine/events';
import { TimelineModel } from '../../src/core/timeline/viewModel';
import { containerNames, type Filters, layoutRows, NO_FILTERS, POD_GAP, probeTypes, ROW_HEIGHT, rowAt, visibleRows } from '../../src/webview/timeline/model/layout';
import { simulated } from '../helpers/engine';

const TWO_CONTAINERS = `apiVersion: v1
kind: Pod
metadata: {name: web-0}
spec:
  containers:
    - name: app
      image: example/app:1
      ports: [{name: http, containerPort: 8080}]
      livenessProbe: {httpGet: {path: /healthz, port: http}}
      readinessProbe: {tcpSocket: {port: http}}
    - name: sidecar
      image: example/sidecar:1
      readinessProbe: {tcpSocket: {port: 9000}}
---
apiVersion: v1
kind: Pod
metadata: {name: web-1}
spec:
  containers:
    - name: app
      image: example/app:1
      startupProbe: {tcpSocket: {port: 8080}}
`;

function model(events: readonly EngineEvent[] = simulated(TWO_CONTAINERS, '', 60)): TimelineModel {
  const m = new TimelineModel();
  m.append(events);
  return m;
}

const filters = (over: Partial<Filters>): Filters => ({ ...NO_FILTERS, ...over });

test('rows: pod, its containers, each followed by its probes in manifest order, stacked with a gap before each pod', () => {
  const layout = layoutRows(model().lanes(), NO_FILTERS, new Set());
  assert.deepEqual(
    layout.rows.map((r) => `${r.lane.id} ${r.label} ${r.depth}`),
    [
      'pod:web-0 web-0 0',
      'container:web-0/app app 1',
      'probe:web-0/app/liveness liveness 2',
      'probe:web-0/app/readiness readiness 2',
      'container:web-0/sidecar sidecar 1',
      'probe:web-0/sidecar/readiness readiness 2',
      'pod:web-1 web-1 0',
      'container:web-1/app app 1',
      'probe:web-1/app/startup startup 2',
    ],
  );
  let y = 0;
  for (const row of layout.rows) {
    if (row.lane.kind === 'pod' && row.index > 0) y += POD_GAP;
    assert.equal(row.y, y, row.lane.id);
    assert.equal(row.height, ROW_HEIGHT[row.lane.kind]);
    y += row.height;
  }
  assert.equal(layout.height, y);
  assert.equal(layout.byId.get('probe:web-1/app/startup')?.index, 8);
});

test('filters: a hidden container hides its probes in every pod; a hidden probe type hides those lanes; pods stay', () => {
  const m = model();
  const noSidecar = layoutRows(m.lanes(), filters({ hiddenContainers: new Set(['sidecar']) }), new Set());
  assert.ok(!noSidecar.rows.some((r) => r.lane.id.includes('sidecar')));
  const noApp = layoutRows(m.lanes(), filters({ hiddenContainers: new Set(['app']) }), new Set());
  assert.deepEqual(
    noApp.rows.map((r) => r.lane.id),
    ['pod:web-0', 'container:web-0/sidecar', 'probe:web-0/sidecar/readiness', 'pod:web-1'],
  );
  const noReadiness = layoutRows(m.lanes(), filters({ hiddenProbes: new Set(['readiness']) }), new Set());
  assert.ok(!noReadiness.rows.some((r) => r.lane.id.endsWith('/readiness')));
  assert.ok(noReadiness.rows.some((r) => r.lane.id === 'container:web-0/sidecar'), 'the container stays');
  assert.deepEqual(containerNames(m.lanes()), ['app', 'sidecar']);
  assert.deepEqual(probeTypes(m.lanes()), ['startup', 'readiness', 'liveness']);
});

test('highlight: the named lanes are marked, others not', () => {
  const layout = layoutRows(model().lanes(), NO_FILTERS, new Set(['probe:web-0/app/liveness', 'pod:web-1']));
  assert.deepEqual(
    layout.rows.filter((r) => r.highlighted).map((r) => r.lane.id),
    ['probe:web-0/app/liveness', 'pod:web-1'],
  );
});

test('visible rows and the row at a y: by binary search, the gap between pods is no row', () => {
  const layout = layoutRows(model().lanes(), NO_FILTERS, new Set());
  const pod1 = layout.byId.get('pod:web-1');
  assert.ok(pod1);
  assert.equal(rowAt(layout, pod1.y + 1)?.lane.id, 'pod:web-1');
  assert.equal(rowAt(layout, pod1.y - 1), undefined, 'in the gap');
  assert.equal(rowAt(layout, -1), undefined);
  assert.equal(rowAt(layout, layout.height + 1), undefined);
  const [first, end] = visibleRows(layout, ROW_HEIGHT.pod + 1, ROW_HEIGHT.pod + ROW_HEIGHT.container + 2);
  assert.deepEqual(
    layout.rows.slice(first, end).map((r) => r.lane.kind),
    ['container', 'probe'],
  );
  assert.deepEqual(visibleRows(layout, 0, layout.height), [0, layout.rows.length]);
});
