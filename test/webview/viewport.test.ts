import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MIN_FIT_SPAN, MIN_SPAN, Viewport } from '../../src/webview/timeline/model/viewport';

function viewport(width = 1000): Viewport {
  const v = new Viewport();
  v.setWidth(width);
  return v;
}

const close = (actual: number, expected: number, message?: string) => assert.ok(Math.abs(actual - expected) < 1e-6, `${message ?? ''} ${actual} ≉ ${expected}`);

test('time ↔ x: a linear map of the visible range onto the width', () => {
  const v = viewport(1000);
  v.setRange(100, 200, { start: 0, end: 1000 });
  close(v.toX(150), 500);
  close(v.toT(250), 125);
  close(v.pxPerSecond, 10);
});

test('fit-all shows everything with a little padding, and refits as the timeline grows', () => {
  const v = viewport();
  v.fitAll({ start: 0, end: 600 }, 600);
  assert.ok(v.start < 0 && v.start > -20, `start ${v.start}`);
  assert.ok(v.end > 600 && v.end < 620, `end ${v.end}`);
  v.update({ start: 0, end: 1200 }, 1200);
  assert.ok(v.end > 1200, 'auto-fit follows growth');
  // A timeline shorter than MIN_FIT_SPAN does not fill the width with one mark.
  v.fitAll({ start: 0, end: 1 }, 1);
  assert.ok(v.span >= MIN_FIT_SPAN);
});

test('zoom about the pointer keeps the time under it in place, and ends follow and auto-fit', () => {
  const v = viewport(1000);
  v.setFollow(true, { start: 0, end: 600 }, 600);
  const under = v.toT(250);
  v.zoomAt(250, 2, { start: 0, end: 600 });
  close(v.toT(250), under, 'anchor');
  assert.equal(v.follow, false, 'a wheel zoom is the user taking over');
  assert.equal(v.autoFit, false);
});

test('follow: the right edge stays at now; keyboard zoom keeps following at the new span; a pan stops it', () => {
  const v = viewport(1000);
  v.setFollow(true, { start: 0, end: 100 }, 100);
  assert.ok(v.end >= 100 && v.start <= 0, 'follows from the start while the span is not set (fit-all that grows)');
  v.zoomBy(4, { start: 0, end: 100 }, 100);
  assert.equal(v.follow, true);
  const span = v.span;
  v.update({ start: 0, end: 500 }, 500);
  close(v.span, span, 'the span is kept');
  assert.ok(v.end > 500 && v.start < 500, 'now is in view, at the right');
  v.panBy(-100, { start: 0, end: 500 });
  assert.equal(v.follow, false, 'panning back ends following');
  const { start, end } = v;
  v.update({ start: 0, end: 900 }, 900);
  assert.deepEqual([v.start, v.end], [start, end], 'and the view no longer moves by itself');
});

test('setFollow(true) after zooming in keeps the span the user chose', () => {
  const v = viewport(1000);
  v.setRange(10, 40, { start: 0, end: 100 });
  v.setFollow(true, { start: 0, end: 100 }, 100);
  close(v.span, 30);
  assert.ok(v.end >= 100);
});

test('clamp: the span stays between MIN_SPAN and a few times the timeline, and some of it stays in view', () => {
  const v = viewport(1000);
  const extent = { start: 0, end: 100 };
  v.setRange(0, 100, extent);
  for (let i = 0; i < 50; i++) v.zoomAt(500, 2, extent);
  close(v.span, MIN_SPAN);
  for (let i = 0; i < 50; i++) v.zoomAt(500, 0.5, extent);
  assert.ok(v.span <= 300 + 1e-9, `span ${v.span}`);
  v.setRange(0, 50, extent);
  v.panBy(100000, extent);
  assert.ok(v.start < 100, 'panned far right, the end of the timeline is still in view');
  v.panBy(-100000, extent);
  assert.ok(v.end > 0, 'panned far left, its start is still in view');
});
