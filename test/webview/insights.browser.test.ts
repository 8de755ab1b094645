import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { timelineTimeFormat } from '../../src/core/history/timeFormat';
import { runHeader } from '../../src/core/timeline/jsonl';
import { explainMoment, type ExplainRequest } from '../../src/extension/timeline/explainMoment';
import { TIMELINE_PROTOCOL_VERSION, type WebviewMessage } from '../../src/shared/protocol';
import type { TimelineHookState, TimelineHookWhy } from '../../src/webview/timeline/testHooks';
import { DEBUG_SESSION, PAUSE, PAUSED_POD, pausedSession } from '../core/timeline/pauseSession';
import { simulated } from '../helpers/engine';
import { cliPageFile, launchChromium, openPainted, overlapsAtZooms, PAGE_BUNDLE, type PageGlobals, whyNotOpened } from './browserPage';
import { type HostGlobals, loadMessage, openHostPage, recordingSource } from './hostPage';

// Issue 12 in the timeline's browser code, in headless Chromium: a debugger's pauses on the CLI's
// page (the same bundle as the panel's), the selection's *why* on a page that runs as a VS Code
// webview (the test answers as the extension host does, with the same `explainMoment`), and a
// recording above its replay on one time axis. PROBE_LENS_DEV_SCREENSHOTS=DIR keeps screenshots.

const skip = whyNotOpened([PAGE_BUNDLE]);
const SHOTS = process.env['PROBE_LENS_DEV_SCREENSHOTS'];

async function keep(tab: { screenshot(options: { path: string }): Promise<unknown> }, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await tab.screenshot({ path: join(SHOTS, name) });
}

