#!/usr/bin/env node
// Mode B: what a user sees. Starts code-server with the extension under development, drives the
// workbench in headless Chromium with Playwright and asserts on the DOM; takes the README's
// screenshot on the way (docs/images/problems.png).
//
//   node test/e2e/uiTest.mjs [--workspace DIR] [--images DIR] [--failures DIR] [--verbose]
// Defaults: test/e2e/fixtures/workspace (a throw-away copy), docs/images, out/e2e (a screenshot
// per failed step). Exit code 0 when every step passed, 1 otherwise.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { enableDevelopmentPayload, FIXTURE_WORKSPACE, launchChromium, PROJECT_ROOT, seconds, startCodeServer, workbenchUrl } from './lib.mjs';

const { values: options } = parseArgs({
  options: {
    workspace: { type: 'string', default: FIXTURE_WORKSPACE },
    images: { type: 'string', default: join(PROJECT_ROOT, 'docs/images') },
    failures: { type: 'string', default: join(PROJECT_ROOT, 'out/e2e') },
    verbose: { type: 'boolean', default: false },
  },
});

/** What web-deployment.yaml breaks, as the Problems panel shows it: rule id and 1-based start (the same findings as test/extension/suite/activation.vstest.ts). */
const EXPECTED_MARKERS = ['L04 24:21', 'L10 21:11', 'L19 35:24', 'L21 35:24', 'P06 24:21', 'P12 25:31'];
const MANIFEST = 'web-deployment.yaml';

const started = Date.now();
let server;
let browser;
let page;
let passed = 0;
let failed = 0;
let skipRest = false;

/** Steps build on each other (no Problems panel without the file open): after a failure the rest are skipped and counted as failed. */
async function step(name, body) {
  if (skipRest) {
    failed++;
    console.log(`  - ${name} (skipped)`);
    return;
  }
  const stepStarted = Date.now();
  try {
    await body();
    passed++;
    console.log(`  ✔ ${name} (${Date.now() - stepStarted} ms)`);
  } catch (error) {
    failed++;
    skipRest = true;
    console.log(`  ✘ ${name} (${Date.now() - stepStarted} ms)\n    ${error instanceof Error ? error.message.split('\n').slice(0, 6).join('\n    ') : error}`);
    if (page) {
      mkdirSync(options.failures, { recursive: true });
      const shot = join(options.failures, `fail-${name.replace(/\W+/g, '-')}.png`);
      await page.screenshot({ path: shot }).then(() => console.log(`    screenshot: ${shot}`), () => {});
    }
  }
}

try {
  server = await startCodeServer({ verbose: options.verbose });
  browser = await launchChromium();
  // 1280×800: the size of the README's screenshot.
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (error) => console.log('[pageerror]', error.message));
  if (options.verbose) page.on('console', (message) => console.log(`[browser ${message.type()}] ${message.text()}`));
  await enableDevelopmentPayload(page);
  const folder = server.copyWorkspace(options.workspace);
  await page.goto(workbenchUrl(server.port, { folder, extensionDevelopmentPath: PROJECT_ROOT }));

  const explorerRow = (name) => page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first();

  await step('the workbench loads with the fixture workspace', async () => {
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await explorerRow(MANIFEST).waitFor({ timeout: 60_000 });
  });

  await step(`opening ${MANIFEST} from the explorer shows it in an editor with squiggles`, async () => {
    await explorerRow(MANIFEST).click();
    await page.locator('.tab.active', { hasText: MANIFEST }).waitFor({ timeout: 30_000 });
    // The diagnostics reached the editor, not only the extension host's collection.
    await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 30_000 });
  });

  await step('the Problems panel lists every probe-lens finding with its rule id', async () => {
    await page.keyboard.press('Control+Shift+M');
    const markers = page.locator('.markers-panel .monaco-list-row');
    await markers.filter({ hasText: 'probe-lens' }).first().waitFor({ timeout: 30_000 });
    // Rows are the file's ("web-deployment.yaml 6") and one per finding, whose text on
    // Code 1.100 is "<message> probe-lens P06 [Ln 24, Col 21]" (the code is a link to its doc).
    const rows = await markers.allInnerTexts();
    if (options.verbose) console.log('    rows:', JSON.stringify(rows));
    const shown = rows
      .map((row) => /probe-lens\W*([A-Z]\d\d)\W*\[Ln (\d+), Col (\d+)\]/.exec(row))
      .filter((match) => match !== null)
      .map(([, rule, line, column]) => `${rule} ${line}:${column}`)
      .sort();
    assert.deepEqual(shown, EXPECTED_MARKERS, `the Problems panel's probe-lens rows: ${JSON.stringify(rows)}`);
    assert.ok(rows.some((row) => row.includes('successThreshold: Invalid value: 2: must be 1')), 'the P12 message is shown');
  });

  await step('clicking a finding in the Problems panel moves the cursor to it', async () => {
    await page.locator('.markers-panel .monaco-list-row', { hasText: 'successThreshold: Invalid value: 2' }).first().click();
    // The finding's range (the "2" at line 25, column 31) ends up selected, as the status bar
    // says; this also scrolls the probes into view for the screenshot.
    await page.locator('.statusbar-item', { hasText: 'Ln 25, Col 32 (1 selected)' }).first().waitFor({ timeout: 10_000 });
  });

  await step('screenshot docs/images/problems.png', async () => {
    mkdirSync(options.images, { recursive: true });
    await page.mouse.move(0, 0); // no hover widget over the editor
    await page.screenshot({ path: join(options.images, 'problems.png') });
  });
} catch (error) {
  failed++;
  console.log('[ui-test]', error instanceof Error ? error.message : error);
} finally {
  await browser?.close().catch(() => {});
  await server?.stop();
}
console.log(`[ui-test] ${seconds(started)}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
