import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TimelineSource } from '../../src/shared/protocol';
import { LiveClock, liveFrameDelay, MAX_RUN_ON_MS } from '../../src/webview/timeline/model/liveClock';
import { TimelineSession } from '../../src/webview/timeline/model/session';

test('live clock: between messages `now` runs on at the rate, and never steps back when a message lags the guess', () => {
  const clock = new LiveClock();
  clock.reset(100, 60, 0);
  assert.equal(clock.read(0, 0), 100);
  assert.equal(clock.read(500, 0), 130, 'half a second at 60×');
  clock.sync(125, 600);
  assert.equal(clock.read(600, 0), 130, 'the host said 125 but 130 was shown: it stays');
  assert.equal(clock.read(1000, 0), 149);
  assert.equal(clock.read(1000, 170), 170, 'an event later than the guess moves it on');
});

test('live clock: a host that stops sending does not have the timeline race ahead — at most MAX_RUN_ON_MS × rate past its last now', () => {
  const clock = new LiveClock();
  clock.reset(100, 60, 0);
  const bound = 100 + (MAX_RUN_ON_MS / 1000) * 60;
  assert.equal(clock.read(MAX_RUN_ON_MS, 0), bound);
  assert.equal(clock.read(60_000, 0), bound, 'a minute of silence');
  assert.equal(clock.read(3_600_000, 0), bound, 'an hour of silence (a suspended laptop)');
  assert.equal(clock.runningAt(MAX_RUN_ON_MS - 1), true);
  assert.equal(clock.runningAt(MAX_RUN_ON_MS), false, 'stopped: no more frames are needed for it');
  clock.sync(300, 3_600_000);
  assert.equal(clock.runningAt(3_600_000), true, 'a message starts it again');
  assert.equal(clock.read(3_600_500, 0), 330);
});

test('live clock: the host\'s last word corrects it, even backwards; a paused rate does not run', () => {
  const clock = new LiveClock();
  clock.reset(0, 600, 0);
  clock.read(1000, 0);
  assert.equal(clock.shown, 600);
  clock.settle(420);
  assert.equal(clock.shown, 420);
  const paused = new LiveClock();
  paused.reset(50, 0, 0);
  assert.equal(paused.read(1500, 0), 50);
  assert.equal(paused.runningAt(10), false);
});

test('live clock: a simulation paused and resumed — the host says its rate with `now`, and the clock stops and runs again', () => {
  const clock = new LiveClock();
  clock.reset(0, 60, 0);
  assert.equal(clock.read(500, 0), 30);
  clock.sync(30, 500, 0);
  assert.equal(clock.read(900, 0), 30, 'paused: time does not run on');
  assert.equal(clock.runningAt(900), false, 'no frames are needed while paused');
  clock.sync(30, 2000, 600);
  assert.equal(clock.read(2100, 0), 90, 'resumed at 600×');
  clock.sync(95, 2200);
  assert.equal(clock.read(2300, 0), 155, 'a message without a rate keeps the last one');
});

test('live frames come when `now` has crossed about a pixel: no faster than ~30 a second, no slower than one a second', () => {
  assert.equal(liveFrameDelay(1, 1), 1000, '1 px a second');
  assert.equal(liveFrameDelay(1, 10), 100);
  assert.equal(liveFrameDelay(600, 10), 33, 'fast: capped');
  assert.equal(liveFrameDelay(1, 0.001), 1000, 'slow: at least a frame a second');
  assert.equal(liveFrameDelay(0, 10), 1000);
});

const LIVE: TimelineSource = { kind: 'session', title: 'web.yaml · simulated 60×', clock: { kind: 'virtual' }, live: true, rate: 60, replayable: false, capacity: 1000, canReveal: true, canExport: true };

test('session: a live source\'s now runs on (bounded), the extent follows it; ended, it is exactly the host\'s', () => {
  const session = new TimelineSession();
  assert.equal(session.isLive, false);
  assert.equal(session.title, 'Timeline');
  session.load({ type: 'load', protocol: 1, source: LIVE, events: [], dropped: [], now: 10 }, 0);
  assert.equal(session.isLive, true);
  assert.equal(session.title, LIVE.title);
  assert.equal(session.now(1000), 70);
  assert.deepEqual(session.extent(), { start: 0, end: 70 });
  assert.equal(session.now(30_000), 10 + (MAX_RUN_ON_MS / 1000) * 60, 'bounded');
  assert.equal(session.clockRunningAt(30_000), false);
  session.append({ type: 'append', protocol: 1, events: [], dropped: [], now: 200 }, 30_000);
  assert.equal(session.now(30_000), 200);
  assert.equal(session.clockRunningAt(30_000), true);
  session.end(205, 'probing stopped');
  assert.equal(session.isLive, false);
  assert.equal(session.now(99_000), 205, 'no more running on');
  assert.deepEqual(session.extent(), { start: 0, end: 205 });
  assert.equal(session.noteInput().ended?.reason, 'probing stopped');
});

test('session: a failed load is no longer loading nor live', () => {
  const session = new TimelineSession();
  assert.equal(session.loading, true);
  session.fail('no such file');
  assert.equal(session.loading, false);
  assert.equal(session.noteInput().failed, 'no such file');
  session.load({ type: 'load', protocol: 1, source: LIVE, events: [], dropped: [], now: 0 }, 0);
  assert.equal(session.failed, undefined, 'a new load starts over');
});

test('a source that had already stopped (a revived panel) is never live: its load ends it, a sliced load with its last slice', () => {
  const whole = new TimelineSession();
  whole.load({ type: 'load', protocol: 1, source: LIVE, events: [], dropped: [], now: 12, ended: 'restored after a window reload' }, 0);
  assert.equal(whole.isLive, false);
  assert.deepEqual(whole.ended, { now: 12, reason: 'restored after a window reload' });

  const sliced = new TimelineSession();
  sliced.load({ type: 'load', protocol: 1, source: LIVE, events: [], dropped: [], now: 12, loading: true, ended: 'restored after a window reload' }, 0);
  assert.equal(sliced.ended, undefined, 'still loading: not yet ended');
  sliced.append({ type: 'append', protocol: 1, events: [], dropped: [], now: 12, loading: true }, 0);
  assert.equal(sliced.ended, undefined);
  sliced.append({ type: 'append', protocol: 1, events: [], dropped: [], now: 12 }, 0);
  assert.deepEqual(sliced.ended, { now: 12, reason: 'restored after a window reload' });
  assert.equal(sliced.isLive, false);
});
