import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EngineEvent } from '../../../src/core/engine/events';
import { laneKeyOf } from '../../../src/core/timeline/laneKeys';
import { TimelineStore } from '../../../src/core/timeline/store';

const attempt = (t: number, probe: 'liveness' | 'readiness', container = 'app'): EngineEvent => ({ type: 'attempt', t, pod: 'p', container, probe, containerId: 'id', outcome: 'success', output: '', durationMs: 1 });

test('lanes: attempts, results and a probe\'s own events on the probe; kills and state on the container; readiness and tunnels on the pod', () => {
  const base = { t: 0, pod: 'p' };
  assert.equal(laneKeyOf(attempt(0, 'liveness')), 'probe:p/app/liveness');
  assert.equal(laneKeyOf({ ...base, type: 'event', container: 'app', reason: 'Unhealthy', message: 'Liveness probe failed: x', eventType: 'Warning', probe: 'liveness' }), 'probe:p/app/liveness');
  assert.equal(laneKeyOf({ ...base, type: 'event', container: 'app', reason: 'Killing', message: 'Container app failed liveness probe, will be restarted', eventType: 'Normal', probe: 'liveness' }), 'container:p/app');
  assert.equal(laneKeyOf({ ...base, type: 'event', reason: 'Killing', message: 'Deleting pod p', eventType: 'Normal' }), 'pod:p');
  assert.equal(laneKeyOf({ ...base, type: 'status', container: 'app', started: true, ready: false }), 'container:p/app');
  assert.equal(laneKeyOf({ ...base, type: 'tunnel', state: 'down', local: '127.0.0.1:1', remote: '80' }), 'pod:p');
});

test('under the cap, every event is kept in arrival order', () => {
  const store = new TimelineStore(100);
  const events = [attempt(1, 'liveness'), attempt(1, 'readiness'), attempt(2, 'liveness'), { type: 'pod', t: 2, pod: 'p', ready: true } as EngineEvent];
  for (const event of events) store.push(event);
  assert.deepEqual(store.events(), events);
  assert.deepEqual(store.dropped(), []);
  assert.equal(store.total, 4);
});

test('at the cap, the largest lane gives up its oldest events; a quiet lane keeps its history', () => {
  const store = new TimelineStore(10);
  store.push({ type: 'pod', t: 0, pod: 'p', ready: false });
  for (let t = 1; t <= 30; t++) store.push(attempt(t, 'liveness'));
  store.push(attempt(31, 'readiness'));
  const kept = store.events();
  assert.equal(kept.length, 10);
  assert.equal(kept[0]?.type, 'pod', 'the pod lane kept its one event');
  assert.deepEqual(
    kept.filter((e) => e.type === 'attempt' && e.probe === 'liveness').map((e) => e.t),
    [23, 24, 25, 26, 27, 28, 29, 30],
  );
  assert.deepEqual(store.dropped(), [{ lane: 'probe:p/app/liveness', count: 22, throughT: 22 }]);
  assert.equal(store.total, 32);
  assert.equal(store.size, 10);
});

test('memory stays flat: a million events through a cap of 1 000', () => {
  const store = new TimelineStore(1000);
  for (let i = 0; i < 1_000_000; i++) store.push(attempt(i, i % 3 === 0 ? 'readiness' : 'liveness', `c${i % 5}`));
  assert.equal(store.size, 1000);
  const kept = store.events();
  assert.equal(kept.length, 1000);
  for (let i = 1; i < kept.length; i++) assert.ok((kept[i] as EngineEvent).t > (kept[i - 1] as EngineEvent).t, 'arrival order');
  const dropped = store.dropped().reduce((sum, d) => sum + d.count, 0);
  assert.equal(dropped, 999_000);
});

test('a capacity that is not a positive integer is a programming error', () => {
  assert.throws(() => new TimelineStore(0), RangeError);
  assert.throws(() => new TimelineStore(1.5), RangeError);
});
