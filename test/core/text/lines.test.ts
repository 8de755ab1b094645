import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lineMapBetween } from '../../../src/core/editor/lineMap';
import { applyTextEdits, offsetAt } from '../../../src/core/text/edits';
import { lineBreakOf, lineSpans, splitLines } from '../../../src/core/text/lines';

test('lines break at \\r\\n, \\n and a lone \\r, as editors count them; a final break leaves an empty last line', () => {
  const text = 'a\r\nb\nc\rd\n';
  assert.deepEqual(splitLines(text), ['a', 'b', 'c', 'd', '']);
  assert.deepEqual(
    lineSpans(text).map((s) => [text.slice(s.start, s.end), s.lineBreak]),
    [['a', '\r\n'], ['b', '\n'], ['c', '\r'], ['d', '\n'], ['', '']],
  );
  assert.equal(lineBreakOf('x\r\ny\n'), '\r\n');
  assert.equal(lineBreakOf('no break'), '\n');
});

test('positions and edits index into those lines, clamped as an editor clamps them', () => {
  const text = 'ab\rcd';
  assert.equal(offsetAt(text, { line: 1, character: 1 }), 4);
  assert.equal(offsetAt(text, { line: 0, character: 99 }), 2);
  assert.equal(offsetAt(text, { line: 9, character: 0 }), text.length);
  assert.equal(applyTextEdits(text, [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 2 } }, newText: 'XY' }]), 'ab\rXY');
});

test('a stale model maps lines of a file with lone \\r breaks as the editor numbers them', () => {
  const map = lineMapBetween('a\rb\rc', 'a\rnew\rb\rc');
  assert.deepEqual(map, { head: 1, oldTail: 1, newTail: 2 });
});
