/**
 * The unified diff `probe-lens recommend` prints (src/core/text/unifiedDiff.ts): applied by the
 * real `patch -p1` and `git apply`, it must leave exactly the text the edits make — LF and CRLF
 * files, a last line with or without a line break, edits far apart (two hunks) and close together
 * (one), same-place insertions in order.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { applyTextEdits } from '../../../src/core/text/edits';
import type { TextEdit } from '../../../src/core/text/edits';
import { unifiedDiff } from '../../../src/core/text/unifiedDiff';
import { scratchDir } from '../../helpers/scratch';

const at = (line: number, character: number) => ({ line, character });
const insert = (line: number, character: number, newText: string): TextEdit => ({ range: { start: at(line, character), end: at(line, character) }, newText });
const replace = (line: number, from: number, to: number, newText: string): TextEdit => ({ range: { start: at(line, from), end: at(line, to) }, newText });

const LINES = Array.from({ length: 30 }, (_, i) => `line ${i}`);

const CASES: readonly [name: string, text: string, edits: readonly TextEdit[], hunks: number][] = [
  ['LF: an appended line and a replaced value 18 lines apart: two hunks', `${LINES.join('\n')}\n`, [insert(2, 6, '\n  added'), replace(20, 5, 7, '99')], 2],
  ['edits 4 lines apart share one hunk', `${LINES.join('\n')}\n`, [insert(2, 6, '\n  added'), replace(8, 5, 6, 'X')], 1],
  ['a line appended after the last one, which has no line break', LINES.join('\n'), [insert(29, 7, '\nlast added')], 1],
  ['a line appended after the last one, which has a line break', `${LINES.join('\n')}\n`, [insert(29, 7, '\nlast added')], 1],
  ['CRLF: the lines keep their CRLF', `${LINES.join('\r\n')}\r\n`, [insert(2, 6, '\r\n  added'), replace(5, 5, 6, 'X'), replace(6, 5, 6, 'Y')], 1],
  ['the last line replaced, no line break', LINES.join('\n'), [replace(29, 5, 7, 'end')], 1],
  ['two insertions at one place, in the order given', 'a\nb\n', [insert(0, 0, 'z'), insert(0, 0, 'w')], 1],
];

for (const [name, text, edits, hunks] of CASES) {
  test(`unified diff: ${name}`, () => {
    const diff = unifiedDiff('a/f.yaml', 'b/f.yaml', text, edits);
    assert.match(diff, /^--- a\/f\.yaml\n\+\+\+ b\/f\.yaml\n@@ /);
    assert.equal(diff.match(/^@@ /gm)?.length, hunks, diff);
    const expected = applyTextEdits(text, edits);
    for (const [command, args] of [
      ['patch', ['-p1', '--batch', '--silent']],
      ['git', ['apply', '-']],
    ] as const) {
      const dir = scratchDir('probe-lens-diff-');
      writeFileSync(join(dir, 'f.yaml'), text);
      const applied = spawnSync(command, args, { cwd: dir, input: diff, encoding: 'utf8' });
      assert.equal(applied.status, 0, `${command}: ${applied.stdout}${applied.stderr}\n${diff}`);
      assert.equal(readFileSync(join(dir, 'f.yaml'), 'utf8'), expected, command);
    }
  });
}

test('unified diff: only changed lines are - and +; no edit, no diff', () => {
  const diff = unifiedDiff('a/f', 'b/f', 'a\nb\nc\n', [insert(1, 1, '\nB')]);
  assert.equal(diff, '--- a/f\n+++ b/f\n@@ -1,3 +1,4 @@\n a\n b\n+B\n c\n');
  assert.equal(unifiedDiff('a/f', 'b/f', 'a\n', []), '');
});
