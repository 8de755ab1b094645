#!/usr/bin/env node
// Mode B: what a user sees. Starts code-server with the extension under development, drives the
// workbench in headless Chromium with Playwright and asserts on the DOM: the Problems panel, the
// quick-fix menu, code lenses, a probe's hover, and a simulated session in the Probes view with
// its live code lenses and status bar item. Takes the README's screenshots on the way
// (docs/images/{problems,quick-fix,code-lenses,hover,probes-tree}.png).
//
//   node test/e2e/uiTest.mjs [--workspace DIR] [--images DIR] [--failures DIR] [--verbose]
// Defaults: test/e2e/fixtures/workspace (a throw-away copy), docs/images, out/e2e (a screenshot
// per failed step). Exit code 0 when every step passed, 1 otherwise.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { enableDevelopmentPayload, FIXTURE_WORKSPACE, launchChromium, PROJECT_ROOT, seconds, startCodeServer, workbenchUrl } from './lib.mjs';
import { exact, plain, waitUntil, Workbench } from './ui/workbench.mjs';

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

/** ui/shop.yaml (one Deployment, container api with startup, liveness and readiness probes) and its scenario ui/shop.scenario.yaml. */
const SHOP = 'ui/shop.yaml';
/** Its code lenses, a line each, top to bottom (as in test/extension/suite/editor.vstest.ts; the `$(…)` codicons have no text). */
const SHOP_LENSES = [['Run probes', 'Simulate'], ['startup budget 300 s'], ['liveness kills after 30 s failing'], ['unready after 15 s failing']];
/** Where ui/shop.yaml's readinessProbe key is (1-based). */
const READINESS_KEY = { line: 24, column: 11 };

const started = Date.now();
let server;
let browser;
let page;
let passed = 0;
let failed = 0;
let skipRest = false;
/** Set when a step that everything needs (the workbench loading) failed: every later section is skipped too. */
let fatal = false;

/**
 * Steps of a section build on each other (no Problems panel without the file open): after a
 * failure the rest of the section is skipped and counted as failed. Each section starts afresh
 * (Escape closes whatever a failed step left open), unless a `fatal` step failed.
 */
async function section(name) {
  console.log(name);
  if (fatal) return;
  if (skipRest && page) {
    for (let i = 0; i < 3; i++) await page.keyboard.press('Escape').catch(() => {});
  }
  skipRest = false;
}

async function step(name, body, { isFatal = false } = {}) {
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
    fatal ||= isFatal;
    console.log(`  ✘ ${name} (${Date.now() - stepStarted} ms)\n    ${error instanceof Error ? error.message.split('\n').slice(0, 8).join('\n    ') : error}`);
    if (page) {
      mkdirSync(options.failures, { recursive: true });
      const shot = join(options.failures, `fail-${name.replace(/\W+/g, '-')}.png`);
      await page.screenshot({ path: shot }).then(() => console.log(`    screenshot: ${shot}`), () => {});
    }
  }
}

/**
 * A README screenshot: no notification toasts, the mouse parked in a corner (no tooltip, no
 * highlighted row) unless `keepMouse`; the whole 1280×800 page, or the region `clip()` returns.
 * Animations are finished (fade-ins) or reset (spinners), so that the image is the same from
 * one run to the next. `relayout` lays the workbench out afresh first (it closes menus and
 * hovers, and moves a resized side bar by a fraction of a pixel: only for plain views).
 */
async function screenshot(workbench, name, { keepMouse = false, clip, relayout = false } = {}) {
  await workbench.clearNotifications();
  if (!keepMouse) {
    await workbench.parkMouse();
    await waitUntil(async () => (await page.locator('.workbench-hover').filter({ visible: true }).count()) === 0, 'tooltips to close');
  }
  // A layout done while the workbench was still filling in (the Problems badge, a toolbar) can
  // leave boxes a fraction of a pixel off, which changes the antialiasing of their edges from
  // one run to the next.
  if (relayout) await workbench.relayout();
  mkdirSync(options.images, { recursive: true });
  await page.screenshot({ path: join(options.images, name), animations: 'disabled', ...(clip ? { clip: await clip() } : {}) });
}

