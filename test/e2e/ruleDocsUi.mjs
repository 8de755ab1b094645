#!/usr/bin/env node
// A rule's documentation as a user reaches it (issue 10 §6), in the real VS Code (code-server +
// headless Chromium): clicking a rule id in the Problems panel opens that rule's page, rendered;
// the code link in a hover opens another rule's page in the same panel; a rule named on the page
// links to its own page. Screenshots of the page in a dark and a light theme go to --images.
//
//   node test/e2e/ruleDocsUi.mjs [--ext DIR] [--workspace DIR] [--images DIR] [--verbose]
// Defaults: the project root, test/e2e/fixtures/workspace (a throw-away copy), out/e2e.
// Exit code 0 when every step passed, 1 otherwise.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { enableDevelopmentPayload, FIXTURE_WORKSPACE, launchChromium, PROJECT_ROOT, seconds, startCodeServer, workbenchUrl } from './lib.mjs';
import { Steps } from './ui/steps.mjs';
import { plain, waitUntil, Workbench } from './ui/workbench.mjs';

const { values: options } = parseArgs({
  options: {
    ext: { type: 'string', default: PROJECT_ROOT },
    workspace: { type: 'string', default: FIXTURE_WORKSPACE },
    images: { type: 'string', default: join(PROJECT_ROOT, 'out/e2e') },
    verbose: { type: 'boolean', default: false },
  },
});

const MANIFEST = 'web-deployment.yaml';
/** Where web-deployment.yaml's P12 is (1-based): the `2` of `successThreshold: 2`. */
const P12_AT = { line: 25, column: 31 };

/**
 * What the rule page in some webview frame shows, or undefined while none does. code-server nests
 * each webview in two iframes; the page's `<main data-rule>` names its rule.
 */
async function shownRulePage(page) {
  for (const frame of page.frames()) {
    const shown = await frame
      .evaluate(() => {
        const main = document.querySelector('main[data-rule]');
        if (!main) return undefined;
        const visible = (element) => element.getBoundingClientRect().height > 0 && getComputedStyle(element).visibility !== 'hidden';
        return {
          rule: main.getAttribute('data-rule'),
          heading: document.querySelector('h1')?.textContent ?? '',
          anchor: document.querySelector('h1')?.id ?? '',
          sections: [...document.querySelectorAll('h2')].map((h) => h.textContent),
          examples: [...document.querySelectorAll('pre')].filter(visible).map((pre) => ({ reported: pre.className, text: pre.textContent })),
          // Styles applied (the CSP let the page's own style in): the heading is not the browser's default 2em.
          headingSize: getComputedStyle(document.querySelector('h1')).fontSize,
          bodyFont: getComputedStyle(document.body).fontFamily,
        };
      })
      .catch(() => undefined);
    if (shown) return { frame, ...shown };
  }
  return undefined;
}

async function waitForRulePage(page, rule) {
  let seen;
  return waitUntil(
    async () => {
      seen = await shownRulePage(page);
      return seen?.rule === rule && seen;
    },
    () => `the ${rule} rule page (seen: ${seen ? seen.rule : 'no rule page'})`,
    20_000,
  );
}

const started = Date.now();
let server;
let browser;
let page;
const steps = new Steps({ failures: options.images, prefix: 'rule-docs-', page: () => page });
const { section, step } = steps;

async function screenshot(workbench, name) {
  await workbench.clearNotifications();
  await workbench.parkMouse();
  mkdirSync(options.images, { recursive: true });
  const path = join(options.images, name);
  await page.screenshot({ path, animations: 'disabled' });
  console.log(`    ${path}`);
}

