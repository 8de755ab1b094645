import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { zipEntries } from '../helpers/zip';

// `npm test` runs `npm run package` first, so CI builds the .vsix on every run.
const VSIX = 'dist/probe-lens.vsix';

test('the .vsix holds exactly what the .vscodeignore allowlist lets in', { skip: !existsSync(VSIX) && 'run `npm run package` first' }, () => {
  const files = zipEntries(VSIX)
    .filter((name) => name.startsWith('extension/'))
    .map((name) => name.slice('extension/'.length))
    .sort();
  // vsce stores the README as readme.md (the one with its images embedded, scripts/vsixReadme.mjs) and LICENSE as LICENSE.txt. The probers are loaded by a session's first probe.
  assert.deepEqual(files, [
    'LICENSE.txt',
    'changelog.md',
    'dist/codicons/LICENSE',
    'dist/codicons/codicon.css',
    'dist/codicons/codicon.ttf',
    'dist/extension.js',
    'dist/probers/exec.js',
    'dist/probers/grpc.js',
    'dist/probers/http.js',
    'dist/probers/tcp.js',
    'dist/webview/timeline.js',
    'docs/images/code-lenses.png',
    'docs/images/probes-tree.png',
    'docs/images/problems.png',
    'docs/images/timeline-dark.png',
    'docs/images/timeline-light.png',
    'docs/rules.md',
    'media/icon.png',
    'media/timeline-page.css',
    'media/timeline.css',
    'media/walkthrough/example/web.scenario.yaml',
    'media/walkthrough/example/web.yaml',
    'package.json',
    'readme.md',
  ]);
});

test('the .vsix declares the extension manifest VS Code reads', { skip: !existsSync(VSIX) && 'run `npm run package` first' }, () => {
  const entries = zipEntries(VSIX);
  assert.ok(entries.includes('extension.vsixmanifest'));
  assert.ok(entries.includes('[Content_Types].xml'));
});
