import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EngineEvent } from '../../src/core/engine/events';
import type { TimelineSource, TimelineViewState } from '../../src/shared/protocol';
import { LaneFilters } from '../../src/webview/timeline/model/laneFilters';
import { DEFAULT_REPLAY_SPEED, ReplayController } from '../../src/webview/timeline/model/replay';
import { TimelineSession } from '../../src/webview/timeline/model/session';
import { ViewControls } from '../../src/webview/timeline/model/viewControls';
import { restoreViewport, snapshotViewState, ViewStatePersistence } from '../../src/webview/timeline/model/viewState';
import { Viewport } from '../../src/webview/timeline/model/viewport';
import { simulated, webPod } from '../helpers/engine';

const EVENTS = simulated(webPod('livenessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 10, failureThreshold: 3}'), 'containers: {web: {readyAfter: 20, failAfter: 60}}', 300);

const FILE: TimelineSource = { kind: 'file', title: 'web.jsonl', clock: { kind: 'virtual' }, live: false, rate: 1, replayable: true, capacity: 1000, canReveal: true, canExport: true };
const LIVE: TimelineSource = { ...FILE, kind: 'session', live: true, rate: 60, replayable: false };

/** A session of `source`, its view at 1000 px and a hand-driven clock (ms). */
function setup(source: TimelineSource, events: readonly EngineEvent[] = EVENTS, now = 300) {
  const session = new TimelineSession();
  const viewport = new Viewport();
  viewport.setWidth(1000);
  const replay = new ReplayController();
  const time = { ms: 0 };
  let changes = 0;
  const view = new ViewControls(session, viewport, replay, () => changes++, () => time.ms);
  session.load({ type: 'load', protocol: 1, source, events, dropped: [], now }, 0);
  return { session, viewport, replay, view, time, changes: () => changes };
}

test('replay: play starts over from the end and follows the playhead; a step plays real time × speed, at most 250 ms of it', () => {
  const { session, viewport, replay, view, time } = setup(FILE);
  assert.equal(replay.speed, DEFAULT_REPLAY_SPEED);
  view.togglePlay();
  assert.equal(replay.playing, true);
  assert.equal(session.feed.playhead, 0);
  assert.equal(viewport.follow, true);
  time.ms = 100;
  replay.step(session.feed, time.ms);
  assert.equal(session.feed.playhead, 6, '100 ms at 60×');
  time.ms = 10_100;
  replay.step(session.feed, time.ms);
  assert.equal(session.feed.playhead, 6 + 15, 'a hidden panel\'s 10 s gap plays as 250 ms');
  view.togglePlay();
  assert.equal(replay.playing, false);
  replay.step(session.feed, 20_000);
  assert.equal(session.feed.playhead, 21, 'paused: no steps');
});

test('replay: reaching the end shows everything and stops; seek moves the playhead and playing goes on from there', () => {
  const { session, replay, view, time } = setup(FILE);
  view.setSpeed(600);
  view.togglePlay();
  for (let ms = 250; ms <= 2500; ms += 250) replay.step(session.feed, (time.ms = ms));
  assert.equal(replay.playing, false);
  assert.equal(session.feed.playhead, undefined, 'everything');
  view.seek(0.5);
  assert.equal(session.feed.playhead, 150);
  replay.restoreSpeed(7);
  assert.equal(replay.speed, 600, 'a speed that is not offered is not restored');
  replay.restoreSpeed(10);
  assert.equal(replay.speed, 10);
});

test('view: follow only while something moves (live, or a replay); panning and wheel zoom stop it, key zoom keeps it', () => {
  const file = setup(FILE);
  file.view.toggleFollow();
  assert.equal(file.viewport.follow, false, 'a recording that is not playing has no `now` to follow');
  const live = setup(LIVE, EVENTS.filter((e) => e.t <= 100), 100);
  live.view.sourceLoaded(true, false, undefined);
  assert.equal(live.viewport.follow, true, 'a live session is followed from the start');
  live.view.zoomStep(2);
  assert.equal(live.viewport.follow, true);
  live.view.panBy(-50);
  assert.equal(live.viewport.follow, false);
  live.view.toggleFollow();
  assert.equal(live.viewport.follow, true);
  live.view.zoomAt(500, 2);
  assert.equal(live.viewport.follow, false);
  assert.ok(live.changes() >= 5, 'each was a change to save');
});

