import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EngineEvent } from '../../src/core/engine/events';
import { AttemptColumns, MARK_OUTCOMES } from '../../src/core/timeline/columns';
import { type ContainerLane, type PodLane, type ProbeLane, TimelineModel } from '../../src/core/timeline/viewModel';
import { TIMELINE_PROTOCOL_VERSION } from '../../src/shared/protocol';
import { type DescribeContext, describeHit, laneDetail, laneSummary, laneTitle } from '../../src/webview/timeline/words/describe';
import { attemptNear, hitTest } from '../../src/webview/timeline/model/hitTest';
import { layoutRows, NO_FILTERS, POD_ROW, rowAt, SECTION_HEADING_HEIGHT } from '../../src/webview/timeline/model/layout';
import { laneItems, stepItem } from '../../src/webview/timeline/model/markCursor';
import { BEFORE_END, evidenceHit, explainMessage, momentOf } from '../../src/webview/timeline/model/selection';
import { Viewport } from '../../src/webview/timeline/model/viewport';
import { DEBUG_SESSION, PAUSE, pausedSession } from '../core/timeline/pauseSession';
import { simulated, webPod } from '../helpers/engine';

// Issue 12 in the timeline's pure view code: a debugger's pause as rows, hits, words and the
// keyboard's path see it; runs one above the other under their headings; the moment a selection
// stands for and the items an explanation's evidence points back at.

function setup(events: readonly EngineEvent[], sections: ConstructorParameters<typeof TimelineModel>[0] = []) {
  const model = new TimelineModel(sections);
  model.append(events);
  const layout = layoutRows(model.lanes(), NO_FILTERS, new Set(), model.sections);
  const viewport = new Viewport();
  viewport.setWidth(1000);
  viewport.setRange(40, 110, { start: 0, end: model.end });
  const context: DescribeContext = { events: model.events, clock: { kind: 'virtual' }, now: model.end, containerOf: (lane) => model.containerOf(lane), capacity: 600_000 };
  return { model, layout, viewport, context };
}

test('a pause on the pod\'s row: hit between its markers, described with its debug session and the failures it caused, on the keyboard\'s path', () => {
  const { layout, viewport, model, context } = setup(pausedSession());
  const row = layout.byId.get('pod:web');
  assert.ok(row);
  const hit = hitTest(layout, viewport, viewport.toX(66), row.y + POD_ROW.bandTop + 4, { hiddenOutcomes: new Set(), now: model.end });
  assert.equal(hit?.kind, 'pause');
  assert.ok(hit?.kind === 'pause');
  const tip = describeHit(hit, context);
  assert.equal(tip.title, `Paused by debugger ${DEBUG_SESSION} · web`);
  assert.deepEqual(tip.lines.slice(1), [`the debug session ${DEBUG_SESSION} held the program at a breakpoint (or a step)`, "7 attempts failed meanwhile: the pause's failures, not the app's (the kubelet would count them all the same)"]);
  // Outside it, the pod's Ready band.
  assert.equal(hitTest(layout, viewport, viewport.toX(100), row.y + POD_ROW.bandTop + 4, { hiddenOutcomes: new Set(), now: model.end })?.kind, 'ready');
  // The keyboard reaches it among the pod's bands, in time order.
  const items = laneItems(row);
  const pod = row.lane as PodLane;
  assert.deepEqual(items.map((item) => item.kind).sort(), [...pod.ready.map(() => 'ready'), 'pause'].sort());
  assert.equal(items.findIndex((item) => item.kind === 'pause'), pod.ready.filter((s) => s.start <= PAUSE.from).length, 'in time order');
  let focus = stepItem(row, 'Home', undefined, viewport, new Set());
  for (let i = 0; i < items.findIndex((item) => item.kind === 'pause'); i++) focus = stepItem(row, 'ArrowRight', focus, viewport, new Set());
  assert.equal(focus?.kind, 'pause');
});

test('a failed attempt while paused: its tooltip says it was the pause\'s; the lane list counts them; the pod says it was paused', () => {
  const { layout, model, context } = setup(pausedSession());
  const liveness = layout.byId.get('probe:web/web/liveness');
  assert.ok(liveness);
  const lane = liveness.lane as ProbeLane;
  const index = lane.attempts.lowerBound(PAUSE.from);
  const tip = describeHit({ kind: 'mark', row: liveness, lane, index }, context);
  assert.equal(tip.title, 'web/web liveness · attempt (debugger paused)');
  assert.equal(tip.lines[1], "failed while a debugger held the app: the pause's failure, not the app's");
  assert.equal(tip.lines[2], '1/3 failures in a row');
  assert.match(laneSummary(lane), /, 2 failed \(2 while paused by a debugger\), /);
  const pod = model.lane('pod:web') as PodLane;
  assert.equal(laneSummary(pod), 'pod web: Ready, paused 1 time by a debugger');
  assert.equal(laneDetail(pod), '');
  // While paused: the lane list says so, and its second line too.
  const open = setup(pausedSession(66)).model.lane('pod:web') as PodLane;
  assert.equal(laneSummary(open), `pod web: Ready, paused by debugger ${DEBUG_SESSION}`);
  assert.equal(laneDetail(open), '‖ paused (debugger)');
});

