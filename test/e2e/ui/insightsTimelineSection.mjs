// The "Insights timeline" section of the UI test (issue 12 in the timeline panel): a local
// session recorded while a debugger held the app at a breakpoint — the pause on the pod's lane
// and the probes' failures it caused, drawn as the pause's; a click on the container's lane and
// the *why* of that moment in the details area, whose cited lines show themselves on the
// timeline; and a recording above its replay with an edited manifest (what *What if…* opens,
// through `probeLens.timeline.showComparison`). Takes docs/images/timeline-pause.png,
// timeline-why.png and timeline-compare.png.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { PROJECT_ROOT } from '../lib.mjs';
import { pagePoint, timelineFrame, timelineState, waitUntil } from './workbench.mjs';

const PROBES = `      livenessProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 10, failureThreshold: 3}
`;
/** Pod `web`, container `web`: liveness every 10 s (3 failures kill), readiness every 5 s. */
const WEB = `apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers:
    - name: web
      image: example/web:1
      ports: [{name: http, containerPort: 8080}]
${PROBES}      readinessProbe: {httpGet: {path: /ready, port: http}, periodSeconds: 5}
`;
/** When the debugger held the program (`pause` lines): its probes fail meanwhile. */
const PAUSE = { from: 58, to: 79, debugSession: 'web (launch)' };
const failing = `[{from: 0, outcome: success}, {from: ${PAUSE.from + 1}, outcome: failure}, {from: ${PAUSE.to}, outcome: success}]`;
const PAUSED_SCENARIO = `containers: {web: {probes: {liveness: ${failing}, readiness: ${failing}}}}\n`;

/** The README's *What if…*: a slow start (45 s) killed by liveness, and the same with a startupProbe added. */
const SLOW = `apiVersion: v1
kind: Pod
metadata: {name: api}
spec:
  containers:
    - name: api
      image: example/api:1
      ports: [{name: http, containerPort: 8080}]
${PROBES}`;
const SLOW_WITH_STARTUP = SLOW.replace('      livenessProbe:', '      startupProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 10, failureThreshold: 12}\n      livenessProbe:');
const SLOW_SCENARIO = 'containers: {api: {readyAfter: 45}}\n';

