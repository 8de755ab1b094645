#!/usr/bin/env node
// What a user gets from the .vsix: packages it (npm run package), installs it into a throw-away
// code-server profile with `code-server --install-extension`, as `code --install-extension` does,
// and asserts on the DOM of the real VS Code 1.100 workbench: the Extensions view and the
// extension's details page (the icon, the README with every image loaded, the changelog), the
// installed extension checking a manifest, and the Get Started walkthrough, step by step. The
// README renders in a webview: its frame is reached among the page's frames. Takes
// docs/images/marketplace.png (the details page) and marketplace-walkthrough.png on the way.
//
//   node test/e2e/marketplaceTest.mjs [--vsix FILE] [--images DIR] [--failures DIR] [--verbose]
// Without --vsix, `npm run package` builds dist/probe-lens.vsix first. Defaults: docs/images,
// out/e2e (a screenshot per failed step). Exit code 0 when every step passed, 1 otherwise.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { codeServerBin, FIXTURE_WORKSPACE, launchChromium, PROJECT_ROOT, seconds, startCodeServer } from './lib.mjs';
import { Steps } from './ui/steps.mjs';
import { exact, plain, waitUntil, Workbench } from './ui/workbench.mjs';

const { values: options } = parseArgs({
  options: {
    vsix: { type: 'string' },
    images: { type: 'string', default: join(PROJECT_ROOT, 'docs/images') },
    failures: { type: 'string', default: join(PROJECT_ROOT, 'out/e2e') },
    verbose: { type: 'boolean', default: false },
  },
});

