import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TimelineHookState } from '../../src/webview/timeline/testHooks';
import { clusterSession } from '../core/timeline/clusterSession';
import { cliPageFile, launchChromium, openPainted, overlapsAtZooms, PAGE_BUNDLE, type PageGlobals, whyNotOpened } from './browserPage';

// A cluster session on the CLI's page (`run --target cluster --format html` writes it from the
// same lines) in headless Chromium: the kubelet's band, the cluster's events, the disagreement and
// the pod probed are drawn without a page error, the legend says what they are, the tooltip
// says whose verdict it is, and no text the canvas writes runs into another at any zoom.

const skip = whyNotOpened([PAGE_BUNDLE]);

test('a cluster session\'s page: the kubelet\'s band and the cluster\'s items drawn and explained, the legend\'s Cluster group, texts never overlapped', { skip, timeout: 60_000 }, async () => {
  const file = cliPageFile(clusterSession(), { mode: 'run', target: 'cluster', file: 'web.yaml' }, { now: 230, title: 'web.yaml · cluster' });
  const browser = await launchChromium();
  try {
    const { tab, errors } = await openPainted(browser, file, { width: 1100, height: 500 });
    const state = await tab.evaluate(() => (globalThis as unknown as PageGlobals).__probeLensTimeline.state() as TimelineHookState);
    assert.deepEqual(errors, []);
    assert.deepEqual(Object.keys(state.cluster).sort(), ['container:web/web', 'pod:web']);
    assert.equal(state.cluster['container:web/web']?.disagreements[0]?.cause, 'loopback-only');

    // What the canvas writes names whose verdict it is.
    const written = await tab.evaluate(() => (globalThis as unknown as PageGlobals).__texts.map((t) => t.text));
    for (const text of ['kubelet: Ready', 'kubelet: not ready', '→ web-a (10.244.1.6)']) assert.ok(written.includes(text), `${text} in ${JSON.stringify([...new Set(written)])}`);
    assert.ok(written.some((t) => /loopback-only/.test(t)), 'the disagreement named by its cause');

    // The legend's Cluster group is there, its swatches painted.
    const legend = await tab.evaluate(() => {
      const group = (globalThis as unknown as PageGlobals).document.getElementById('timeline-legend-cluster');
      return group ? { text: group.textContent as string, swatches: group.querySelectorAll('canvas.tl-swatch').length as number } : undefined;
    });
    assert.ok(legend && /kubelet: Ready/.test(legend.text) && legend.swatches >= 6, JSON.stringify(legend));

    // Hovered, the kubelet's band says it is the kubelet's.
    const at = await tab.evaluate(() => (globalThis as unknown as PageGlobals).__probeLensTimeline.itemAt('container:web/web', 'kubelet', 20));
    assert.ok(at);
    await tab.mouse.move(at.x, at.y);
    await tab.waitForFunction(() => (globalThis as unknown as PageGlobals).__probeLensTimeline.tooltip() !== '', undefined, { timeout: 5_000 });
    assert.match(await tab.evaluate(() => (globalThis as unknown as PageGlobals).__probeLensTimeline.tooltip()), /^Ready by the cluster's kubelet · web\/web/);
    await tab.mouse.move(0, 0);

    // At many zooms: no text written over another.
    const problems = await overlapsAtZooms(tab, { from: 5, below: 600 }, { below: 240 });
    assert.deepEqual(problems.slice(0, 5), []);
  } finally {
    await browser.close();
  }
});
