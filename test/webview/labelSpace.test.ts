import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LabelSpace } from '../../src/webview/timeline/render/labelSpace';

const WIDTH = 1000;

test('a band name starts inside its band, after a restart label written at its start, and ends before the next', () => {
  const space = new LabelSpace();
  assert.equal(space.place(100, 400, 50, WIDTH), 104);
  assert.equal(space.place(-300, 400, 50, WIDTH), 4, 'a band begun off screen: named at the left edge');
  space.take(100, 190); // `↻1 shop/api/1` at the band's start
  assert.equal(space.place(100, 400, 50, WIDTH), 198);
  space.take(300, 380); // the next restart's label
  assert.equal(space.place(100, 400, 50, WIDTH), 198);
  assert.equal(space.place(100, 400, 95, WIDTH), undefined, 'it would run into the next label');
  assert.equal(space.place(150, 240, 50, WIDTH), undefined, 'too narrow once the label is passed');
  assert.equal(space.place(190, 280, 50, WIDTH), 194, 'a band starting where the label ends');
  assert.equal(space.place(900, 1200, 50, WIDTH), 904);
  assert.equal(space.place(900, 1200, 95, WIDTH), undefined, 'cut by the canvas\'s right edge: not written');
  space.clear();
  assert.equal(space.place(150, 240, 50, WIDTH), 154, 'a new row: nothing taken');
});

test('names never overlap what is taken, whatever the order ranges were taken in', () => {
  let seed = 7;
  const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
  for (let round = 0; round < 2000; round++) {
    const space = new LabelSpace();
    const taken: [number, number][] = [];
    for (let i = 0; i < 4; i++) {
      const from = random() * WIDTH;
      const range: [number, number] = [from, from + 5 + random() * 120];
      taken.push(range);
      space.take(...range);
    }
    const x0 = random() * WIDTH - 100;
    const x1 = x0 + random() * 600;
    const width = 10 + random() * 80;
    const left = space.place(x0, x1, width, WIDTH);
    if (left === undefined) continue;
    assert.ok(left >= Math.max(0, x0) && left + width <= Math.min(x1, WIDTH), `inside the band: ${left} in [${x0}, ${x1})`);
    for (const [from, to] of taken) assert.ok(left + width <= from || left >= to, `[${left}, ${left + width}) clear of [${from}, ${to})`);
  }
});
