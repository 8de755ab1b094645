/**
 * The timeline panel's host side of issue 12 inside a real VS Code: the selection's *why* (the
 * webview's `explain`, answered from the panel's lines with the core's insights — for a recording,
 * a running session, and each run of a comparison) and the comparison *What if…* opens, the
 * internal command *What if…* opens a recording above its replay with. What the webview draws and
 * how a click asks is checked in Chromium (test/webview/insights.browser.test.ts) and in Playwright
 * (test/e2e/ui/insightsTimelineSection.mjs). Fixtures: timeline/.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { runHeader, toJsonLines } from '../../../src/core/timeline/jsonl';
import type { SentMessage, TimelinePanel } from '../../../src/extension/timeline/timelinePanel';
import { TIMELINE_PROTOCOL_VERSION } from '../../../src/shared/protocol';
import { PAUSE, pausedSession } from '../../core/timeline/pauseSession';
import { simulated, webPod } from '../../helpers/engine';
import { test, waitFor } from '../harness';
import { simulateFixture } from '../probing';
import { closeTimelines as closeAll, loaded, timelinePanels as timelines } from '../timelines';
import { fixtureUri } from '../workbench';

/** Acts as the webview: asks why, and waits for the host's answer to that question. */
async function ask(panel: TimelinePanel, request: number, pod: string, container: string, t: number, section?: string): Promise<SentMessage> {
  panel.receive({ type: 'explain', protocol: TIMELINE_PROTOCOL_VERSION, request, pod, container, t, ...(section !== undefined ? { section } : {}) });
  return waitFor(() => panel.sent.find((m) => m.type === 'explanation' && m.request === request), 30_000, () => `an explanation for question ${request} (sent: ${panel.sent.map((m) => m.type).join(', ')})`);
}

test('timeline insights: the selection\'s why — a recording\'s panel answers explain from its lines up to the moment; a malformed question is ignored', async () => {
  const panels = await timelines();
  const file = fixtureUri('timeline/paused.jsonl');
  await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(toJsonLines(runHeader({ mode: 'run', target: 'local', kind: 'local', file: 'web.yaml' }), pausedSession())));
  try {
    const panel = await vscode.commands.executeCommand<TimelinePanel | undefined>('probeLens.openTimelineFromFile', file);
    assert.ok(panel);
    await loaded(panel);
    assert.equal(panel.content?.source().canExplain, true);
    const during = await ask(panel, 1, 'web', 'web', 76);
    assert.match(during.sentence ?? '', /^Not Ready since .*debugger/s);
    // Said on the panel's clock, as its axis labels the moments (no start time in the header: elapsed).
    assert.match(during.sentence ?? '', /^Not Ready since 1m10s: readiness failed 3 times in a row \(HTTP 503 at 1m, 1m5s, 1m10s;/);
    const before = await ask(panel, 2, 'web', 'web', PAUSE.from - 10);
    assert.match(before.sentence ?? '', /^Ready/);
    const missing = await ask(panel, 3, 'web', 'sidecar', 76);
    assert.equal(missing.failure, 'web/sidecar has no lines by then');
    panel.receive({ type: 'explain', protocol: TIMELINE_PROTOCOL_VERSION, request: 4, pod: 'web', t: 76 });
    assert.equal(panel.received.at(-1), 'unknown');
    assert.equal(panel.sent.filter((m) => m.type === 'explanation').length, 3);
  } finally {
    await closeAll(panels);
    await vscode.workspace.fs.delete(file).then(undefined, () => undefined);
  }
}, { timeoutMs: 60_000 });

test('timeline insights: the selection\'s why on a running session\'s panel reads the session\'s lines as they are', async () => {
  const panels = await timelines();
  const { session } = await simulateFixture('timeline/checkout.yaml', 'timeline/checkout.scenario.yaml', 600);
  try {
    const panel = panels.openSession(session);
    await loaded(panel);
    await waitFor(() => session.elapsedSeconds > 130, 30_000, 'the kill at about 111 s to be behind');
    // Killed by liveness at about 111 s and started again: its startupProbe is on its way.
    const answer = await ask(panel, 1, 'checkout', 'api', 125);
    assert.match(answer.sentence ?? '', /^Not started: startupProbe has used/);
    const early = await ask(panel, 2, 'checkout', 'api', 40);
    assert.match(early.sentence ?? '', /^Ready/);
  } finally {
    session.dispose();
    await closeAll(panels);
  }
}, { timeoutMs: 60_000 });

const SLOW_START = webPod('livenessProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 10, failureThreshold: 3}');
const WITH_STARTUP = webPod('startupProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 10, failureThreshold: 12}\nlivenessProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 10, failureThreshold: 3}');
const SLOW = 'containers: {web: {readyAfter: 45}}';

test('timeline insights: a comparison opens the recording above its replay — both runs, sectioned, on one axis; the why asks each run; again with the same title, the same panel anew; no command bounces it', async () => {
  const panels = await timelines();
  const recorded = { header: runHeader({ mode: 'simulate', file: 'web.yaml' }), events: simulated(SLOW_START, SLOW, 240) };
  const replayed = { header: runHeader({ mode: 'simulate', file: 'web.yaml' }), events: simulated(WITH_STARTUP, SLOW, 240) };
  try {
    const panel = panels.openComparison({ title: 'web.yaml · what if', recorded, replayed });
    assert.ok(panel);
    assert.equal(panel.webviewPanel.title, 'Timeline · web.yaml · what if');
    const load = await loaded(panel);
    assert.equal(load.events, recorded.events.length + replayed.events.length);
    const snapshot = panel.content?.snapshot();
    assert.deepEqual(snapshot?.sections, [
      { name: 'recorded', title: 'recorded', events: recorded.events.length },
      { name: 'replayed', title: 'replayed with the edited manifest', events: replayed.events.length },
    ]);
    const source = panel.content?.source();
    assert.deepEqual([source?.canExplain, source?.canExport, source?.canReveal, source?.replayable, source?.live], [true, false, false, false, false]);

    // The why reads the run the selection is in: restarting in the recording, started in the replay.
    const inRecording = await ask(panel, 1, 'web', 'web', 100, 'recorded');
    const inReplay = await ask(panel, 2, 'web', 'web', 100, 'replayed');
    assert.notEqual(inRecording.sentence, inReplay.sentence);
    assert.match(inReplay.sentence ?? '', /^Ready/);
    assert.match(inRecording.sentence ?? '', /restart|liveness|back-off/i);

    // What if… run again: the same panel, loaded anew with the new result.
    const loads = panel.sent.filter((m) => m.type === 'load').length;
    const again = panels.openComparison({ title: 'web.yaml · what if', recorded, replayed: recorded });
    assert.equal(again, panel);
    await waitFor(() => panel.sent.filter((m) => m.type === 'load').length > loads && panel.isLoaded, 10_000, 'a second load');
    assert.equal(panels.all.length, 1);

    // What if… holds the panels and opens its comparison itself: no internal command carries it as `unknown`.
    assert.equal((await vscode.commands.getCommands(true)).includes('probeLens.timeline.showComparison'), false);
  } finally {
    await closeAll(panels);
  }
}, { timeoutMs: 60_000 });
