import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VirtualClock } from '../../../src/core/base/clock';
import type { EngineEvent } from '../../../src/core/engine/events';
import { EventBatcher, TIMELINE_MESSAGES_PER_SECOND } from '../../../src/core/timeline/batcher';

const pod = (t: number): EngineEvent => ({ type: 'pod', t, pod: 'p', ready: t % 2 === 0 });

test('at most TIMELINE_MESSAGES_PER_SECOND batches a second, however fast events come, and none lost', () => {
  const clock = new VirtualClock();
  const batches: EngineEvent[][] = [];
  const batcher = new EventBatcher(clock, (events) => batches.push(events));
  let sent = 0;
  // 10 000 events a second for 10 s, one per 0.1 ms.
  for (let ms = 0; ms < 10_000; ms++) {
    for (let i = 0; i < 10; i++) batcher.push(pod(sent++));
    clock.advanceBy(1);
  }
  clock.advanceBy(1000);
  assert.ok(batches.length <= 10 * TIMELINE_MESSAGES_PER_SECOND + 1, `${batches.length} batches in 10 s`);
  assert.equal(batches.flat().length, sent);
  assert.deepEqual(
    batches.flat().map((e) => e.t),
    Array.from({ length: sent }, (_, i) => i),
  );
});

test('the first event after a quiet spell goes out at once; flush sends what is pending; dispose drops it', () => {
  const clock = new VirtualClock();
  const batches: number[][] = [];
  const batcher = new EventBatcher(clock, (events) => batches.push(events.map((e) => e.t)));
  batcher.push(pod(1));
  clock.advanceBy(0);
  assert.deepEqual(batches, [[1]]);
  batcher.push(pod(2));
  batcher.push(pod(3));
  batcher.flush();
  assert.deepEqual(batches, [[1], [2, 3]]);
  batcher.push(pod(4));
  batcher.dispose();
  clock.advanceBy(1000);
  assert.deepEqual(batches, [[1], [2, 3]]);
  assert.equal(clock.pendingTimers, 0, 'no timer left behind');
});