test('in a column, the app\'s own failure wins over the pause\'s, which wins over a success', () => {
  const attempts = new AttemptColumns();
  const code = (o: string) => MARK_OUTCOMES.indexOf(o as never);
  attempts.push(10, 1, code('success'), 1, 0);
  attempts.push(10.01, 1, code('failure'), 1, 1, true);
  const scale = { toX: (t: number) => t * 10, toT: (x: number) => x / 10, pxPerSecond: 10 };
  assert.equal(attemptNear(attempts, scale, 100, 5, new Set()), 1, 'the pause\'s failure over a success');
  attempts.push(10.02, 1, code('failure'), 2, 2);
  assert.equal(attemptNear(attempts, scale, 100, 5, new Set()), 2, 'the app\'s failure over the pause\'s');
});

test('runs one above the other: each run\'s heading above its first pod, no rows under a heading, the run in titles and summaries', () => {
  const slow = 'containers: {web: {readyAfter: 45}}';
  const recorded = simulated(webPod('livenessProbe: {httpGet: {path: /healthz, port: http}}'), slow, 60);
  const replayed = simulated(webPod('livenessProbe: {httpGet: {path: /healthz, port: http}}'), '', 60);
  const { layout, model } = setup([...recorded, ...replayed], [
    { name: 'recorded', title: 'recorded', events: recorded.length },
    { name: 'replayed', title: 'replayed with the edited manifest', events: replayed.length },
  ]);
  const headings = layout.headings ?? [];
  assert.deepEqual(headings.map((h) => [h.name, h.title]), [['recorded', 'recorded'], ['replayed', 'replayed with the edited manifest']]);
  const recordedPod = layout.byId.get('recorded|pod:web');
  const replayedPod = layout.byId.get('replayed|pod:web');
  assert.ok(recordedPod && replayedPod);
  assert.equal(recordedPod.y, SECTION_HEADING_HEIGHT);
  assert.equal(replayedPod.y, (headings[1]?.y ?? 0) + SECTION_HEADING_HEIGHT);
  assert.equal(rowAt(layout, (headings[1]?.y ?? 0) + 2), undefined, 'no row under a heading');
  const container = model.lane('replayed|container:web/web') as ContainerLane;
  assert.equal(laneTitle(container), 'replayed · web/web');
  assert.match(laneSummary(container), /^replayed: web \/ web: running/);
  // One run: no headings.
  assert.deepEqual(setup(recorded).layout.headings, []);
});

test('the moment an item on a container\'s lane stands for: a stretch\'s last moment (an open one: now), an instant\'s own time; no other lane\'s', () => {
  const { layout, model } = setup(simulated(webPod('livenessProbe: {httpGet: {path: /healthz, port: http}, failureThreshold: 1}'), 'containers: {web: {failAfter: 30}}', 200));
  const row = layout.byId.get('container:web/web');
  assert.ok(row);
  const items = laneItems(row);
  const closed = items.find((i) => i.kind === 'state' && i.span.end !== undefined);
  const open = items.find((i) => i.kind === 'state' && i.span.end === undefined);
  const restart = items.find((i) => i.kind === 'restart');
  assert.ok(closed?.kind === 'state' && open && restart?.kind === 'restart');
  assert.equal(momentOf(closed, model.end), (closed.span.end as number) - BEFORE_END);
  assert.equal(momentOf(open, 250), 250);
  assert.equal(momentOf(restart, model.end), restart.restart.t);
  const pod = layout.byId.get('pod:web');
  assert.ok(pod);
  assert.equal(momentOf({ kind: 'lane', row: pod, lane: pod.lane }, 1), undefined);
  const message = explainMessage({ lane: row.lane as ContainerLane, t: 42 }, 7);
  assert.deepEqual(message, { type: 'explain', protocol: TIMELINE_PROTOCOL_VERSION, request: 7, pod: 'web', container: 'web', t: 42 });
});

test('evidence back on the lanes: an attempt is its mark, a kubelet event its marker, a container line its restart or state, a pause its stretch; a lane not shown, nothing', () => {
  const events = pausedSession();
  const { layout, model } = setup(events);
  const attempt = events.find((e) => e.type === 'attempt' && e.probe === 'readiness' && e.paused === true);
  assert.ok(attempt);
  const mark = evidenceHit(layout, { t: attempt.t, type: 'attempt', summary: '', lane: 'probe:web/web/readiness' }, model.end);
  assert.equal(mark?.kind, 'mark');
  assert.equal(mark?.kind === 'mark' && (mark.lane.attempts.t[mark.index] as number), attempt.t);
  const unhealthy = events.find((e) => e.type === 'event' && e.reason === 'Unhealthy' && e.probe === 'readiness');
  assert.ok(unhealthy);
  assert.equal(evidenceHit(layout, { t: unhealthy.t, type: 'event', summary: '', lane: 'probe:web/web/readiness' }, model.end)?.kind, 'marker');
  const running = events.find((e) => e.type === 'container');
  assert.ok(running);
  const state = evidenceHit(layout, { t: running.t, type: 'container', summary: '', lane: 'container:web/web' }, model.end);
  assert.equal(state?.kind, 'state');
  const paused = evidenceHit(layout, { t: PAUSE.from, type: 'pause', summary: '', lane: 'pod:web' }, model.end);
  assert.equal(paused?.kind, 'pause');
  assert.equal(evidenceHit(layout, { t: 1, type: 'attempt', summary: '', lane: 'probe:web/other/liveness' }, model.end), undefined);
  const hidden = layoutRows(model.lanes(), { ...NO_FILTERS, hiddenProbes: new Set(['readiness']) }, new Set());
  assert.equal(evidenceHit(hidden, { t: attempt.t, type: 'attempt', summary: '', lane: 'probe:web/web/readiness' }, model.end), undefined);
});
