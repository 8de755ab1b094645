import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RealClock } from '../../../src/core/base/clock';

/** Keeps the event loop busy for `ms`, as a burst of stream traffic does. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

test('RealClock: a timer never fires before its delay has passed on its own clock, even when it was set late in a busy turn of the event loop', async () => {
  // Node counts a timer from the event loop's cached time, which lags behind while a turn is
  // busy: a probe worker's next tick then came a little early, saw itself before the period's
  // end, and ticked again at once — two probes in one period.
  const clock = new RealClock();
  const early: number[] = [];
  for (let i = 0; i < 20; i++) {
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        busy(4);
        const due = clock.now() + 20.5;
        clock.schedule(20.5, () => {
          if (clock.now() < due) early.push(due - clock.now());
          resolve();
        });
      }),
    );
  }
  assert.deepEqual(early, [], `fired early by ${early.map((ms) => ms.toFixed(3)).join(', ')} ms`);
});
