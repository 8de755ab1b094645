import assert from 'node:assert/strict';
import { test } from 'node:test';
import { escapeHtml } from '../../../src/core/text/html';

test('escapeHtml: text can neither open an element nor leave a quoted attribute (the CLI page, the timeline panel, rule pages)', () => {
  assert.equal(escapeHtml(`a<b>&"'`), 'a&#60;b&#62;&#38;&#34;&#39;');
  assert.equal(escapeHtml('plain text'), 'plain text');
});
