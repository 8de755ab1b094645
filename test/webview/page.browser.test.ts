import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { TimelineHookState } from '../../src/webview/timeline/testHooks';
import { CLI, runCli } from '../helpers/cli';
import { scratchDir } from '../helpers/scratch';
import { launchChromium, type PageGlobals, recordCanvasTexts, whyNotOpened } from './browserPage';

// The CLI's page (no VS Code: no codicons, colours from media/timeline-page.css) in headless
// Chromium, in the light scheme and under forced colours (Windows high contrast): the theme it
// reports, the colours it draws with, and text that is never cut or overlapped.

const skip = whyNotOpened([[CLI, `${CLI} (run \`node esbuild.config.mjs\`)`]]);

const POD = `apiVersion: v1
kind: Pod
metadata: {name: shop}
spec:
  containers:
    - name: api
      image: api
      ports: [{name: http, containerPort: 8080}]
      startupProbe: {httpGet: {path: /started, port: http}, periodSeconds: 5, failureThreshold: 6}
      livenessProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 10, failureThreshold: 3}
      readinessProbe: {httpGet: {path: /ready, port: http}, periodSeconds: 5}
`;

/** Ready at 20 s, hung from 120 s: killed, restarted under back-off, again and again. */
const SCENARIO = 'containers: {api: {readyAfter: 20, failAfter: 120}}\n';

test('the page in light and forced colours: the theme it reports, swatches and canvas colours that stay apart, text never cut nor overlapped, no icon glyphs', { skip, timeout: 60_000 }, async () => {
  const dir = scratchDir('probe-lens-page-');
  writeFileSync(join(dir, 'shop.yaml'), POD);
  writeFileSync(join(dir, 'crash.yaml'), SCENARIO);
  const html = runCli(['simulate', join(dir, 'shop.yaml'), '--scenario', join(dir, 'crash.yaml'), '--for', '20m', '--seed', '3', '--format', 'html']);
  assert.equal(html.code, 0, html.stderr);
  const file = join(dir, 'timeline.html');
  writeFileSync(file, html.stdout);

  const browser = await launchChromium();
  try {
    for (const [scheme, forced, theme] of [
      ['light', false, 'light'],
      ['dark', true, 'high-contrast'],
      ['light', true, 'high-contrast-light'],
    ] as const) {
      const tab = await browser.newPage({ viewport: { width: 1100, height: 600 } });
      const errors: string[] = [];
      tab.on('pageerror', (error) => errors.push(error.message));
      await tab.emulateMedia({ colorScheme: scheme, forcedColors: forced ? 'active' : 'none' });
      // Every text the canvas writes, with its measured width.
      await recordCanvasTexts(tab);
      await tab.goto(pathToFileURL(resolve(file)).href);
      await tab.waitForFunction(() => ((globalThis as unknown as PageGlobals).__probeLensTimeline?.state().painted ?? 0) > 0, undefined, { timeout: 10_000 });
      const where = `${scheme}${forced ? ', forced colours' : ''}`;
      const state = await tab.evaluate(() => (globalThis as unknown as PageGlobals).__probeLensTimeline.state() as TimelineHookState);
      assert.deepEqual(errors, [], where);
      assert.equal(state.theme, theme, where);
      // A simulation says nothing of a cluster: no Cluster legend group, no cluster facts.
      assert.equal(await tab.evaluate(() => (globalThis as unknown as PageGlobals).document.getElementById('timeline-legend-cluster') === null), true, `${where}: a Cluster legend group`);
      assert.deepEqual(state.cluster, {}, where);

      // The colours the canvas draws with (as it reads them) stay apart where they mean different things.
      const colours = await tab.evaluate(() => {
        const w = (globalThis as unknown as PageGlobals);
        const probe = w.document.createElement('span');
        probe.style.forcedColorAdjust = 'none';
        w.document.body.append(probe);
        const read = (name: string) => {
          probe.style.color = `var(--pl-${name})`;
          return w.getComputedStyle(probe).color as string;
        };
        const names = ['success', 'warning', 'failure', 'unknown', 'error', 'running', 'waiting', 'backoff', 'terminated', 'ready', 'not-ready', 'background'];
        return Object.fromEntries(names.map((name) => [name, read(name)]));
      });
      for (const group of [
        ['success', 'warning', 'failure', 'unknown', 'error'],
        ['running', 'waiting', 'backoff', 'terminated'],
        ['ready', 'not-ready'],
      ]) {
        const seen = group.map((name) => colours[name]);
        assert.equal(new Set(seen).size, group.length, `${where}: ${group.map((name, i) => `${name} ${seen[i]}`).join(', ')}`);
        for (const name of group) assert.notEqual(colours[name], colours['background'], `${where}: ${name} is not the background`);
      }
      assert.equal(state.failureColor, colours['failure'], `${where}: the canvas draws failures in the stylesheet's colour`);

      // The legend and the chips keep their swatches' colours: the colour is what they say.
      const swatches = await tab.evaluate(() => {
        const w = (globalThis as unknown as PageGlobals);
        return [...w.document.querySelectorAll('.tl-legend .tl-mark-failure, .tl-chip .tl-mark-failure')].map((element) => w.getComputedStyle(element).backgroundColor as string);
      });
      assert.equal(swatches.length, 2, where);
      for (const colour of swatches) assert.equal(colour, colours['failure'], `${where}: a failure swatch`);

      // No icon-font character as text: there is no icon font on the page.
      const text = await tab.evaluate(() => (globalThis as unknown as PageGlobals).document.body.innerText as string);
      assert.doesNotMatch(text, /[\uE000-\uF8FF]/, where);
      assert.equal(await tab.evaluate(() => (globalThis as unknown as PageGlobals).document.querySelectorAll('.codicon').length as number), 0, where);

      // At many zooms: axis labels inside the axis, canvas texts clear of each other.
      const problems = await tab.evaluate(() => {
        const w = (globalThis as unknown as PageGlobals);
        const hooks = w.__probeLensTimeline;
        const axis = w.document.getElementById('timeline-axis').getBoundingClientRect();
        const found: string[] = [];
        for (let span = 8; span < 2000; span *= 1.37) {
          for (let start = -span / 2; start < 1200; start += span / 3) {
            w.__texts = [];
            hooks.zoomTo(start, start + span);
            for (const tick of w.document.querySelectorAll('.tl-tick:not([hidden])')) {
              const box = tick.getBoundingClientRect();
              if (box.left < axis.left || box.right > axis.right) found.push(`axis label ${tick.textContent} at ${box.left}–${box.right} outside ${axis.left}–${axis.right}`);
            }
            for (const overlap of w.__overlapping(w.__texts)) found.push(`${overlap} at [${start}, ${start + span}]`);
          }
        }
        return found;
      });
      assert.deepEqual(problems.slice(0, 5), [], where);
      await tab.close();
    }
  } finally {
    await browser.close();
  }
});