test('view: a new session in the same panel is followed unless the user had stopped following the last one; an ended one stops following', () => {
  const { session, viewport, view } = setup(LIVE, [], 10);
  view.sourceLoaded(true, false, undefined);
  viewport.follow = false;
  session.load({ type: 'load', protocol: 1, source: LIVE, events: [], dropped: [], now: 0 }, 0);
  view.sourceLoaded(false, true, undefined);
  assert.equal(viewport.follow, false, 'the user had stopped following a live one');
  session.load({ type: 'load', protocol: 1, source: FILE, events: EVENTS, dropped: [], now: 300 }, 0);
  view.sourceLoaded(false, false, undefined);
  session.load({ type: 'load', protocol: 1, source: LIVE, events: [], dropped: [], now: 0 }, 0);
  view.sourceLoaded(false, false, undefined);
  assert.equal(viewport.follow, true, 'after a recording, a live session is followed');
  session.end(30, 'probing stopped');
  view.sessionEnded();
  assert.equal(viewport.follow, false);
});

test('view: reveal centres a time out of view, and leaves one in view where it is', () => {
  const { viewport, view } = setup(FILE);
  view.showRange(0, 100);
  view.reveal(50);
  assert.deepEqual([viewport.start, viewport.end], [0, 100]);
  view.reveal(250);
  assert.deepEqual([viewport.start, viewport.end], [200, 300]);
});

test('view state: the range is saved only when the user chose it; filters and speed always; the first load restores it', () => {
  const { session, viewport, replay, view } = setup(FILE);
  const filters = new LaneFilters();
  filters.toggleContainer('web');
  filters.toggleOutcome('success');
  assert.equal(snapshotViewState(viewport, filters, replay.speed, session.restore).viewport, undefined, 'fit-all is recomputed, not frozen');
  view.showRange(40, 90);
  const saved = snapshotViewState(viewport, filters, 300, { kind: 'file', uri: 'file:///tmp/web.jsonl' });
  assert.deepEqual(saved, { protocol: 1, restore: { kind: 'file', uri: 'file:///tmp/web.jsonl' }, viewport: { start: 40, end: 90 }, follow: false, hiddenContainers: ['web'], hiddenProbes: [], hiddenOutcomes: ['success'], replaySpeed: 300 });
  const reloaded = new Viewport();
  reloaded.setWidth(1000);
  restoreViewport(reloaded, saved, false, session.extent(), session.feed.end);
  assert.deepEqual([reloaded.start, reloaded.end, reloaded.follow], [40, 90, false]);
  // A live session that was followed is followed again: it has moved on since the range was saved.
  restoreViewport(reloaded, { ...saved, follow: true }, true, session.extent(), session.feed.end);
  assert.equal(reloaded.follow, true);
  const restored = new LaneFilters();
  restored.restore({ ...saved, hiddenProbes: ['readiness', 'sideways' as never], hiddenOutcomes: ['success', 'purple' as never] });
  assert.deepEqual([[...restored.hiddenContainers], [...restored.hiddenProbes], [...restored.hiddenOutcomes]], [['web'], ['readiness'], ['success']], 'values another version wrote are dropped');
});

test('view state: saved once changes pause, the last snapshot wins; another version\'s state is not read', async () => {
  const store = { state: { protocol: 99 } as unknown, writes: 0, getState: () => store.state, setState: (s: unknown) => ((store.state = s), store.writes++) };
  const persistence = new ViewStatePersistence(store, 10);
  assert.equal(persistence.saved, undefined);
  const state = (speed: number): TimelineViewState => ({ protocol: 1, follow: false, hiddenContainers: [], hiddenProbes: [], hiddenOutcomes: [], replaySpeed: speed });
  for (const speed of [1, 10, 60]) persistence.schedule(() => state(speed));
  await new Promise((done) => setTimeout(done, 40));
  assert.equal(store.writes, 1);
  assert.equal((store.state as TimelineViewState).replaySpeed, 60);
  assert.equal(new ViewStatePersistence(store).saved?.replaySpeed, 60);
});
