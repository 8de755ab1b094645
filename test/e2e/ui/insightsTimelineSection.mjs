// The "Insights timeline" section of the UI test (issue 12 in the timeline panel): a local
// session recorded while a debugger held the app at a breakpoint — the pause on the pod's lane
// and the probes' failures it caused, drawn as the pause's; a click on the container's lane and
// the *why* of that moment in the details area, whose cited lines show themselves on the
// timeline; and *What if…* from a recording's panel (its editor title button), the recording
// replayed against its manifest as edited: the table beside, and the recording above its replay
// on one time axis. Takes docs/images/timeline-pause.png, timeline-why.png and timeline-compare.png.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../lib.mjs';
import { clickForWhy, hoverTooltip, openTimelineFromFile } from './timelineSteps.mjs';
import { plain, timelineFrame, timelineState, waitUntil } from './workbench.mjs';

/** Pod `web`, container `web`: liveness every 10 s (3 failures kill), readiness every 5 s. */
const WEB = `apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers:
    - name: web
      image: example/web:1
      ports: [{name: http, containerPort: 8080}]
      livenessProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 10, failureThreshold: 3}
      readinessProbe: {httpGet: {path: /ready, port: http}, periodSeconds: 5}
`;
/** When the debugger held the program (`pause` lines): its probes fail meanwhile. */
const PAUSE = { from: 58, to: 79, debugSession: 'web (launch)' };
const failing = `[{from: 0, outcome: success}, {from: ${PAUSE.from + 1}, outcome: failure}, {from: ${PAUSE.to}, outcome: success}]`;
const PAUSED_SCENARIO = `containers: {web: {probes: {liveness: ${failing}, readiness: ${failing}}}}\n`;

const DIR = 'insights';
const RECORDING = `${DIR}/web-paused.jsonl`;

/**
 * The README's *What if…* (the fixture workspace's whatif/): a real local recording of an app
 * that takes 2 minutes to start, killed by liveness 3 times; its manifest, whose header names it,
 * given a startupProbe of 30 × 10 s in the editor, on a line of its own after `containerPort`
 * (line 12). One line: typed text that holds line breaks is indented again by the editor.
 */
const WHAT_IF = { recording: 'whatif/slow-start.local.jsonl', manifest: 'whatif/slow-start.yaml', line: 12 };
const STARTUP = '      startupProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 10, failureThreshold: 30}';

