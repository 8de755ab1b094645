import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MARK_OUTCOMES } from '../../src/core/timeline/columns';
import { type ProbeLane, TimelineModel } from '../../src/core/timeline/viewModel';
import type { Hit } from '../../src/webview/timeline/model/hitTest';
import { layoutRows, NO_FILTERS, type Row } from '../../src/webview/timeline/model/layout';
import { itemTime, laneItems, sameHit, type StepKey, stepItem } from '../../src/webview/timeline/model/markCursor';
import { simulated, webPod } from '../helpers/engine';

const LIVENESS = 'livenessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 10, failureThreshold: 3}';

function rows() {
  const model = new TimelineModel();
  model.append(simulated(webPod(LIVENESS), 'containers: {web: {probes: {liveness: {attempts: [success, failure, failure, success, failure]}}}}', 120));
  const layout = layoutRows(model.lanes(), NO_FILTERS, new Set());
  return { probe: layout.byId.get('probe:web/web/liveness') as Row, container: layout.byId.get('container:web/web') as Row, pod: layout.byId.get('pod:web') as Row };
}

/** The keys pressed in turn, from no focus: the attempt indices (or item kinds) reached. */
function walk(row: Row, keys: StepKey[], hidden = new Set<(typeof MARK_OUTCOMES)[number]>(), view = { start: 0, end: 120 }): (number | string | undefined)[] {
  let focus: Hit | undefined;
  return keys.map((key) => {
    const next = stepItem(row, key, focus, view, hidden);
    if (next) focus = next;
    return next?.kind === 'mark' ? next.index : next?.kind;
  });
}

test('keyboard path on a probe lane: Right from the view\'s left edge, Left from its right, Home and End; nothing past the ends', () => {
  const { probe } = rows();
  const count = (probe.lane as ProbeLane).attempts.length;
  assert.deepEqual(walk(probe, ['ArrowRight', 'ArrowRight', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft']), [0, 1, 0, undefined, undefined]);
  assert.deepEqual(walk(probe, ['End', 'ArrowRight', 'Home']), [count - 1, undefined, 0]);
  const lastBefore25 = [...(probe.lane as ProbeLane).attempts.t.subarray(0, count)].filter((t) => t < 25).length - 1;
  assert.ok(lastBefore25 >= 0);
  assert.deepEqual(walk(probe, ['ArrowLeft'], undefined, { start: 0, end: 25 }), [lastBefore25], 'Left starts at the last attempt in view');
});

test('keyboard path skips the attempts a filter hides', () => {
  const { probe } = rows();
  const lane = probe.lane as ProbeLane;
  const failures = [...Array(lane.attempts.length).keys()].filter((i) => MARK_OUTCOMES[lane.attempts.outcome[i] as number] === 'failure');
  assert.deepEqual(walk(probe, ['ArrowRight', 'ArrowRight', 'ArrowRight'], new Set(['success'])), failures.slice(0, 3));
  assert.deepEqual(walk(probe, ['Home'], new Set(['success'])), [failures[0]]);
});

test('keyboard path on a container lane: its bands, restarts and events in time order, a band before what starts at its time', () => {
  const { container } = rows();
  const items = laneItems(container);
  assert.ok(items.length > 2);
  const times = items.map(itemTime);
  assert.deepEqual(times, [...times].sort((a, b) => a - b));
  assert.equal(items[0]?.kind, 'state');
  const keys: StepKey[] = items.map(() => 'ArrowRight');
  assert.deepEqual(walk(container, keys), items.map((item) => item.kind));
  assert.equal(walk(container, [...keys, 'ArrowRight']).at(-1), items.at(-1)?.kind, 'Right at the end stays on the last');
});

test('the same item is found again in rebuilt rows (new row objects, same lane and item)', () => {
  const { probe } = rows();
  const lane = probe.lane as ProbeLane;
  const a: Hit = { kind: 'mark', row: probe, lane, index: 3 };
  assert.equal(sameHit(a, { kind: 'mark', row: { ...probe }, lane, index: 3 }), true);
  assert.equal(sameHit(a, { kind: 'mark', row: probe, lane, index: 4 }), false);
  assert.equal(sameHit(a, undefined), false);
});
