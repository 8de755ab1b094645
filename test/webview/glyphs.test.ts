import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

// The CLI's page has no icon font: a codicon's private-use character, written as text or as CSS
// `content`, would show there as an empty box. Icons come only as `codicon-*` classes, and only
// when the panel links the codicon stylesheet (`dom.ts`).

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const PRIVATE_USE = /[\uE000-\uF8FF]|\\u\{?[eEfF][0-9a-fA-F]{3}\}?/;

test('no icon-font character in the timeline\'s code or stylesheets: nothing can show as an empty box on the page', () => {
  for (const path of [...sources('src/webview'), 'media/timeline.css']) {
    const text = readFileSync(path, 'utf8');
    assert.doesNotMatch(text, PRIVATE_USE, path);
    if (path.endsWith('.css')) assert.doesNotMatch(text, /content\s*:\s*['"]\\[0-9a-f]{4}/i, `${path}: an escaped glyph in \`content\``);
  }
});

test('codicons only by class, and only where the panel has them', () => {
  const users = sources('src/webview').filter((path) => /codicon-/.test(readFileSync(path, 'utf8')));
  assert.deepEqual(users, [join('src/webview/timeline/views/dom.ts')], 'one place decides: dom.ts, behind hasCodicons()');
});