try {
  server = await startCodeServer({ verbose: options.verbose, settings: { 'workbench.reduceMotion': 'on', 'editor.cursorBlinking': 'solid', 'remote.autoForwardPorts': false } });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
  page.on('pageerror', (error) => console.log('[pageerror]', error.message));
  if (options.verbose) page.on('console', (message) => console.log(`[browser ${message.type()}] ${message.text()}`));
  await enableDevelopmentPayload(page);
  await page.goto(workbenchUrl(server.port, { folder: server.copyWorkspace(options.workspace), extensionDevelopmentPath: options.ext }));
  const workbench = new Workbench(page);
  await section('Rule documentation');

  await step(`${MANIFEST} opens with its findings in the Problems panel`, async () => {
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: MANIFEST }).first().click({ timeout: 60_000 });
    await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 30_000 });
    await page.keyboard.press('Control+Shift+M');
    await page.locator('.markers-panel .monaco-list-row', { hasText: 'probe-lens' }).first().waitFor({ timeout: 30_000 });
  });

  await step('clicking the rule id P06 in the Problems panel opens the P06 page, rendered, in a panel beside the manifest', async () => {
    const row = page.locator('.markers-panel .monaco-list-row').filter({ has: page.locator('a.monaco-link', { hasText: /^P06$/ }) }).first();
    await row.locator('a.monaco-link', { hasText: /^P06$/ }).click();
    const shown = await waitForRulePage(page, 'P06');
    if (options.verbose) console.log('    page:', JSON.stringify({ ...shown, frame: undefined }));
    assert.equal(plain(shown.heading), 'P06 Port name is not valid');
    assert.equal(shown.anchor, 'p06');
    assert.deepEqual(shown.sections, ['What it means', 'Why it matters', 'Triggers it', 'Does not trigger it', 'Turn it off']);
    assert.deepEqual(shown.examples.map((e) => e.reported), ['reported', 'not-reported']);
    assert.match(shown.examples[0].text, /port: http_metrics/);
    assert.match(shown.examples[1].text, /port: http-metrics/);
    assert.notEqual(shown.headingSize, '32px', 'the page\'s own styles apply (its CSP lets them in)');
    await page.locator('.tab.active', { hasText: 'P06 · Port name is not valid' }).waitFor({ timeout: 10_000 });
    // Beside the manifest, which stays open in the first group.
    assert.equal(await page.locator('.editor-group-container').count(), 2);
  });

  await step('screenshot rule-doc-dark.png', async () => {
    await screenshot(workbench, 'rule-doc-dark.png');
  });

  await step('the code link in a hover opens that rule (P12) in the same panel', async () => {
    await page.locator('.editor-group-container').first().click({ position: { x: 300, y: 200 } });
    await workbench.goTo(P12_AT.line, P12_AT.column);
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+I');
    const link = page.locator('.monaco-hover a.code-link', { hasText: /^P12$/ }).first();
    await link.waitFor({ timeout: 10_000 });
    await link.click();
    const shown = await waitForRulePage(page, 'P12');
    assert.equal(plain(shown.heading), 'P12 Liveness successThreshold is not 1');
    await page.locator('.tab', { hasText: 'P12 · Liveness successThreshold is not 1' }).waitFor({ timeout: 10_000 });
    assert.equal(await page.locator('.tab', { hasText: /^P\d\d · / }).count(), 1, 'one rule page, not one per click');
  });

  await step('a rule named on a page links to that rule: L04 → P06', async () => {
    await page.keyboard.press('Escape');
    await workbench.runCommand('Probe Lens: Show Rule Documentation');
    await workbench.quickInput.locator('input.input').fill('L04');
    await workbench.quickInputRow('L04').first().click();
    const l04 = await waitForRulePage(page, 'L04');
    await l04.frame.locator('a', { hasText: /^P06$/ }).first().click();
    await waitForRulePage(page, 'P06');
  });

  await step('screenshot rule-doc-light.png: the examples, in a light theme', async () => {
    await workbench.colorTheme('Light Modern');
    await workbench.closePanel();
    const shown = await waitForRulePage(page, 'P06');
    await shown.frame.evaluate(() => [...document.querySelectorAll('h2')].find((h) => h.textContent === 'Triggers it')?.scrollIntoView());
    await screenshot(workbench, 'rule-doc-light.png');
  });
} catch (error) {
  steps.harnessFailed('[rule docs]', error);
} finally {
  await browser?.close().catch(() => {});
  await server?.stop();
}
steps.finish(` (${seconds(started)})`);
