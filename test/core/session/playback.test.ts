/**
 * Simulation controls on the virtual clock (src/core/session/playback.ts): real time × speed,
 * pause and resume (time paused is never played), a speed change, and "next event".
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VirtualClock } from '../../../src/core/base/clock';
import { MAX_STEP_REAL_MS, Playback } from '../../../src/core/session/playback';
import { webPod } from '../../helpers/engine';
import { sessionRun } from './sessionRun';

test('real time × speed; a step plays at most a second of real time', () => {
  const clock = new VirtualClock();
  const playback = new Playback(clock, 60);
  playback.tick(5_000); // the first tick only sets where real time starts
  assert.equal(clock.now(), 0);
  playback.tick(5_100);
  assert.equal(clock.now(), 6_000, '100 ms at 60× is 6 virtual seconds');
  playback.tick(25_100); // a stalled host: 20 s later
  assert.equal(clock.now(), 6_000 + MAX_STEP_REAL_MS * 60);
});

test('pause stops the virtual clock; resume plays on without the time paused', () => {
  const clock = new VirtualClock();
  const playback = new Playback(clock, 10);
  playback.tick(0);
  playback.tick(100);
  assert.equal(clock.now(), 1_000);
  playback.pause();
  assert.equal(playback.isPaused, true);
  playback.tick(200);
  playback.tick(900);
  assert.equal(clock.now(), 1_000, 'paused');
  playback.resume();
  playback.tick(1_000);
  assert.equal(clock.now(), 2_000, 'only the 100 ms since the last tick are played');
});

test('a new speed applies from the next tick; a speed that is not a positive number is refused', () => {
  const clock = new VirtualClock();
  const playback = new Playback(clock, 1);
  playback.tick(0);
  playback.tick(500);
  assert.ok(playback.setSpeed(600));
  playback.tick(600);
  assert.equal(clock.now(), 500 + 100 * 600);
  for (const speed of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) assert.equal(playback.setSpeed(speed), false, String(speed));
  assert.equal(playback.speed, 600);
});

test('next event: pauses, then jumps from one due timer to the next until the engine reports something', () => {
  // Readiness every 5 s, each attempt taking 10 ms: the first ends at 10 ms (ready), the status
  // update triggers another at once (W13), then the worker ticks at 5.01 s, 10.01 s…
  const run = sessionRun(webPod('readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 5}'), 'containers:\n  web: {readyAfter: 0, latency: 0.01}\n');
  try {
    const playback = new Playback(run.clock, 1);
    const reported = () => {
      const before = run.events.length;
      return () => run.events.length > before;
    };
    assert.deepEqual(playback.nextEvent(reported()), { ok: true, at: 10 }, 'the first attempt ends: ready');
    assert.equal(playback.isPaused, true);
    assert.equal(run.events.at(-1)?.type, 'pod', 'the attempt, its result, and the statuses it changed');
    assert.deepEqual(playback.nextEvent(reported()), { ok: true, at: 20 }, 'the attempt W13 triggered');
    const attempts = run.events.length;
    assert.deepEqual(playback.nextEvent(reported()), { ok: true, at: 5_020 }, 'the tick at 5.01 s reports nothing; its attempt ending at 5.02 s does');
    assert.deepEqual(run.events.slice(attempts).map((e) => e.type), ['attempt']);
    assert.deepEqual(playback.nextEvent(reported()), { ok: true, at: 10_020 });
    playback.tick(0);
    playback.tick(60_000);
    assert.equal(run.clock.now(), 10_020, 'still paused after the step');
  } finally {
    run.dispose();
  }
});

test('next event with nothing scheduled says so and leaves the clock where it is', () => {
  const clock = new VirtualClock(1_000);
  const playback = new Playback(clock, 1);
  const cancelled = clock.schedule(10, () => assert.fail('cancelled timers never fire'));
  cancelled.dispose();
  assert.equal(clock.nextDueAt(), undefined, 'an instant whose timers were all cancelled is no event');
  assert.deepEqual(playback.nextEvent(() => true), { ok: false, reason: 'nothing is scheduled: every container has stopped' });
  assert.equal(clock.now(), 1_000);
});