test("the CLI's page draws a debugger's pause on the pod's lane and the attempts it failed as the pause's: tooltips, legend, lane list, no why to ask for", { skip, timeout: 60_000 }, async () => {
  const file = cliPageFile(pausedSession(), { mode: 'run', target: 'local', file: 'web.yaml' }, { now: 150, title: 'web.yaml · local' });
  const browser = await launchChromium();
  try {
    const { tab, errors } = await openPainted(browser, file, { width: 1100, height: 520 });
    await tab.evaluate(() => (globalThis as unknown as PageGlobals).__probeLensTimeline.zoomTo(40, 110));
    const state = await tab.evaluate(() => (globalThis as unknown as PageGlobals).__probeLensTimeline.state() as TimelineHookState);
    assert.deepEqual(errors, []);
    assert.deepEqual(state.pauses, { 'pod:web': [{ start: PAUSE.from, end: PAUSE.to, debugSession: DEBUG_SESSION }] });
    assert.deepEqual(state.pausedFailures, { 'probe:web/web/liveness': 2, 'probe:web/web/readiness': 5 });

    // The canvas names the pause; the legend's Debugger group says what its marks mean.
    const written = await tab.evaluate(() => (globalThis as unknown as PageGlobals).__texts.map((t) => t.text));
    assert.ok(written.includes(`‖ paused by debugger ${DEBUG_SESSION}`), JSON.stringify([...new Set(written)]));
    const legend = await tab.evaluate(() => (globalThis as unknown as PageGlobals).document.getElementById('timeline-legend-debugger')?.textContent as string | undefined);
    assert.match(legend ?? '', /paused by a debugger.*failed while paused: the pause's failure, not the app's/);

    // Hovered: the pause says whose it was and what it did; a failed attempt in it says it was the pause's.
    const pause = await tab.evaluate(() => (globalThis as unknown as PageGlobals).__probeLensTimeline.itemAt('pod:web', 'pause', 70));
    assert.ok(pause);
    await tab.mouse.move(pause.x, pause.y);
    await tab.waitForFunction(() => (globalThis as unknown as PageGlobals).__probeLensTimeline.tooltip() !== '', undefined, { timeout: 5_000 });
    const pauseTip = await tab.evaluate(() => (globalThis as unknown as PageGlobals).__probeLensTimeline.tooltip());
    assert.match(pauseTip, new RegExp(`^Paused by debugger ${DEBUG_SESSION.replace(/[()]/g, '\\$&')} · web\\n`));
    assert.match(pauseTip, /7 attempts failed meanwhile: the pause's failures, not the app's/);
    const mark = await tab.evaluate(() => (globalThis as unknown as PageGlobals).__probeLensTimeline.markAt('probe:web/web/liveness', 70));
    assert.ok(mark);
    await tab.mouse.move(mark.x, mark.y);
    await tab.waitForFunction(() => /liveness · attempt/.test((globalThis as unknown as PageGlobals).__probeLensTimeline.tooltip()), undefined, { timeout: 5_000 });
    const markTip = await tab.evaluate(() => (globalThis as unknown as PageGlobals).__probeLensTimeline.tooltip());
    assert.match(markTip, /^web\/web liveness · attempt \(debugger paused\)\n.*failure.*\nfailed while a debugger held the app: the pause's failure, not the app's\n2\/3 failures in a row/);
    await keep(tab, 'page-pause.png');

    // Clicking the container's lane on the page: no host to ask why, nothing selected.
    const point = await tab.evaluate(() => (globalThis as unknown as PageGlobals).__probeLensTimeline.pointAt('container:web/web', 76));
    assert.ok(point);
    await tab.mouse.click(point.x, point.y);
    assert.equal((await tab.evaluate(() => (globalThis as unknown as PageGlobals).__probeLensTimeline.why() as TimelineHookWhy)).shown, false);
    assert.equal(await tab.evaluate(() => (globalThis as unknown as PageGlobals).document.getElementById('timeline-why')?.hidden as boolean), true);

    // The lane list's summaries say it; the keyboard reaches the pause on the pod's lane.
    const summaries = await tab.evaluate(() => [...(globalThis as unknown as PageGlobals).document.querySelectorAll('#timeline-lanes [role="option"]')].map((o) => o.getAttribute('aria-label') as string));
    assert.ok(summaries.includes('pod web: Ready, paused 1 time by a debugger'), JSON.stringify(summaries));
    assert.ok(summaries.some((s) => /^web \/ web liveness: \d+ attempts, 2 failed \(2 while paused by a debugger\)/.test(s)), JSON.stringify(summaries));
    // Focused, the lane list is on the pod's lane.
    await tab.focus('#timeline-lanes');
    let announced = '';
    for (let i = 0; i < 6 && !/^Paused by debugger/.test(announced); i++) {
      await tab.keyboard.press('ArrowRight');
      announced = await tab.evaluate(() => (globalThis as unknown as PageGlobals).document.getElementById('timeline-live')?.textContent as string);
    }
    assert.match(announced, /^Paused by debugger web \(launch\) · web\. 58s → 1m19s \(21s\)\. the debug session web \(launch\) held the program/);

    // At many zooms: no text written over another.
    const problems = await overlapsAtZooms(tab, { from: 5, below: 400 }, { from: 20, below: 120 });
    assert.deepEqual(problems.slice(0, 5), []);
  } finally {
    await browser.close();
  }
});

/** What the webview asked last of the kind `type`. */
function lastPosted<T extends WebviewMessage['type']>(posted: readonly WebviewMessage[], type: T): Extract<WebviewMessage, { type: T }> | undefined {
  return posted.filter((m): m is Extract<WebviewMessage, { type: T }> => m.type === type).at(-1);
}

const why = (tab: { evaluate<R>(f: () => R): Promise<R> }) => tab.evaluate(() => (globalThis as unknown as HostGlobals).__probeLensTimeline.why() as TimelineHookWhy);