const DIR = 'insights';
const RECORDING = `${DIR}/web-paused.jsonl`;
/** A chord nobody uses: the stand-in for *What if…* runs the internal command with its argument. */
const COMPARE_KEY = 'ctrl+alt+shift+9';
const COMPARE_TITLE = 'api.yaml · what if (startupProbe added)';

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
  /** Moves the mouse to the webview's point `at` (from the hooks) and waits until the tooltip says `expected`. */
  const hover = async (find, expected, what) => {
    let tip = '';
    await waitUntil(
      async () => {
        const at = await find();
        if (!at) return false;
        const point = await pagePoint(timeline, at);
        await page.mouse.move(point.x, point.y, { steps: 3 });
        await new Promise((done) => setTimeout(done, 100));
        tip = await hooks(() => window.__probeLensTimeline.tooltip());
        return expected.test(tip);
      },
      () => `the tooltip of ${what} (it says ${JSON.stringify(tip)})`,
    );
    return tip;
  };

  await step('Probe Lens: Open Timeline from File… opens a session recorded while a debugger held the app at a breakpoint', async () => {
    mkdirSync(join(folder, DIR), { recursive: true });
    writeFileSync(join(folder, DIR, 'web.yaml'), WEB);
    writeFileSync(join(folder, DIR, 'paused.scenario.yaml'), PAUSED_SCENARIO);
    writeFileSync(join(folder, RECORDING), pausedRecording(folder));
    await workbench.runCommand('View: Close All Editors');
    if (await page.locator('.part.sidebar').isVisible()) await workbench.runCommand('View: Close Primary Side Bar');
    await openFromFile(page, workbench, join(folder, RECORDING));
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
    const at = await hooks(() => window.__probeLensTimeline.pointAt('container:web/web', 76));
    assert.ok(at, 'the container lane at 76 s is in view');
    const point = await pagePoint(timeline, at);
    await page.mouse.click(point.x, point.y);
    const why = await waitUntil(async () => {
      const w = await hooks(() => window.__probeLensTimeline.why());
      return w.shown && !w.pending && w;
    }, 'the why to be answered');
    assert.match(why.title, /^Why web\/web at 1m1[56]s/);
    assert.match(why.sentence, /^Not Ready since/);
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

  await step('probeLens.timeline.showComparison (what *What if…* runs) opens the recording above its replay with a startupProbe: one time axis, each run under its heading', async () => {
    writeFileSync(join(folder, DIR, 'api.yaml'), SLOW);
    writeFileSync(join(folder, DIR, 'api-startup.yaml'), SLOW_WITH_STARTUP);
    writeFileSync(join(folder, DIR, 'slow.scenario.yaml'), SLOW_SCENARIO);
    const recorded = simulate(folder, `${DIR}/api.yaml`, `${DIR}/slow.scenario.yaml`, '4m');
    const replayed = simulate(folder, `${DIR}/api-startup.yaml`, `${DIR}/slow.scenario.yaml`, '4m');
    // The internal command is not in the palette: a user keybinding runs it with its argument, as
    // *What if…* will. The workbench reads keybindings.json as it loads (it does not watch it here).
    const keybindings = resolve(folder, '..', '..', 'user-data', 'User', 'keybindings.json');
    assert.ok(existsSync(resolve(keybindings, '..')), `code-server's user folder at ${resolve(keybindings, '..')}`);
    writeFileSync(keybindings, JSON.stringify([{ key: COMPARE_KEY, command: 'probeLens.timeline.showComparison', args: { title: COMPARE_TITLE, recorded, replayed } }]));
    await workbench.runCommand('View: Close All Editors');
    await workbench.runCommand('Developer: Reload Window');
    await page.waitForEvent('load', { timeout: 60_000 });
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await page.locator('.explorer-folders-view .monaco-list-row, .part.editor').first().waitFor({ timeout: 60_000 });
    // *What if…* runs inside the extension: it is active then. Here a manifest activates it (its lenses show it is).
    await workbench.openFile(`${DIR}/api.yaml`);
    await workbench.waitForCodeLenses((seen) => seen.length > 0, 'the lenses of api.yaml');
    await workbench.runCommand('View: Close All Editors');
    await waitUntil(
      async () => {
        await page.keyboard.press('Escape');
        await page.keyboard.press(COMPARE_KEY.split('+').map((k) => ({ ctrl: 'Control', alt: 'Alt', shift: 'Shift' })[k] ?? `Digit${k}`).join('+'));
        return (await page.locator('.tab', { hasText: `Timeline · ${COMPARE_TITLE}` }).count()) > 0;
      },
      'the comparison panel (the keybinding read and run)',
      20_000,
      1_000,
    );
    timeline = await timelineFrame(page, { accept: (s) => s.painted > 0 && (s.sections ?? []).length === 2, what: 'the comparison', timeout: 30_000 });
    await workbench.parkMouse();
    const shown = await state();
    assert.deepEqual(shown.sections, ['recorded', 'replayed with the edited manifest']);
    assert.deepEqual(
      shown.lanes.map((l) => l.id),
      ['recorded|pod:api', 'recorded|container:api/api', 'recorded|probe:api/api/liveness', 'replayed|pod:api', 'replayed|container:api/api', 'replayed|probe:api/api/startup', 'replayed|probe:api/api/liveness'],
    );
    assert.ok(shown.containers['recorded|container:api/api'].restarts.length >= 2, 'the slow start is killed in the recording');
    assert.equal(shown.containers['replayed|container:api/api'].restarts.length, 0, 'not with the startupProbe');
    const [a, b] = await hooks(() => ['recorded|probe:api/api/liveness', 'replayed|probe:api/api/liveness'].map((id) => window.__probeLensTimeline.pointAt(id, 60)));
    assert.equal(a.x, b.x, 'one time axis');
  });

  await step('the why asks about the run it is in (the replay: Ready); screenshot docs/images/timeline-compare.png', async () => {
    const at = await hooks(() => window.__probeLensTimeline.pointAt('replayed|container:api/api', 150));
    assert.ok(at);
    const point = await pagePoint(timeline, at);
    await page.mouse.click(point.x, point.y);
    const why = await waitUntil(async () => {
      const w = await hooks(() => window.__probeLensTimeline.why());
      return w.shown && !w.pending && w;
    }, 'the why of the replay');
    assert.match(why.title, /^Why replayed · api\/api at 2m30s/);
    assert.match(why.sentence, /^Ready/);
    await screenshot(workbench, 'timeline-compare.png');
    // Read again at the next load: the chord goes with it.
    writeFileSync(resolve(folder, '..', '..', 'user-data', 'User', 'keybindings.json'), '[]');
  });
}

/** *Open Timeline from File…* with the simple file dialog: the path typed (again, if the dialog replaced it while listing its folder). */
async function openFromFile(page, workbench, path) {
  await workbench.runCommand('Probe Lens: Open Timeline from File…');
  const input = workbench.quickInput.locator('input.input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await waitUntil(async () => (await input.inputValue()) !== '', 'the file dialog to show its folder');
  await waitUntil(
    async () => {
      if ((await input.inputValue()) !== path) await input.fill(path);
      const listed = await workbench.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: basename(path) }).count();
      return listed > 0 && (await input.inputValue()) === path;
    },
    `the file dialog to hold ${path}`,
  );
  await workbench.quickInput.getByRole('button', { name: 'Open Timeline' }).click();
  if (!(await workbench.quickInput.waitFor({ state: 'hidden', timeout: 3_000 }).then(() => true, () => false))) {
    await input.press('Enter');
    await workbench.quickInput.waitFor({ state: 'hidden', timeout: 10_000 });
  }
}
