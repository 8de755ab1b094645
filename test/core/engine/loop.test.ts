import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VirtualClock } from '../../../src/core/base/clock';
import { type LoopTarget, WorkerLoop } from '../../../src/core/engine/workerLoop';

const S = 1000;

/**
 * A fake `doProbe`: records start times (in seconds) and finishes after `duration(n)` seconds of
 * virtual time (n = 0-based attempt number); `keepGoing(n)` decides whether the loop goes on.
 */
class FakeTarget implements LoopTarget {
  readonly starts: number[] = [];
  readonly ends: number[] = [];
  inFlight = 0;

  constructor(
    private readonly clock: VirtualClock,
    private readonly duration: (n: number) => number = () => 0,
    private readonly keepGoing: (n: number) => boolean = () => true,
  ) {}

  doProbe(done: (keepGoing: boolean) => void): void {
    const n = this.starts.length;
    this.starts.push(this.clock.now() / S);
    this.inFlight++;
    assert.equal(this.inFlight, 1, 'probes never overlap (W15: synchronous inside the worker)');
    const finish = () => {
      this.inFlight--;
      this.ends.push(this.clock.now() / S);
      done(this.keepGoing(n));
    };
    const seconds = this.duration(n);
    if (seconds === 0) finish();
    else this.clock.schedule(seconds * S, finish);
  }
}

function rig(options: { periodSeconds?: number; jitterSeconds?: number; duration?: (n: number) => number; keepGoing?: (n: number) => boolean } = {}) {
  const clock = new VirtualClock();
  const target = new FakeTarget(clock, options.duration, options.keepGoing);
  let exits = 0;
  const loop = new WorkerLoop(target, {
    clock,
    periodMs: (options.periodSeconds ?? 10) * S,
    initialJitterMs: (options.jitterSeconds ?? 0) * S,
    onExit: () => exits++,
  });
  return { clock, target, loop, exits: () => exits };
}

test('W3: the first probe runs immediately on start, then one per period', () => {
  const { clock, target, loop } = rig();
  loop.start();
  assert.deepEqual(target.starts, [0], 'probed synchronously in start()');
  clock.advanceTo(45 * S);
  assert.deepEqual(target.starts, [0, 10, 20, 30, 40]);
  loop.dispose();
});

test('W3: fixed rate, not fixed delay: 3 s probes with a 10 s period start at 0, 10, 20 …', () => {
  const { clock, target, loop } = rig({ duration: () => 3 });
  loop.start();
  clock.advanceTo(55 * S);
  assert.deepEqual(target.starts, [0, 10, 20, 30, 40, 50]);
  assert.deepEqual(target.ends, [3, 13, 23, 33, 43, 53]);
  loop.dispose();
});

test('W3: a probe longer than the period coalesces missed ticks: one immediate re-probe when it ends, then back on the grid', () => {
  // The first probe takes 25 s (ticks at 10 and 20 are missed), the rest 1 s.
  const { clock, target, loop } = rig({ duration: (n) => (n === 0 ? 25 : 1) });
  loop.start();
  clock.advanceTo(45 * S);
  assert.deepEqual(target.starts, [0, 25, 30, 40]);
  loop.dispose();
});

test('W3: a probe that overruns several periods in a row re-probes once each time it ends', () => {
  // Every probe takes 15 s with a 10 s period: each ends with a tick buffered.
  const { clock, target, loop } = rig({ duration: () => 15 });
  loop.start();
  clock.advanceTo(61 * S);
  assert.deepEqual(target.starts, [0, 15, 30, 45, 60]);
  loop.dispose();
  clock.advanceTo(100 * S);
  assert.equal(clock.pendingTimers, 0);
});

test('W4: with start-up jitter the first probe waits the jitter, then the grid starts from there', () => {
  const { clock, target, loop } = rig({ jitterSeconds: 4 });
  loop.start();
  assert.deepEqual(target.starts, []);
  clock.advanceTo(3.999 * S);
  assert.deepEqual(target.starts, []);
  clock.advanceTo(35 * S);
  assert.deepEqual(target.starts, [4, 14, 24, 34]);
  loop.dispose();
});

test('W4: a trigger during the start-up jitter does not cut it short: the first probe still waits, then the buffered trigger runs', () => {
  // The kubelet's worker sleeps the jitter before its loop; a trigger sent meanwhile waits in the channel.
  const { clock, target, loop } = rig({ jitterSeconds: 4 });
  loop.start();
  clock.advanceTo(1 * S);
  loop.trigger();
  clock.advanceTo(3.999 * S);
  assert.deepEqual(target.starts, [], 'no probe before the jitter has passed');
  clock.advanceTo(25 * S);
  assert.deepEqual(target.starts, [4, 4, 14, 24]);
  loop.dispose();
});

test('W4: no jitter → no timer before the first probe', () => {
  const { clock, target, loop } = rig({ jitterSeconds: 0 });
  loop.start();
  assert.deepEqual(target.starts, [0]);
  assert.equal(clock.pendingTimers, 1, 'only the first tick');
  loop.dispose();
  assert.equal(clock.pendingTimers, 0);
});

test('W13: a trigger probes at once and restarts the tick grid: the next periodic probe is a full period later', () => {
  const { clock, target, loop } = rig();
  loop.start();
  clock.advanceTo(4 * S);
  loop.trigger();
  assert.deepEqual(target.starts, [0, 4]);
  clock.advanceTo(35 * S);
  assert.deepEqual(target.starts, [0, 4, 14, 24, 34]);
  loop.dispose();
});