const MANIFEST = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8'));
const EXTENSION_ID = `${MANIFEST.publisher}.${MANIFEST.name}`;
/** The images of README.md, in order, by their alt text: the packaged README must show each one. */
const README_IMAGES = [...readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8').matchAll(/!\[([^\]]*)\]\(([^)\s]+)\)/g)].map((m) => m[1]);
const ICON_SIZE = 128;
const WALKTHROUGH = MANIFEST.contributes.walkthroughs[0];
/** What the walkthrough's example (media/walkthrough/example/web.yaml) gets: L10 on its livenessProbe key. */
const EXAMPLE_FINDING = /liveness can kill the container 30 s after it starts.*probe-lens\W*L10\W*\[Ln 27, Col 11\]/s;

const started = Date.now();
let server;
let browser;
let page;
const steps = new Steps({ failures: options.failures, prefix: 'marketplace-', page: () => page });
const { section, step } = steps;

/** The frame of a webview whose document `accept`s (a predicate run in the frame). */
function webviewFrame(accept, what, timeout = 20_000) {
  return waitUntil(
    async () => {
      for (const frame of page.frames()) {
        if (await frame.evaluate(accept).catch(() => false)) return frame;
      }
      return undefined;
    },
    what,
    timeout,
  );
}

/** The images in a frame or an element: alt text, URL scheme, whether done loading, and natural width (0: broken). */
function imagesOf(scope) {
  return scope.locator('img').evaluateAll((images) => images.map((img) => ({ alt: img.alt, scheme: img.src.split(':')[0], complete: img.complete, width: img.naturalWidth })));
}

/** Installs the .vsix as `code --install-extension` does, into the server's extensions folder, with a profile of its own (sharing the server's stops the server). */
function installExtension(vsix, workspaceCopy) {
  // startCodeServer keeps its profile, extensions and TMPDIR side by side in one throw-away folder,
  // the parent of its workspace copies.
  const root = dirname(dirname(workspaceCopy));
  const { extensionsDir } = server;
  const output = execFileSync(
    codeServerBin(),
    ['--config', join(root, 'config.yaml'), '--user-data-dir', join(root, 'install-profile'), '--extensions-dir', extensionsDir, '--install-extension', vsix],
    { encoding: 'utf8', env: { ...process.env, EXTENSIONS_GALLERY: '{"serviceUrl":""}', TMPDIR: join(root, 'tmp') }, timeout: 60_000 },
  );
  if (options.verbose) console.log(`    ${output.trim().replace(/\n/g, '\n    ')}`);
  return { output, extensionsDir };
}

/** The icon of a list row or of the details page is media/icon.png, loaded, not VS Code's default one. */
async function assertPackagedIcon(icon, where) {
  assert.match(await icon.getAttribute('src'), /media%2Ficon\.png/, 'the packaged icon, not the default one');
  const size = await waitUntil(() => icon.evaluate((img) => img.complete && img.naturalWidth), `the icon ${where} to load`);
  assert.equal(size, ICON_SIZE, 'the icon is media/icon.png, 128 px wide');
}

/** A walkthrough step's row, by its id in package.json. */
function walkthroughStep(id) {
  return page.locator(`.getting-started-step[data-step-id$="#${id}"]`);
}

/** Expands a walkthrough step and clicks its button; the walkthrough's tab is brought back first. */
async function runWalkthroughStep(workbench, id, button) {
  await page.locator('.tab', { hasText: 'Walkthrough: Probe Lens' }).click();
  await walkthroughStep(id).click();
  await walkthroughStep(id).locator('.monaco-button', { hasText: exact(button) }).click();
  await workbench.parkMouse();
}

function walkthroughStepDone(id) {
  return waitUntil(async () => (await walkthroughStep(id).getAttribute('aria-checked')) === 'true', `the walkthrough step "${id}" to be checked off`);
}

try {
  await section('Package');

  let vsix = options.vsix && resolve(options.vsix);
  await step(vsix ? `the .vsix given: ${vsix}` : 'npm run package writes dist/probe-lens.vsix', async () => {
    if (!vsix) {
      execFileSync('npm', ['run', 'package'], { cwd: PROJECT_ROOT, stdio: options.verbose ? 'inherit' : 'pipe', timeout: 120_000 });
      vsix = join(PROJECT_ROOT, 'dist/probe-lens.vsix');
    }
    assert.ok(existsSync(vsix), `${vsix} exists`);
  }, { isFatal: true });

  await section('Install');

  server = await startCodeServer({ verbose: options.verbose, settings: { 'workbench.reduceMotion': 'on', 'remote.autoForwardPorts': false } });
  // A plain window on a folder, no extension under development: only the installed Probe Lens.
  const folder = server.copyWorkspace(FIXTURE_WORKSPACE);

  await step('code-server --install-extension installs the .vsix into a throw-away profile', async () => {
    const { output, extensionsDir } = installExtension(vsix, folder);
    assert.match(output, /was successfully installed/);
    const installed = JSON.parse(readFileSync(join(extensionsDir, `${EXTENSION_ID}-${MANIFEST.version}`, 'package.json'), 'utf8'));
    assert.equal(installed.version, MANIFEST.version);
  }, { isFatal: true });

  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
  page.on('pageerror', (error) => console.log('[pageerror]', error.message));
  if (options.verbose) page.on('console', (message) => console.log(`[browser ${message.type()}] ${message.text().slice(0, 300)}`));
  const workbench = new Workbench(page);
  const url = new URL(`http://127.0.0.1:${server.port}/`);
  url.searchParams.set('folder', folder);

  await step('the workbench loads', async () => {
    await page.goto(url.toString());
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 60_000 });
  }, { isFatal: true });

  await section('Extensions view');

  const row = page.locator(`.extensions-viewlet .monaco-list-row[data-extension-id="${EXTENSION_ID}"]`);

  await step('the Extensions view lists Probe Lens as installed, with its icon', async () => {
    await page.keyboard.press('Control+Shift+X');
    await page.locator('.extensions-viewlet').waitFor({ timeout: 10_000 });
    await page.keyboard.type('@installed probe lens');
    await row.waitFor({ timeout: 20_000 });
    assert.equal(plain(await row.locator('.name').innerText()), MANIFEST.displayName);
    await assertPackagedIcon(row.locator('img.icon'), 'in the list');
  });

  await section('Details page');

  let readme;
  const header = page.locator('.extension-editor .header');

  await step('clicking it opens its details page, with its name and description', async () => {
    await row.click();
    await header.waitFor({ timeout: 20_000 });
    assert.equal(plain(await header.locator('.name').innerText()), MANIFEST.displayName);
    assert.equal(plain(await header.locator('.description').innerText()), MANIFEST.description);
  });

  await step('the details page shows the icon', async () => {
    await assertPackagedIcon(header.locator('img.icon'), 'on the details page');
  });

  await section('README');

  await step(`the README renders in its webview with all ${README_IMAGES.length} images loaded`, async () => {
    readme = await webviewFrame(() => document.querySelector('h1')?.textContent === 'Probe Lens' && document.body.textContent.includes('The first minute'), 'the README webview');
    const images = await waitUntil(async () => {
      const seen = await imagesOf(readme);
      return seen.length === README_IMAGES.length && seen.every((img) => img.complete) && seen;
    }, 'every README image to finish loading');
    if (options.verbose) console.log('    images:', JSON.stringify(images));
    assert.deepEqual(images.map((img) => img.alt), README_IMAGES, 'the README images, in order');
    const broken = images.filter((img) => img.width === 0);
    assert.deepEqual(broken, [], 'images that did not load');
    // What makes them load: the packaged README carries them inline (see scripts/vsixReadme.mjs).
    assert.ok(images.every((img) => img.scheme === 'data'), `schemes: ${images.map((img) => img.scheme)}`);
  });

  await step("the README's links all lead somewhere (no relative link into the webview)", async () => {
    const hrefs = await readme.evaluate(() => [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href')));
    const dead = hrefs.filter((href) => !/^(https:\/\/|mailto:|#)/.test(href));
    assert.deepEqual(dead, [], `links the details page cannot open (of ${hrefs.length})`);
  });

  await step('screenshot docs/images/marketplace.png', async () => {
    await workbench.parkMouse();
    await waitUntil(async () => (await page.locator('.workbench-hover').filter({ visible: true }).count()) === 0, 'tooltips to close');
    // Up to the side column, whose "Last Updated" is the time of installation: the same image from one run to the next.
    const side = await page.locator('.extension-editor .additional-details-container').boundingBox();
    assert.ok(side, 'the details page has its side column');
    mkdirSync(options.images, { recursive: true });
    await page.screenshot({ path: join(options.images, 'marketplace.png'), animations: 'disabled', clip: { x: 0, y: 0, width: Math.floor(side.x), height: 800 } });
  });

  await step('the Changelog tab shows CHANGELOG.md', async () => {
    await page.locator('.extension-editor .navbar .action-label', { hasText: /^changelog$/i }).click();
    await webviewFrame(() => document.querySelector('h1')?.textContent === 'Changelog' && [...document.querySelectorAll('h2')].some((h) => h.textContent.startsWith('0.1.0')), 'the changelog webview with its 0.1.0 entry');
  });

  await section('The installed extension');

  await step('opening web-deployment.yaml shows probe-lens findings in the Problems panel', async () => {
    await workbench.openFile('web-deployment.yaml');
    await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 30_000 });
    await page.keyboard.press('Control+Shift+M');
    await page.locator('.markers-panel .monaco-list-row', { hasText: 'probe-lens' }).first().waitFor({ timeout: 20_000 });
    await workbench.closePanel();
  });

  await section('Get Started walkthrough');

  await step(`"${WALKTHROUGH.title}" is listed and opens with its ${WALKTHROUGH.steps.length} steps`, async () => {
    await page.keyboard.press('Control+B'); // the side bar off: the walkthrough lays its pictures beside the steps
    // Not runCommand: the command opens its own list in the same quick input, which stays open.
    await workbench.openQuickInput('>Welcome: Open Walkthrough...');
    await workbench.quickInputRow('Welcome: Open Walkthrough...').first().click();
    const entry = workbench.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: WALKTHROUGH.title }).first();
    await entry.waitFor({ timeout: 10_000 });
    await entry.click();
    await workbench.parkMouse();
    await page.locator('.getting-started-step').first().waitFor({ timeout: 10_000 });
    const titles = (await page.locator('.getting-started-step .step-title').allInnerTexts()).map(plain).filter(Boolean);
    assert.deepEqual(titles, WALKTHROUGH.steps.map((s) => s.title));
  });

  await step("each step's picture loads from the .vsix", async () => {
    for (const { id, media } of WALKTHROUGH.steps) {
      await walkthroughStep(id).click();
      const pictures = page.locator('.gettingStartedSlideDetails');
      await waitUntil(async () => (await imagesOf(pictures)).some((img) => img.alt === media.altText && img.complete && img.width > 0), () => `the picture of step "${id}" to load`);
    }
    await walkthroughStep(WALKTHROUGH.steps[0].id).click();
  });

  await step('screenshot docs/images/marketplace-walkthrough.png', async () => {
    await workbench.parkMouse();
    await page.screenshot({ path: join(options.images, 'marketplace-walkthrough.png'), animations: 'disabled' });
  });

  await step('"Open the Example" opens web.yaml beside the walkthrough, with its L10 warning', async () => {
    await runWalkthroughStep(workbench, 'openExample', 'Open the Example');
    await page.locator('.tab.active', { hasText: 'web.yaml' }).waitFor({ timeout: 15_000 });
    await workbench.activeEditor.locator('.squiggly-warning').first().waitFor({ timeout: 20_000 });
    assert.equal(await page.locator('.editor-group-container').count(), 2, 'the walkthrough and the example side by side');
    await walkthroughStepDone('openExample');
  });

  await step('"Show Problems" lists the example\'s finding', async () => {
    await runWalkthroughStep(workbench, 'seeFinding', 'Show Problems');
    const rows = page.locator('.markers-panel .monaco-list-row');
    await rows.filter({ hasText: 'L10' }).first().waitFor({ timeout: 15_000 });
    const texts = (await rows.allInnerTexts()).map(plain);
    assert.ok(texts.some((text) => EXAMPLE_FINDING.test(text)), `the Problems panel: ${JSON.stringify(texts)}`);
    await walkthroughStepDone('seeFinding');
    await workbench.closePanel();
  });

  await step('"Simulate the Example" plays it: the liveness probe kills the app', async () => {
    await runWalkthroughStep(workbench, 'simulate', 'Simulate the Example');
    // The container lens while simulating, then its restart count once the kill is played (3 s in at 10×).
    await waitUntil(async () => {
      const lenses = (await workbench.activeEditor.locator('.codelens-decoration').allInnerTexts()).map(plain);
      return lenses.some((lens) => /restarts [1-9]/.test(lens));
    }, 'a restart in the example\'s code lenses', 20_000);
    await walkthroughStepDone('simulate');
  });

  await step('"Open Timeline" opens the session\'s timeline', async () => {
    await runWalkthroughStep(workbench, 'timeline', 'Open Timeline');
    await page.locator('.tab', { hasText: 'Timeline · web.yaml' }).waitFor({ timeout: 15_000 });
    await webviewFrame(() => Boolean(document.getElementById('timeline-canvas')), 'the timeline webview');
    await walkthroughStepDone('timeline');
  });
} catch (error) {
  steps.harnessFailed('[marketplace-test]', error);
} finally {
  await browser?.close().catch(() => {});
  await server?.stop();
}
console.log(`[marketplace-test] ${seconds(started)}`);
steps.finish();