/** The rows of a tree view: depth, label, description and codicon (`pass`, `loading~spin`), in order. */
async function treeRows(pane) {
  const rows = await pane.locator('.monaco-list-row').evaluateAll((nodes) =>
    nodes.map((row) => ({
      level: Number(row.getAttribute('aria-level')),
      label: row.querySelector('.label-name')?.textContent ?? '',
      description: row.querySelector('.label-description')?.textContent ?? '',
      icon: /codicon-([\w~-]+)/.exec(row.querySelector('.custom-view-tree-node-item-icon')?.className ?? '')?.[1] ?? '',
      selected: row.classList.contains('selected'),
    })),
  );
  return rows.map((row) => ({ ...row, label: plain(row.label), description: plain(row.description) }));
}

try {
  // For screenshots that do not change from run to run: no fade-ins caught halfway, a cursor
  // that does not blink, and no auto-forwarded ports (the status bar's count of forwarded ports
  // went from 0 to 1 in some runs).
  server = await startCodeServer({
    verbose: options.verbose,
    settings: { 'workbench.reduceMotion': 'on', 'editor.cursorBlinking': 'solid', 'remote.autoForwardPorts': false },
  });
  browser = await launchChromium();
  // 1280×800: the size of the README's screenshots.
  page = await browser.newPage({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
  page.on('pageerror', (error) => console.log('[pageerror]', error.message));
  if (options.verbose) page.on('console', (message) => console.log(`[browser ${message.type()}] ${message.text()}`));
  await enableDevelopmentPayload(page);
  const folder = server.copyWorkspace(options.workspace);
  await page.goto(workbenchUrl(server.port, { folder, extensionDevelopmentPath: PROJECT_ROOT }));
  const workbench = new Workbench(page);

  const explorerRow = (name) => page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first();

  await section('Problems');

  await step('the workbench loads with the fixture workspace', async () => {
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await explorerRow(MANIFEST).waitFor({ timeout: 60_000 });
  }, { isFatal: true });

  await step(`opening ${MANIFEST} from the explorer shows it in an editor with squiggles`, async () => {
    await explorerRow(MANIFEST).click();
    await page.locator('.tab.active', { hasText: MANIFEST }).waitFor({ timeout: 30_000 });
    // The diagnostics reached the editor, not only the extension host's collection.
    await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 30_000 });
    // Its lenses too: lens lines arriving after the Problems panel scrolls the editor would
    // move the text under it (and change the screenshot from run to run).
    await workbench.waitForCodeLenses((seen) => seen.length >= 3 && seen[0].join(' | ') === 'Run probes | Simulate', 'the lenses of web-deployment.yaml');
    await workbench.codeLensesSettled();
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
    await workbench.statusBarItem('Ln 25, Col 32 (1 selected)').waitFor({ timeout: 10_000 });
  });

  await step('screenshot docs/images/problems.png', async () => {
    await screenshot(workbench, 'problems.png', { relayout: true });
  });

  await section('Quick fix');

  await step(`Ctrl+. on the quoted port of ${MANIFEST} offers "Unquote the port: 8080"`, async () => {
    // Line 24: `port: "8080"`, the range of P06 and L04; L04 carries the fix.
    await workbench.goTo(24, 21);
    await page.keyboard.press('Control+.');
    const menu = workbench.actionWidget;
    await menu.locator('.monaco-list-row', { hasText: 'Unquote the port: 8080' }).waitFor({ timeout: 15_000 });
    const items = (await menu.locator('.monaco-list-row.action').allInnerTexts()).map(plain);
    if (options.verbose) console.log('    items:', JSON.stringify(items));
    assert.ok(items.includes('Unquote the port: 8080'), `the quick-fix menu: ${JSON.stringify(items)}`);
  });

  await step('screenshot docs/images/quick-fix.png', async () => {
    // The editor and the Problems panel, down to the status bar.
    await screenshot(workbench, 'quick-fix.png', { clip: async () => workbench.editorAreaClip({ bottom: (await page.locator('.part.statusbar').boundingBox()).y }) });
  });

  await step('Escape closes the menu without applying the fix', async () => {
    await page.keyboard.press('Escape');
    await workbench.actionWidget.waitFor({ state: 'hidden', timeout: 5_000 });
    assert.equal(await page.locator('.tab.active.dirty').count(), 0, `${MANIFEST} is unchanged (not dirty)`);
    assert.match(plain(await workbench.activeEditor.locator('.view-lines').innerText()), /port: "8080"/);
  });

  await section('Code lenses');

  await step(`${SHOP} shows a lens line per probing container and per probe`, async () => {
    await workbench.closePanel();
    await workbench.openFile(SHOP);
    const lenses = await workbench.waitForCodeLenses((seen) => seen.length >= SHOP_LENSES.length, `${SHOP_LENSES.length} lens lines`);
    assert.deepEqual(lenses, SHOP_LENSES, `the lens lines of ${SHOP}: ${JSON.stringify(lenses)}`);
  });

  await step('screenshot docs/images/code-lenses.png', async () => {
    await screenshot(workbench, 'code-lenses.png', { clip: () => workbench.editorAreaClip() });
  });

  await section('Hover');

  await step('hovering the livenessProbe key shows its effective values and when it kills', async () => {
    const key = workbench.activeEditor.locator('.view-line span span', { hasText: exact('livenessProbe') }).first();
    await key.hover();
    const hover = workbench.hover;
    await hover.locator('.hover-contents', { hasText: 'after 30 s of failures' }).first().waitFor({ timeout: 10_000 });
    const text = plain(await hover.innerText());
    if (options.verbose) console.log('    hover:', JSON.stringify(text));
    assert.match(text, /livenessProbe of api/);
    assert.match(text, /periodSeconds\s+10 \(default\)/);
    assert.match(text, /Kills the container after 30 s of failures once the startup probe has succeeded/);
  });

  await step('screenshot docs/images/hover.png', async () => {
    await screenshot(workbench, 'hover.png', { keepMouse: true, clip: () => workbench.editorAreaClip() });
    await page.mouse.move(0, 0);
    await page.keyboard.press('Escape');
    await workbench.hover.waitFor({ state: 'hidden', timeout: 5_000 });
  });

  await section('Simulated session');
  let probes;

  await step('the Probes view in the Explorer says no session is running', async () => {
    // Room for the tree: the workspace's file tree folded, the side bar wider.
    await workbench.togglePane(basename(resolve(options.workspace)), false);
    await workbench.resizeSidebar(480);
    probes = await workbench.togglePane('Probes');
    await probes.getByText('No probing session is running.').waitFor({ timeout: 10_000 });
  });

  await step('Probe Lens: Simulate… asks for a scenario beside the manifest and a speed', async () => {
    await workbench.runCommand('Probe Lens: Simulate…');
    const scenarios = await workbench.pick('Simulate shop.yaml', 'shop.scenario.yaml');
    assert.deepEqual(scenarios, ['shop.scenario.yaml', 'Create shop.scenario.yaml']);
    // 1×: the first probes run at t=10 s; then readiness every 5 s, liveness first at t=20 s,
    // which leaves 5 s of a steady state for the screenshot.
    const speeds = await workbench.pick('Simulation speed', '1×');
    assert.deepEqual(speeds, ['1×', '10×', '60×', '600×']);
    await workbench.quickInput.waitFor({ state: 'hidden', timeout: 10_000 });
  });

  await step('the Probes view shows the session, pod shop, container api and its three probes', async () => {
    let rows = [];
    await waitUntil(async () => (rows = await treeRows(probes)).length === 6, () => `6 rows in the Probes view: ${JSON.stringify(rows)}`, 15_000);
    assert.deepEqual(
      rows.map((row) => `${row.level} ${row.label}`),
      ['1 shop.yaml', '2 shop', '3 api', '4 liveness', '4 readiness', '4 startup'],
      `the Probes view's rows: ${JSON.stringify(rows)}`,
    );
    assert.match(rows[0].description, /^simulated · 1× · shop\.scenario\.yaml · t=\d+s · [01]\/1 ready$/);
  });

  await step('the status bar shows the session', async () => {
    await workbench.statusBarItem('ready / 1').waitFor({ timeout: 10_000 });
  });

  await step('moving the cursor onto readinessProbe selects its row in the Probes view', async () => {
    // A click, not "Go to Line", which would scroll line 24 to the middle of the editor.
    await workbench.clickText('readinessProbe');
    await workbench.statusBarItem(`Ln ${READINESS_KEY.line},`).waitFor({ timeout: 5_000 });
    await waitUntil(async () => (await treeRows(probes)).find((row) => row.selected)?.label === 'readiness', 'the readiness row to be selected');
  });

  await step('once the app is up, the tree, the lenses and the status bar say ready', async () => {
    let rows = [];
    await waitUntil(
      async () => {
        rows = await treeRows(probes);
        const readiness = rows.find((row) => row.label === 'readiness');
        return readiness && /^\d+\/\d+ ok · 10 ms$/.test(readiness.description) && readiness.icon === 'pass';
      },
      () => `the readiness row to pass: ${JSON.stringify(rows)}`,
      30_000,
    );
    const byLabel = Object.fromEntries(rows.map((row) => [row.label, row]));
    assert.match(byLabel['shop.yaml'].description, /^simulated · 1× · shop\.scenario\.yaml · t=\d+s · 1\/1 ready$/);
    assert.equal(byLabel.shop.description, 'ready');
    assert.equal(byLabel.api.description, 'ready · restarts 0');
    assert.match(byLabel.startup.description, /^1\/1 ok · 10 ms$/);
    assert.match(byLabel.liveness.description, /^(waiting for the first attempt|\d+\/\d+ ok · 10 ms)$/);
    const lenses = await workbench.waitForCodeLenses(
      (seen) => seen[0]?.[0] === 'started · ready · restarts 0' && /^● ready · /.test(seen[3]?.[0] ?? ''),
      'live lenses saying started and ready',
    );
    assert.deepEqual(lenses[0], ['started · ready · restarts 0', 'Open timeline', 'Stop'], `the live lenses: ${JSON.stringify(lenses)}`);
    assert.match(lenses[1][0], /^● started · 1\/1 ok · 10 ms$/);
    assert.match(lenses[2][0], /^(○ waiting for the first attempt|● alive · \d+\/\d+ ok · 10 ms)$/);
    assert.match(lenses[3][0], /^● ready · \d+\/\d+ ok · 10 ms$/);
    await workbench.statusBarItem('1 ready / 1').waitFor({ timeout: 10_000 });
    if (options.verbose) console.log('    tree:', JSON.stringify(rows), '\n    lenses:', JSON.stringify(lenses));
  });

  await step('screenshot docs/images/probes-tree.png', async () => {
    await screenshot(workbench, 'probes-tree.png');
  });

  await step('Probe Lens: Stop Probing ends the session: tree, status bar and lenses go back', async () => {
    await workbench.runCommand('Probe Lens: Stop Probing');
    await probes.getByText('No probing session is running.').waitFor({ timeout: 10_000 });
    await workbench.statusBarItem('ready / 1').waitFor({ state: 'detached', timeout: 10_000 });
    const lenses = await workbench.waitForCodeLenses((seen) => seen[0]?.[0] === 'Run probes', 'the static lenses');
    assert.deepEqual(lenses, SHOP_LENSES, `the lens lines after the session: ${JSON.stringify(lenses)}`);
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