test('W13: a trigger while a probe runs is buffered once: one probe when it ends, and the grid restarts from there', () => {
  const { clock, target, loop } = rig({ duration: () => 3 });
  loop.start();
  clock.advanceTo(1 * S);
  loop.trigger();
  clock.advanceTo(2 * S);
  loop.trigger();
  loop.trigger();
  clock.advanceTo(3 * S);
  assert.deepEqual(target.starts, [0, 3], 'three triggers, one extra probe');
  clock.advanceTo(30 * S);
  assert.deepEqual(target.starts, [0, 3, 13, 23]);
  loop.dispose();
});

test('W13: a trigger and a buffered tick during one probe still give a single probe when it ends', () => {
  // The probe runs 0–12: the tick at 10 is buffered, a trigger arrives at 11.
  const { clock, target, loop } = rig({ duration: (n) => (n === 0 ? 12 : 0) });
  loop.start();
  clock.advanceTo(11 * S);
  loop.trigger();
  clock.advanceTo(21 * S);
  // One probe at 12 (the trigger, which also drops the stale tick); next a full period later.
  assert.deepEqual(target.starts, [0, 12]);
  clock.advanceTo(22 * S);
  assert.deepEqual(target.starts, [0, 12, 22]);
  loop.dispose();
});

test('W14: dispose is idempotent: onExit once, no more probes, nothing left on the clock', () => {
  const { clock, target, loop, exits } = rig();
  loop.start();
  clock.advanceTo(15 * S);
  loop.dispose();
  loop.dispose();
  assert.equal(exits(), 1);
  assert.equal(clock.pendingTimers, 0);
  clock.advanceTo(100 * S);
  assert.deepEqual(target.starts, [0, 10]);
  assert.equal(exits(), 1);
  loop.trigger();
  assert.deepEqual(target.starts, [0, 10], 'a trigger after dispose does nothing');
});

test('W14: an in-flight probe is not cancelled; the loop exits when it returns', () => {
  const { clock, target, loop, exits } = rig({ duration: () => 3 });
  loop.start();
  clock.advanceTo(11 * S);
  loop.dispose();
  assert.equal(exits(), 0, 'still probing');
  assert.equal(target.inFlight, 1);
  loop.dispose();
  clock.advanceTo(13 * S);
  assert.deepEqual(target.ends, [3, 13], 'the probe ran to its end');
  assert.equal(exits(), 1);
  assert.equal(clock.pendingTimers, 0);
  clock.advanceTo(60 * S);
  assert.deepEqual(target.starts, [0, 10]);
  assert.equal(exits(), 1);
});

test('W14: disposing during the start-up jitter ends the loop without a probe', () => {
  const { clock, target, loop, exits } = rig({ jitterSeconds: 5 });
  loop.start();
  clock.advanceTo(2 * S);
  loop.dispose();
  assert.equal(exits(), 1);
  assert.equal(clock.pendingTimers, 0);
  clock.advanceTo(30 * S);
  assert.deepEqual(target.starts, []);
});

test('W5.2: a doProbe that says stop ends the loop: onExit once, nothing left on the clock', () => {
  const { clock, target, loop, exits } = rig({ keepGoing: (n) => n < 2 });
  loop.start();
  clock.advanceTo(60 * S);
  assert.deepEqual(target.starts, [0, 10, 20]);
  assert.equal(exits(), 1);
  assert.equal(clock.pendingTimers, 0);
  loop.dispose();
  loop.trigger();
  assert.equal(exits(), 1);
  assert.deepEqual(target.starts, [0, 10, 20]);
});

test('W15: loops are independent: their own phases and periods on one clock', () => {
  const clock = new VirtualClock();
  const a = new FakeTarget(clock);
  const b = new FakeTarget(clock, () => 2);
  const loopA = new WorkerLoop(a, { clock, periodMs: 10 * S, initialJitterMs: 0, onExit: () => {} }).start();
  clock.advanceTo(3 * S);
  const loopB = new WorkerLoop(b, { clock, periodMs: 7 * S, initialJitterMs: 0, onExit: () => {} }).start();
  clock.advanceTo(30 * S);
  assert.deepEqual(a.starts, [0, 10, 20, 30]);
  assert.deepEqual(b.starts, [3, 10, 17, 24]);
  loopA.dispose();
  loopB.dispose();
  clock.advanceTo(40 * S);
  assert.equal(clock.pendingTimers, 0);
});

test('W3: a grid that starts at a fractional instant stays a grid: one probe per period, never a loop at one instant', () => {
  // The editor plays a simulation's clock in steps of real time × speed, so grids start at
  // instants such as 92996.81719405686 ms. Off an exact grid `elapsed / period` fell a hair short
  // of a whole number on a tick, and the next tick was scheduled at that same instant, forever:
  // VirtualClock keeps its instants on a binary grid, where that arithmetic is exact.
  for (const [origin, period] of [
    [92996.81719405686, 1000],
    [118013.95241218913, 5000],
    [84049.88137710911, 3000],
  ] as const) {
    const clock = new VirtualClock();
    clock.advanceTo(origin);
    let probes = 0;
    const loop = new WorkerLoop(
      {
        doProbe(done) {
          probes++;
          assert.ok(probes <= 10_000, `a runaway loop (origin ${origin}, period ${period})`);
          done(true);
        },
      },
      { clock, periodMs: period, initialJitterMs: 0, onExit: () => {} },
    ).start();
    let played = 0;
    for (let i = 0; i < 300; i++) {
      const step = 6000 + ((i * 7919) % 700) / 100;
      clock.advanceBy(step);
      played += step;
    }
    loop.dispose();
    assert.equal(probes, 1 + Math.floor(played / period), `origin ${origin}, period ${period}`);
  }
});