test('hundreds of lanes: only the options near the view exist, each says its place in the whole list, and the keyboard reaches every lane', { skip, timeout: 60_000 }, async () => {
  const dir = scratchDir('probe-lens-page-');
  const pods = Array.from({ length: 150 }, (_, i) => POD.replace('name: shop', `name: shop-${i}`)).join('---\n');
  writeFileSync(join(dir, 'shop.yaml'), pods);
  const html = runCli(['simulate', join(dir, 'shop.yaml'), '--for', '1m', '--format', 'html']);
  assert.equal(html.code, 0, html.stderr);
  const file = join(dir, 'timeline.html');
  writeFileSync(file, html.stdout);

  const browser = await launchChromium();
  try {
    const tab = await browser.newPage({ viewport: { width: 1000, height: 600 } });
    await tab.goto(pathToFileURL(resolve(file)).href);
    await tab.waitForFunction(() => ((globalThis as unknown as PageGlobals).__probeLensTimeline?.state().painted ?? 0) > 0, undefined, { timeout: 10_000 });
    const lanes = await tab.evaluate(() => (globalThis as unknown as PageGlobals).__probeLensTimeline.state().lanes.length);
    assert.equal(lanes, 150 * 5);
    const list = () =>
      tab.evaluate(() => {
        const d = (globalThis as unknown as PageGlobals).document;
        const options = [...d.querySelectorAll('#timeline-lanes [role="option"]')];
        const active = d.getElementById('timeline-lanes').getAttribute('aria-activedescendant');
        return {
          count: options.length,
          positions: options.map((o) => Number(o.getAttribute('aria-posinset'))) as number[],
          sizes: [...new Set(options.map((o) => o.getAttribute('aria-setsize')))] as string[],
          active: active ? (d.getElementById(active)?.getAttribute('aria-posinset') as string | undefined) : undefined,
          selected: options.filter((o) => o.getAttribute('aria-selected') === 'true').length,
        };
      });
    const first = await list();
    assert.ok(first.count > 10 && first.count < 100, `${first.count} options for ${lanes} lanes`);
    assert.deepEqual(first.sizes, [String(lanes)]);
    assert.deepEqual(first.positions, first.positions.map((_, i) => (first.positions[0] as number) + i), 'in order, none missing');

    await tab.focus('#timeline-lanes');
    for (let i = 0; i < 40; i++) await tab.keyboard.press('PageDown');
    const paged = await list();
    assert.equal(paged.active, '401', 'PageDown moves by 10 lanes');
    assert.equal(paged.selected, 1);
    assert.ok(paged.positions.includes(401) && paged.count < 100);

    // Scrolled far away, the active option stays (aria-activedescendant names an element); End reaches the last lane.
    await tab.evaluate(() => {
      (globalThis as unknown as PageGlobals).document.getElementById('timeline-scroll').scrollTop = 1e6;
    });
    await tab.waitForTimeout(50);
    const away = await list();
    assert.equal(away.active, '401');
    assert.ok(away.positions.includes(lanes), 'the last lanes are shown');
    for (let i = 0; i < 40; i++) await tab.keyboard.press('PageDown');
    assert.equal((await list()).active, String(lanes), 'the last lane');
  } finally {
    await browser.close();
  }
});