test("the selection's why in a VS Code webview: a click on a container's lane asks the host, the answer is shown with its causes, a cited line's button shows it on the timeline, Escape and the keyboard", { skip, timeout: 60_000 }, async () => {
  const events = pausedSession();
  const header = runHeader({ mode: 'run', target: 'local', kind: 'local', file: 'web.yaml' });
  /** The extension host's part: `TimelinePanels.explain` answers with `explainMoment`. */
  const source = recordingSource('web.yaml · local');
  const answer = (request: ExplainRequest) => ({ type: 'explanation' as const, protocol: TIMELINE_PROTOCOL_VERSION, request: request.request, ...explainMoment({ header, events }, request, source.clock) });
  const browser = await launchChromium();
  try {
    const page = await openHostPage(browser, { width: 1100, height: 640 });
    const { tab } = page;
    await page.send(loadMessage(source, events, 150, { header }));
    await tab.waitForFunction(() => ((globalThis as unknown as HostGlobals).__probeLensTimeline.state().events ?? 0) > 0, undefined, { timeout: 10_000 });
    await tab.evaluate(() => (globalThis as unknown as HostGlobals).__probeLensTimeline.zoomTo(40, 110));
    assert.equal((await why(tab)).shown, false, 'nothing selected yet');

    // A click on the container's lane at 1:16, while the debugger holds the app: the host is asked.
    const point = await tab.evaluate(() => (globalThis as unknown as HostGlobals).__probeLensTimeline.pointAt('container:web/web', 76));
    assert.ok(point);
    await tab.mouse.click(point.x, point.y);
    const asked = lastPosted(await page.posted(), 'explain');
    assert.ok(asked, 'an explain message');
    assert.equal(asked.pod, 'web');
    assert.equal(asked.container, 'web');
    assert.ok(Math.abs(asked.t - 76) < 0.5, `asked about t=${asked.t}`);
    assert.equal(asked.section, undefined);
    const pending = await why(tab);
    assert.equal(pending.pending, true);
    assert.match(pending.title, /^Why web\/web at 1m1[56]s/);
    assert.equal(pending.selection?.lane, 'container:web/web');

    // The answer: the sentence and its causes, each cited line a button.
    const reply = answer(asked);
    assert.ok('explanation' in reply, JSON.stringify(reply));
    await page.send(reply);
    const shown = await why(tab);
    assert.equal(shown.pending, false);
    assert.equal(shown.sentence, reply.explanation.sentence);
    assert.match(shown.sentence, /[Nn]ot [Rr]eady/);
    assert.match(shown.sentence, /debug/);
    assert.deepEqual(shown.causes.map((c) => c.text), reply.explanation.causes.map((c) => c.text));
    assert.ok(shown.causes.some((c) => c.evidence.length > 0));
    // One time format in the panel: the sentence's times, the cited lines' buttons and the axis's labels (1m10s, not t+00:01:10).
    const at = timelineTimeFormat(source.clock).at;
    assert.deepEqual(shown.causes.map((c) => c.evidence), reply.explanation.causes.map((c) => c.evidence.map((e) => `${at(e.t)} · ${e.summary}`)));
    assert.match(shown.sentence, /^Not Ready since 1m10s: readiness failed 3 times in a row \(HTTP 503 at 1m, 1m5s, 1m10s;/);
    assert.ok(shown.causes.some((c) => c.evidence.some((text) => text.startsWith('1m10s · readiness failure'))), JSON.stringify(shown.causes));
    const ticks = await tab.evaluate(() => [...(globalThis as unknown as HostGlobals).document.querySelectorAll('.tl-tick:not([hidden])')].map((e) => e.textContent as string));
    assert.ok(ticks.includes('1m10s'), JSON.stringify(ticks));
    assert.equal(await tab.evaluate(() => (globalThis as unknown as HostGlobals).document.getElementById('timeline-why-sentence')?.getAttribute('aria-live') as string), 'polite');
    await tab.mouse.move(0, 0);
    await keep(tab, 'why.png');

    // A cited readiness attempt's button: the view shows it, the keyboard's focus is on it, its tooltip under it.
    const cited = reply.explanation.causes.flatMap((c) => c.evidence).find((e) => e.type === 'attempt' && e.lane === 'probe:web/web/readiness');
    assert.ok(cited, JSON.stringify(reply.explanation.causes));
    const buttonText = `${cited.summary}`;
    await tab.locator('.tl-why-evidence', { hasText: buttonText }).first().click();
    await tab.waitForFunction(() => /readiness · attempt/.test((globalThis as unknown as HostGlobals).__probeLensTimeline.tooltip()), undefined, { timeout: 5_000 });
    const view = (await tab.evaluate(() => (globalThis as unknown as HostGlobals).__probeLensTimeline.state() as TimelineHookState)).viewport;
    assert.ok(view.start <= cited.t && cited.t <= view.end, `${cited.t} in [${view.start}, ${view.end}]`);
    assert.equal(await tab.locator('.tl-why-evidence[aria-current="true"]').count(), 1);

    // An answer to an older question changes nothing.
    await page.send({ type: 'explanation', protocol: TIMELINE_PROTOCOL_VERSION, request: asked.request - 1, failure: 'stale' });
    assert.equal((await why(tab)).sentence, reply.explanation.sentence);

    // Escape: nothing selected, the area goes.
    await tab.keyboard.press('Escape');
    await tab.keyboard.press('Escape');
    assert.equal((await why(tab)).shown, false);
    assert.equal((await why(tab)).selection, undefined);

    // The keyboard: the container's lane in the lane list (the second), Home to its first item: that moment is asked about.
    await tab.focus('#timeline-lanes');
    await tab.keyboard.press('PageUp');
    await tab.keyboard.press('ArrowDown');
    await tab.keyboard.press('Home');
    const byKey = lastPosted(await page.posted(), 'explain');
    assert.ok(byKey && byKey.request > asked.request, 'asked again');
    assert.equal(byKey.container, 'web');
    await page.send(answer(byKey));
    assert.equal((await why(tab)).pending, false);
    assert.deepEqual(page.errors, []);
  } finally {
    await browser.close();
  }
});

/** Pod `web`: liveness only, and the app takes 45 s to listen after each start (a slow start). */
const SLOW_START = PAUSED_POD.replace(/ {6}readinessProbe:.*\n/, '');
/** The same with a startupProbe covering 120 s: liveness waits for it. */
const WITH_STARTUP = SLOW_START.replace('      livenessProbe:', '      startupProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 10, failureThreshold: 12}\n      livenessProbe:');
const SLOW_SCENARIO = 'containers: {web: {readyAfter: 45}}';

test('a recording above its replay with the edited manifest: one time axis, each run under its heading, lanes of each run apart, the why asks about the run it is in', { skip, timeout: 60_000 }, async () => {
  const recorded = simulated(SLOW_START, SLOW_SCENARIO, 240);
  const replayed = simulated(WITH_STARTUP, SLOW_SCENARIO, 240);
  const browser = await launchChromium();
  try {
    const page = await openHostPage(browser, { width: 1100, height: 700 });
    const { tab } = page;
    const sections = [
      { name: 'recorded', title: 'recorded', events: recorded.length },
      { name: 'replayed', title: 'replayed with the edited manifest', events: replayed.length },
    ];
    await page.send(loadMessage(recordingSource('web.yaml: what if'), [...recorded, ...replayed], 240, { header: runHeader({ mode: 'simulate' }), sections }));
    // Loaded and drawn: every event in, and the headings placed (a frame after the lanes, on a busy machine later still).
    await tab.waitForFunction(
      (total) => {
        const globals = globalThis as unknown as HostGlobals;
        return (globals.__probeLensTimeline.state().events ?? 0) >= total && globals.document.querySelectorAll('#timeline-headings [role="heading"]').length === 2;
      },
      recorded.length + replayed.length,
      { timeout: 10_000 },
    );
    const state = await tab.evaluate(() => (globalThis as unknown as HostGlobals).__probeLensTimeline.state() as TimelineHookState);
    assert.deepEqual(state.sections, ['recorded', 'replayed with the edited manifest']);
    assert.deepEqual(
      state.lanes.map((l) => l.id),
      ['recorded|pod:web', 'recorded|container:web/web', 'recorded|probe:web/web/liveness', 'replayed|pod:web', 'replayed|container:web/web', 'replayed|probe:web/web/startup', 'replayed|probe:web/web/liveness'],
    );
    assert.ok((state.containers['recorded|container:web/web']?.restarts.length ?? 0) >= 2, 'the recording restarts during the slow start');
    assert.equal(state.containers['replayed|container:web/web']?.restarts.length, 0, 'the replay with a startupProbe does not');

    // Each heading sits above its run's first pod, clear of the rows.
    const headings = await tab.evaluate(() => [...(globalThis as unknown as HostGlobals).document.querySelectorAll('#timeline-headings [role="heading"]')].map((e) => ({ text: e.textContent as string, top: e.getBoundingClientRect().top as number, bottom: e.getBoundingClientRect().bottom as number })));
    const canvasTop = await tab.evaluate(() => (globalThis as unknown as HostGlobals).document.getElementById('timeline-canvas').getBoundingClientRect().top as number);
    const replayedPod = state.lanes.find((l) => l.id === 'replayed|pod:web');
    const recordedProbe = state.lanes.find((l) => l.id === 'recorded|probe:web/web/liveness');
    assert.ok(replayedPod && recordedProbe);
    assert.deepEqual(headings.map((h) => h.text), ['recorded', 'replayed with the edited manifest']);
    assert.ok(Math.abs((headings[1]?.bottom ?? 0) - (canvasTop + replayedPod.top)) <= 1, `the replay's heading (${headings[1]?.bottom}) right above its pod (${canvasTop + replayedPod.top})`);
    assert.ok((headings[1]?.top ?? 0) >= canvasTop + recordedProbe.top + recordedProbe.height, 'below the recording\'s last row');

    // One time axis: the same moment is drawn at the same x in both runs.
    await tab.evaluate(() => (globalThis as unknown as HostGlobals).__probeLensTimeline.zoomTo(0, 120));
    const [a, b] = await tab.evaluate(() => ['recorded|probe:web/web/liveness', 'replayed|probe:web/web/liveness'].map((id) => (globalThis as unknown as HostGlobals).__probeLensTimeline.pointAt(id, 60)));
    assert.ok(a && b);
    assert.equal(a.x, b.x);
    assert.ok(b.y > a.y);

    // Tooltips say the run; the why asks about the run it is in.
    const restart = await tab.evaluate(() => (globalThis as unknown as HostGlobals).__probeLensTimeline.itemAt('recorded|container:web/web', 'restart', 40));
    assert.ok(restart);
    await tab.mouse.move(restart.x, restart.y);
    await tab.waitForFunction(() => /^Restart 1 · recorded · web\/web/.test((globalThis as unknown as HostGlobals).__probeLensTimeline.tooltip()), undefined, { timeout: 5_000 });
    const point = await tab.evaluate(() => (globalThis as unknown as HostGlobals).__probeLensTimeline.pointAt('replayed|container:web/web', 100));
    assert.ok(point);
    await tab.mouse.click(point.x, point.y);
    const asked = lastPosted(await page.posted(), 'explain');
    assert.equal(asked?.section, 'replayed');
    assert.match((await why(tab)).title, /^Why replayed · web\/web at 1m40s/);
    await page.send({ type: 'explanation', protocol: TIMELINE_PROTOCOL_VERSION, request: asked.request, ...explainMoment({ header: runHeader({ mode: 'simulate' }), events: replayed }, asked, { kind: 'virtual' }) });
    assert.match((await why(tab)).sentence, /Ready/);
    await tab.mouse.move(0, 0);
    await keep(tab, 'compare.png');
    assert.deepEqual(page.errors, []);
  } finally {
    await browser.close();
  }
});
