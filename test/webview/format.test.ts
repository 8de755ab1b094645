import assert from 'node:assert/strict';
import { test } from 'node:test';
import { axisTicks, formatCount, formatElapsed, formatInstant, formatMillis, formatPoint, formatWallClock, tickStep } from '../../src/webview/timeline/words/format';
import { formatDuration } from '../../src/core/text/durations';

const VIRTUAL = { kind: 'virtual' } as const;
/** 2026-11-24 13:03:17 UTC; the tests pass a zone offset of 0, so they do not depend on the machine's. */
const STARTED = Date.UTC(2026, 10, 24, 13, 3, 17);

test('virtual axis: nice steps read as elapsed time (0s 30s 1m 1m30s)', () => {
  const ticks = axisTicks(0, 120, 400, VIRTUAL, 80);
  assert.deepEqual(
    ticks.map((t) => t.label),
    ['0s', '30s', '1m', '1m30s', '2m'],
  );
  assert.deepEqual(
    ticks.map((t) => t.t),
    [0, 30, 60, 90, 120],
  );
});

test('virtual axis: ticks start at the first multiple of the step in view, and hours read as 1h, 1h30m', () => {
  assert.deepEqual(
    axisTicks(3500, 9100, 280, VIRTUAL, 80).map((t) => t.label),
    ['1h', '1h30m', '2h', '2h30m'],
  );
  assert.deepEqual(
    axisTicks(10.2, 11.4, 600, VIRTUAL, 80).map((t) => t.label),
    ['10.2s', '10.4s', '10.6s', '10.8s', '11.0s', '11.2s', '11.4s'],
  );
});

test('axis steps: the smallest nice step whose labels are far enough apart', () => {
  assert.equal(tickStep(1, 80), 120);
  assert.equal(tickStep(10, 80), 10);
  assert.equal(tickStep(3, 80), 30);
  assert.equal(tickStep(0, 80), 2592000);
});

test('wall-clock axis: HH:MM:SS of local time, on round times, not round offsets from the start', () => {
  const clock = { kind: 'wall', startedAtMs: STARTED } as const;
  // 13:03:17 + 0..120 s at 30 s steps: the ticks fall on :30 and :00.
  const ticks = axisTicks(0, 120, 400, clock, 80, 0);
  assert.deepEqual(
    ticks.map((t) => t.label),
    ['13:03:30', '13:04:00', '13:04:30', '13:05:00'],
  );
  assert.equal(ticks[0]?.t, 13);
  // A zone east of UTC (offset -60 min, CET) shifts the labels, not the positions.
  assert.deepEqual(
    axisTicks(0, 120, 400, clock, 80, -60).map((t) => t.label),
    ['14:03:30', '14:04:00', '14:04:30', '14:05:00'],
  );
});

test('elapsed time: seconds, minutes, hours, decimals by precision, never 60s', () => {
  assert.equal(formatElapsed(0), '0s');
  assert.equal(formatElapsed(90), '1m30s');
  assert.equal(formatElapsed(3600), '1h');
  assert.equal(formatElapsed(3690), '1h1m30s');
  assert.equal(formatElapsed(59.999, 1), '1m');
  assert.equal(formatElapsed(12.5, 0.5), '12.5s');
  assert.equal(formatElapsed(-30), '-30s');
});

test('instants in tooltips: 10 ms on a virtual clock, ms of the time of day on a wall clock', () => {
  assert.equal(formatInstant(201.05, VIRTUAL), '3m21.05s');
  assert.equal(formatInstant(10, VIRTUAL), '10s');
  assert.equal(formatInstant(1.25, { kind: 'wall', startedAtMs: STARTED }, 0), '13:03:18.250');
  assert.equal(formatWallClock(STARTED, 1, 0), '13:03:17');
  assert.equal(formatPoint(11520, VIRTUAL), '3h12m');
  assert.equal(formatPoint(60, { kind: 'wall', startedAtMs: STARTED }, 0), '13:04:17');
});

test('durations and counts for people', () => {
  assert.equal(formatDuration(0.25), '250 ms');
  assert.equal(formatDuration(4.5), '4.5s');
  assert.equal(formatDuration(45), '45s');
  assert.equal(formatDuration(750), '12m30s');
  assert.equal(formatDuration(11520), '3h12m');
  assert.equal(formatDuration(2 * 86400 + 4 * 3600), '2d4h');
  assert.equal(formatMillis(12.4), '12 ms');
  assert.equal(formatMillis(1200), '1.20 s');
  assert.equal(formatCount(600000), '600 000');
  assert.equal(formatCount(1234), '1 234');
  assert.equal(formatCount(999), '999');
});