/** `probe-lens simulate` as a user runs it: the JSON Lines it prints, parsed. */
function simulate(folder, manifest, scenario, duration) {
  const out = execFileSync(process.execPath, [join(PROJECT_ROOT, 'dist', 'cli.js'), 'simulate', join(folder, manifest), '--scenario', join(folder, scenario), '--for', duration, '--format', 'jsonl'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const [header, ...events] = out.trim().split('\n').map((line) => JSON.parse(line));
  return { header, events };
}

/**
 * The recording the breakpoint guard writes of a local session paused at a breakpoint: the
 * simulated run, its attempts that ended while paused marked `paused: true`, and the pod's
 * `pause` lines in their place.
 */
function pausedRecording(folder) {
  const { header, events } = simulate(folder, `${DIR}/web.yaml`, `${DIR}/paused.scenario.yaml`, '150s');
  const marked = events.map((e) => (e.type === 'attempt' && e.t >= PAUSE.from && e.t <= PAUSE.to ? { ...e, paused: true } : e));
  for (const [t, state] of [[PAUSE.from, 'paused'], [PAUSE.to, 'continued']]) {
    const at = marked.findIndex((e) => e.t > t);
    marked.splice(at < 0 ? marked.length : at, 0, { type: 'pause', t, pod: 'web', state, debugSession: PAUSE.debugSession });
  }
  return [JSON.stringify({ ...header, mode: 'session', kind: 'local' }), ...marked.map((e) => JSON.stringify(e))].join('\n') + '\n';
}

/**
 * `screenshot(workbench, name, options)`: uiTest.mjs's (no toasts, the mouse parked unless
 * `keepMouse`, into its images directory).
 */
export async function insightsTimelineSection({ page, workbench, folder, section, step, screenshot }) {
  await section('Insights timeline');
  let timeline;
  const state = () => timelineState(timeline);
  const hooks = (fn, arg) => timeline.evaluate(fn, arg);
  const hover = (find, expected, what) => hoverTooltip(page, timeline, find, expected, what);

  await step('Probe Lens: Open Timeline from File… opens a session recorded while a debugger held the app at a breakpoint', async () => {
    mkdirSync(join(folder, DIR), { recursive: true });
    writeFileSync(join(folder, DIR, 'web.yaml'), WEB);
    writeFileSync(join(folder, DIR, 'paused.scenario.yaml'), PAUSED_SCENARIO);
    writeFileSync(join(folder, RECORDING), pausedRecording(folder));
    await workbench.runCommand('View: Close All Editors');
    if (await page.locator('.part.sidebar').isVisible()) await workbench.runCommand('View: Close Primary Side Bar');
    await openTimelineFromFile(workbench, join(folder, RECORDING));
    timeline = await timelineFrame(page, { accept: (s) => s.painted > 0 && s.lanes.some((l) => l.id === 'pod:web') && Object.keys(s.pauses ?? {}).length > 0, what: 'the paused recording', timeout: 30_000 });
    await workbench.parkMouse();
  });

  await step('the pause is a stretch on the pod\'s lane, and the failures it caused are the pause\'s: counted apart, in the legend, said in the tooltips', async () => {
    await hooks(() => window.__probeLensTimeline.zoomTo(35, 115));
    const shown = await state();
    assert.deepEqual(shown.pauses, { 'pod:web': [{ start: PAUSE.from, end: PAUSE.to, debugSession: PAUSE.debugSession }] });
    assert.ok((shown.pausedFailures['probe:web/web/liveness'] ?? 0) >= 2, JSON.stringify(shown.pausedFailures));
    assert.equal(shown.pausedFailures['probe:web/web/liveness'], shown.attempts['probe:web/web/liveness'].failure, 'every liveness failure was the pause\'s');
    assert.equal(await timeline.locator('#timeline-legend-debugger').isVisible(), true, 'the legend\'s Debugger group');
    const pause = await hover(() => hooks(() => window.__probeLensTimeline.itemAt('pod:web', 'pause', 68)), /^Paused by debugger web \(launch\) · web/, 'the pause');
    assert.match(pause, /attempts? failed meanwhile: the pause's failures, not the app's/);
    const mark = await hover(() => hooks(() => window.__probeLensTimeline.markAt('probe:web/web/liveness', 70)), /liveness · attempt \(debugger paused\)/, 'the liveness attempt at 70 s');
    assert.match(mark, /failed while a debugger held the app: the pause's failure, not the app's/);
    assert.match(mark, /2\/3 failures in a row/);
    await workbench.codeLensesSettled().catch(() => {});
    await screenshot(workbench, 'timeline-pause.png', { keepMouse: true });
  });

  await step('a click on the container\'s lane at 1m16s: the details area says why it is not ready — the readiness failures, while the debugger held the app', async () => {
    await workbench.parkMouse();
    const why = await clickForWhy(page, timeline, 'container:web/web', 76, 'the why to be answered');
    assert.match(why.title, /^Why web\/web at 1m1[56]s/);
    assert.match(why.sentence, /^Not Ready since/);
    // Its times as the axis says them, the cited lines' buttons too: 1m10s, not t+00:01:10.
    assert.match(why.sentence, /^Not Ready since 1m10s: readiness failed 3 times in a row \(HTTP 503 at 1m, 1m5s, 1m10s;/);
    assert.ok(why.causes.some((c) => c.evidence.some((text) => text.startsWith('1m10s · readiness failure'))), JSON.stringify(why.causes));
    assert.match(why.sentence, /debugger/);
    assert.ok(why.causes.length >= 2 && why.causes.some((c) => c.evidence.length > 0), JSON.stringify(why.causes));
    assert.equal(await timeline.locator('#timeline-why').isVisible(), true);
  });

  await step('a cited readiness failure\'s button shows it on the timeline (focused, its tooltip under it); screenshot docs/images/timeline-why.png', async () => {
    const button = timeline.locator('.tl-why-evidence', { hasText: /readiness failure/ }).first();
    await button.click();
    await waitUntil(async () => /readiness · attempt \(debugger paused\)/.test(await hooks(() => window.__probeLensTimeline.tooltip())), 'the cited attempt\'s tooltip');
    assert.equal(await button.getAttribute('aria-current'), 'true');
    await screenshot(workbench, 'timeline-why.png', { keepMouse: true });
    // Escape: nothing selected, the details area goes.
    await button.press('Escape');
    await waitUntil(async () => !(await hooks(() => window.__probeLensTimeline.why())).shown, 'the why to close');
  });

  await step('What If… on a recording\'s panel (its editor title button), its manifest given a startupProbe in the editor, unsaved: the table beside says 3 restarts → 0', async () => {
    await workbench.runCommand('View: Close All Editors');
    // The edit as typed (not saved): What if… reads the editor's text. A new line after
    // `containerPort`, its indentation (the editor's guess) replaced by the startupProbe's.
    await workbench.openFile(WHAT_IF.manifest);
    const manifestTab = page.locator('.tab', { hasText: 'slow-start.yaml' }).filter({ hasNotText: 'What if' });
    try {
      await workbench.goTo(WHAT_IF.line, 1);
      await page.keyboard.press('End');
      await page.keyboard.press('Enter');
      await workbench.goTo(WHAT_IF.line + 1, 1);
      await page.keyboard.press('Shift+End');
      await page.keyboard.insertText(STARTUP);
      await page.locator('.tab.active.dirty', { hasText: 'slow-start.yaml' }).waitFor({ timeout: 5_000 });
      await openTimelineFromFile(workbench, join(folder, WHAT_IF.recording));
      timeline = await timelineFrame(page, { accept: (s) => s.painted > 0 && s.lanes.some((l) => l.id === 'pod:web') && (s.sections ?? []).length === 0, what: 'the recording', timeout: 30_000 });
      // Its panel active, as a user clicks it: the editor title shows the panel's actions then.
      await page.locator('.tab', { hasText: 'Timeline · slow-start.local.jsonl' }).click();
      const whatIf = page.locator('.editor-group-container.active .editor-actions .action-item a[aria-label^="What If"]');
      await whatIf.waitFor({ timeout: 10_000 });
      await whatIf.click();
      await workbench.parkMouse();
      const table = page.locator('.editor-group-container', { has: page.locator('.tab.active', { hasText: 'What if · slow-start.yaml' }) }).locator('.view-lines').first();
      await table.waitFor({ timeout: 30_000 });
      const text = await waitUntil(async () => {
        const shown = plain(await table.innerText());
        return shown.includes('restarts') && shown;
      }, 'the table of What if…');
      assert.match(text, /^What if · slow-start\.yaml \(as edited, unsaved changes included\)/);
      assert.match(text, /restarts 3 → 0/);
      assert.match(text, /kills liveness 3 → none/);
    } finally {
      // The manifest as it was: a later "Close All Editors" would ask to save it. Not before the
      // comparison has opened: its panel takes the focus, which would close the command palette.
      await page.locator('.tab', { hasText: 'Timeline · What if · slow-start.yaml' }).waitFor({ timeout: 30_000 }).catch(() => {});
      await manifestTab.first().click();
      await workbench.runCommand('File: Revert File');
    }
  });

  await step('beside it, the recording above its replay: one time axis, each run under its heading', async () => {
    // The comparison alone in the window, as a user makes room for both runs.
    await page.locator('.tab', { hasText: 'Timeline · What if · slow-start.yaml' }).click();
    await workbench.runCommand('View: Close Editors in Other Groups');
    await page.locator('.part.editor .editor-group-container').nth(1).waitFor({ state: 'detached', timeout: 10_000 });
    timeline = await timelineFrame(page, { accept: (s) => s.painted > 0 && (s.sections ?? []).length === 2, what: 'the comparison', timeout: 30_000 });
    await workbench.parkMouse();
    await hooks(() => window.__probeLensTimeline.zoomTo(0, 200));
    const shown = await state();
    assert.deepEqual(shown.sections, ['recorded', 'replayed with the edited manifest']);
    assert.deepEqual(
      shown.lanes.map((l) => l.id),
      ['recorded|pod:web', 'recorded|container:web/web', 'recorded|probe:web/web/readiness', 'recorded|probe:web/web/liveness', 'replayed|pod:web', 'replayed|container:web/web', 'replayed|probe:web/web/startup', 'replayed|probe:web/web/readiness', 'replayed|probe:web/web/liveness'],
    );
    assert.ok(shown.containers['recorded|container:web/web'].restarts.length >= 2, 'the slow start is killed in the recording');
    assert.equal(shown.containers['replayed|container:web/web'].restarts.length, 0, 'not with the startupProbe');
    const [a, b] = await hooks(() => ['recorded|probe:web/web/liveness', 'replayed|probe:web/web/liveness'].map((id) => window.__probeLensTimeline.pointAt(id, 60)));
    assert.equal(a.x, b.x, 'one time axis');
  });

  await step('the why asks about the run it is in (the replay: Ready), its times as the axis says them (the recording\'s wall clock); screenshot docs/images/timeline-compare.png', async () => {
    const why = await clickForWhy(page, timeline, 'replayed|container:web/web', 150, 'the why of the replay');
    assert.match(why.title, /^Why replayed · web\/web at \d\d:\d\d:\d\d/);
    assert.match(why.sentence, /^Ready since \d\d:\d\d:\d\d\b/);
    assert.doesNotMatch(why.sentence, /t\+\d\d:/);
    const ticks = await timeline.locator('.tl-tick:not([hidden])').allInnerTexts();
    assert.ok(ticks.every((tick) => /^\d\d:\d\d(:\d\d)?$/.test(tick)), JSON.stringify(ticks));
    assert.ok(why.causes.flatMap((c) => c.evidence).every((text) => /^\d\d:\d\d:\d\d · /.test(text)), JSON.stringify(why.causes));
    await screenshot(workbench, 'timeline-compare.png');
  });
}
