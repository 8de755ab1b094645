/**
 * The timeline panel's host side inside a real VS Code (issue 9): a simulated session's panel
 * (handshake, live feed at ≤ 10 messages a second, heartbeat, highlight from the editor and the
 * Probes view, reveal, ended, saved for a reload), export → import, the serializer's revival, and
 * recordings opened from files (the CLI's, broken ones, large ones, one too large). What the
 * webview draws is checked in Playwright (test/e2e/uiTest.mjs). Fixtures: timeline/, probing/.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { EngineEvent } from '../../../src/core/engine/events';
import { parseJsonLines } from '../../../src/core/timeline/jsonl';
import type { ProbingSession } from '../../../src/extension/sessions/probingSession';
import type { RecordingTimeline } from '../../../src/extension/timeline/recordingTimeline';
import { SavedTimelines } from '../../../src/extension/timeline/savedTimelines';
import { APPEND_SLICE_EVENTS, FIRST_SLICE_EVENTS, type TimelineContent, type TimelinePanel } from '../../../src/extension/timeline/timelinePanel';
import { TIMELINE_PROTOCOL_VERSION, TIMELINE_VIEW_TYPE, type TimelineViewState } from '../../../src/shared/protocol';
import { sleep, test, waitFor } from '../harness';
import { activateProbeLens, fixtureUri, openFixture, probeLensExtension } from '../workbench';
import { closeTimelines as closeAll, loaded, timelinePanels as timelines } from '../timelines';

const CHECKOUT = 'timeline/checkout.yaml';
const CHECKOUT_SCENARIO = 'timeline/checkout.scenario.yaml';

function simulate(document: vscode.TextDocument, speed: number, scenario = CHECKOUT_SCENARIO): Thenable<ProbingSession | undefined> {
  return vscode.commands.executeCommand<ProbingSession | undefined>('probeLens.simulate', { uri: document.uri, scenario: fixtureUri(scenario), speed });
}

/** Events the webview was sent since its last `load` (the load's and every append's). */
function eventsSent(panel: TimelinePanel): number {
  const from = panel.sent.map((m) => m.type).lastIndexOf('load');
  return panel.sent.slice(from).reduce((n, m) => n + (m.type === 'load' || m.type === 'append' ? (m.events ?? 0) : 0), 0);
}

/**
 * A panel's content as a recording. (Structurally: the extension runs from its bundle, these
 * tests from their own build of src/, so `instanceof` would compare two copies of the class.)
 */
function recordingOf(content: TimelineContent | undefined): RecordingTimeline {
  assert.ok(content && 'recording' in content, `a recording's content, not ${content?.key}`);
  return content as RecordingTimeline;
}

function run(file: string, args: readonly string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [file, ...args], { cwd, maxBuffer: 256 * 1024 * 1024, env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } }, (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout))),
  );
}

function workspaceFolder(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder);
  return folder.uri.fsPath;
}

test('timeline: the panel of a simulated session — strict CSP, ready → load, live appends at ≤ 10 a second, highlight, reveal, ended, saved', async () => {
  const panels = await timelines();
  const document = await openFixture(CHECKOUT);
  const session = await simulate(document, 60);
  assert.ok(session, 'simulate returned the session');
  try {
    const panel = await vscode.commands.executeCommand<TimelinePanel | undefined>('probeLens.openTimeline', { uri: document.uri, pod: 'checkout', container: 'api' });
    assert.ok(panel, 'openTimeline resolves with the panel');
    assert.equal(panel.webviewPanel.viewType, TIMELINE_VIEW_TYPE);
    assert.equal(panel.webviewPanel.title, 'Timeline · checkout.yaml');
    assert.ok(panel.content && 'session' in panel.content && panel.content.session === session, 'the panel shows the session');

    // The page: a shell with a strict CSP, the one script allowed by its nonce, resources only from dist/ and media/.
    const html = panel.webviewPanel.webview.html;
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1]?.replace(/&#39;/g, "'") ?? '';
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(nonce && nonce.length >= 16, `a nonce in the CSP: ${csp}`);
    const cspSource = panel.webviewPanel.webview.cspSource;
    assert.equal(csp, `default-src 'none'; script-src 'nonce-${nonce}'; style-src ${cspSource}; font-src ${cspSource}; img-src ${cspSource} data:`);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.equal((html.match(/<script/g) ?? []).length, 1);
    assert.ok(html.includes(`<script nonce="${nonce}" src="`), 'the script carries the nonce');
    assert.match(html, /<script nonce="[^"]+" src="[^"]+\/dist\/webview\/timeline\.js"><\/script>/);
    assert.match(html, /<link rel="stylesheet" href="[^"]+\/dist\/codicons\/codicon\.css">/);
    assert.match(html, /<link rel="stylesheet" href="[^"]+\/media\/timeline\.css">/);
    const options = panel.webviewPanel.webview.options;
    assert.equal(options.enableScripts, true);
    const root = probeLensExtension().extensionUri;
    assert.deepEqual(options.localResourceRoots?.map((u) => u.toString()), [vscode.Uri.joinPath(root, 'dist').toString(), vscode.Uri.joinPath(root, 'media').toString()]);

    // The handshake: nothing before `ready`, then `load` (live), then the container's lanes highlighted.
    const load = await loaded(panel);
    assert.equal(panel.sent[0]?.type, 'load', `the first message is the load: ${panel.sent.map((m) => m.type).join(', ')}`);
    assert.equal(load.live, true);
    const source = panel.content.source();
    assert.deepEqual({ kind: source.kind, clock: source.clock, live: source.live, rate: source.rate, capacity: source.capacity }, { kind: 'session', clock: { kind: 'virtual' }, live: true, rate: 60, capacity: 600_000 });
    assert.equal(source.title, 'checkout.yaml · simulated · 60× · checkout.scenario.yaml');
    const apiLanes = ['container:checkout/api', 'probe:checkout/api/startup', 'probe:checkout/api/readiness', 'probe:checkout/api/liveness'];
    assert.deepEqual(panel.highlighted, apiLanes);
    assert.deepEqual(panel.sent.find((m) => m.type === 'highlight')?.lanes, apiLanes);

    // Asked again: the same panel, with the probe's lane highlighted.
    const again = await vscode.commands.executeCommand<TimelinePanel | undefined>('probeLens.openTimeline', { uri: document.uri, pod: 'checkout', container: 'api', probe: 'liveness' });
    assert.equal(again, panel);
    assert.equal(panels.all.filter((p) => p.content?.manifest?.toString() === document.uri.toString()).length, 1);
    assert.deepEqual(panel.highlighted, ['probe:checkout/api/liveness']);

    // Live: at 60× the engine emits a few dozen events a second; the panel gets at most 10 messages a second.
    const from = panel.sent.length;
    const startedAt = Date.now();
    await sleep(3_000);
    const window = panel.sent.slice(from).filter((m) => m.type === 'append');
    const seconds = (Date.now() - startedAt) / 1000;
    assert.ok(window.length >= 5, `appends kept coming (${window.length} in ${seconds.toFixed(1)} s)`);
    assert.ok(window.length <= Math.ceil(seconds * 10) + 1, `${window.length} appends in ${seconds.toFixed(1)} s: more than 10 a second`);
    assert.ok(window.some((m) => (m.events ?? 0) > 1), 'events come batched');
    const nows = window.map((m) => m.now ?? 0);
    assert.ok(nows.every((now, i) => i === 0 || now >= (nows[i - 1] ?? 0)), `now never goes back: ${nows.join(', ')}`);

    // The editor's cursor on the readiness probe highlights its lane; on the pod, the pod and everything in it.
    const editor = await vscode.window.showTextDocument(document, { preview: false });
    const lines = document.getText().split('\n');
    const readinessLine = lines.findIndex((l) => l.includes('readinessProbe:'));
    editor.selection = new vscode.Selection(readinessLine + 1, 14, readinessLine + 1, 14);
    await waitFor(() => panel.highlighted.join() === 'probe:checkout/api/readiness', 5_000, () => `the readiness lane highlighted; it is ${panel.highlighted.join(', ')}`);
    await waitFor(() => panel.sent.some((m) => m.type === 'highlight' && m.lanes?.join() === 'probe:checkout/api/readiness'), 2_000, 'the highlight message');
    const workerLine = lines.findIndex((l) => l.includes('- name: worker'));
    editor.selection = new vscode.Selection(workerLine, 14, workerLine, 14);
    await waitFor(() => panel.highlighted.join() === 'container:checkout/worker,probe:checkout/worker/liveness', 5_000, () => `the worker's lanes highlighted; they are ${panel.highlighted.join(', ')}`);

    // The Probes view's selection too.
    const api = await activateProbeLens();
    await vscode.commands.executeCommand('probeLens.probes.focus');
    // The tree redraws its rows as the session runs: a row found a moment ago may be gone by the
    // time it is revealed, so each try finds it afresh. A row selected already (the cursor's
    // follower may have got there first) fires no selection event: each try selects the session first.
    const startupSelected = () => panel.highlighted.join() === 'probe:checkout/api/startup';
    for (let tries = 0; tries < 10 && !startupSelected(); tries++) {
      const sessionRow = api.probing.tree.find(session);
      if (sessionRow) await api.probing.treeView.reveal(sessionRow, { select: true, focus: false });
      const row = api.probing.tree.find(session, 'checkout', 'api', 'startup');
      assert.ok(row);
      await api.probing.treeView.reveal(row, { select: true, focus: false });
      await waitFor(startupSelected, 1_000, 'settled').catch(() => undefined);
    }
    await waitFor(startupSelected, 1_000, () => `the startup lane highlighted from the tree; it is ${panel.highlighted.join(', ')}`);

    // A click in the panel (`reveal`): the manifest with the probe's key selected.
    panel.receive({ type: 'reveal', protocol: TIMELINE_PROTOCOL_VERSION, pod: 'checkout', container: 'api', probe: 'liveness' });
    await waitFor(() => vscode.window.activeTextEditor?.document.uri.toString() === document.uri.toString() && vscode.window.activeTextEditor.document.getText(vscode.window.activeTextEditor.selection) === 'livenessProbe', 5_000, () => `livenessProbe selected; the selection is "${vscode.window.activeTextEditor?.document.getText(vscode.window.activeTextEditor.selection)}"`);
    // Messages of another protocol version, or of no known shape, are ignored.
    panel.receive({ type: 'reveal', protocol: TIMELINE_PROTOCOL_VERSION + 1, pod: 'checkout', container: 'api' });
    panel.receive({ type: 'reveal', protocol: TIMELINE_PROTOCOL_VERSION, pod: 42 });
    assert.deepEqual(panel.received.slice(-2), ['unknown', 'unknown']);

    // Stop: the last events, `ended`; nothing was lost or sent twice; the events are saved for a reload.
    await vscode.commands.executeCommand('probeLens.stopProbing', { uri: document.uri });
    await waitFor(() => panel.sent.some((m) => m.type === 'ended'), 5_000, 'the ended message');
    assert.equal(eventsSent(panel), session.events.total, 'every event reached the webview exactly once');
    assert.equal(session.events.total, session.events.size, 'nothing dropped at this size');
    const restore = panel.content.restore;
    assert.equal(restore?.kind, 'saved');
    const saved = vscode.Uri.parse(restore.uri);
    assert.ok(existsSync(saved.fsPath), `the session's events were saved to ${saved.fsPath}`);
    const parsed = parseJsonLines(readFileSync(saved.fsPath, 'utf8'));
    assert.deepEqual(parsed.events, session.events.events());
    assert.deepEqual(parsed.header, { type: 'run', schemaVersion: 1, t: 0, mode: 'session', file: CHECKOUT, kind: 'simulated' });
    const count = panel.sent.length;
    await sleep(1_500);
    const after = panel.sent.slice(count).filter((m) => m.type !== 'highlight');
    assert.deepEqual(after, [], 'no event or heartbeat after ended');
    panel.dispose();
    assert.equal(panels.forSession(session), undefined);
  } finally {
    session.dispose();
    await closeAll(panels);
  }
}, { timeoutMs: 90_000 });

test('timeline: a quiet session still moves the panel\'s clock (heartbeat); a hidden panel loads afresh when shown', async () => {
  const panels = await timelines();
  const document = await openFixture('probing/sim.yaml');
  // At 1×, nothing happens for the first 5 s (the first probes are one period in).
  const session = await simulate(document, 1, 'probing/sim.scenario.yaml');
  assert.ok(session);
  try {
    const panel = panels.openSession(session);
    await loaded(panel);
    await waitFor(() => panel.sent.filter((m) => m.type === 'append' && m.events === 0).length >= 2, 5_000, () => `two heartbeats (sent: ${panel.sent.map((m) => `${m.type}${m.events ?? ''}`).join(', ')})`);
    const beats = panel.sent.filter((m) => m.type === 'append' && m.events === 0).map((m) => m.now ?? 0);
    assert.ok((beats[1] ?? 0) > (beats[0] ?? 0), `now moves: ${beats.join(', ')}`);

    // Another editor over the panel hides it (its webview is discarded); shown again, it says ready and loads again.
    const loads = panel.sent.filter((m) => m.type === 'load').length;
    await vscode.window.showTextDocument(document, { viewColumn: panel.webviewPanel.viewColumn, preview: false });
    await waitFor(() => !panel.webviewPanel.visible, 5_000, 'the panel to be hidden');
    await sleep(500);
    panel.reveal(false);
    await waitFor(() => panel.sent.filter((m) => m.type === 'load').length === loads + 1 && panel.isLoaded, 15_000, () => `a second load (sent: ${panel.sent.map((m) => m.type).join(', ')})`);
    await waitFor(() => eventsSent(panel) === session.events.total, 5_000, () => `the reloaded webview to have every event (${eventsSent(panel)} of ${session.events.total})`);
  } finally {
    session.dispose();
    await closeAll(panels);
  }
}, { timeoutMs: 60_000 });

test('timeline: export → import is equal; the file panel reveals in the manifest its header names', async () => {
  const panels = await timelines();
  const document = await openFixture(CHECKOUT);
  const session = await simulate(document, 600);
  assert.ok(session);
  const to = fixtureUri('timeline/exported.jsonl');
  try {
    const panel = panels.openSession(session);
    // Loaded before the file's panel opens over it: hidden, it loses its webview (see settled()).
    await loaded(panel);
    await waitFor(() => session.elapsedSeconds > 300, 10_000, 'five virtual minutes');
    session.dispose();
    const written = await vscode.commands.executeCommand<vscode.Uri | undefined>('probeLens.exportTimeline', { sessionId: session.id, to: to.toString() });
    assert.equal(written?.toString(), to.toString());
    const text = readFileSync(to.fsPath, 'utf8');
    const exported = parseJsonLines(text);
    assert.deepEqual(exported.events, session.events.events(), 'the export holds the session\'s events');
    assert.equal(exported.header?.['mode'], 'session');
    assert.ok(exported.events.some((e) => e.type === 'event' && e.reason === 'Killing'), 'a kill is among them');

    const opened = await vscode.commands.executeCommand<TimelinePanel | undefined>('probeLens.openTimelineFromFile', to);
    assert.ok(opened && opened !== panel);
    const content = recordingOf(opened.content);
    assert.deepEqual(content.recording.store.events(), exported.events, 'import equals export');
    assert.deepEqual(content.recording.header, exported.header);
    assert.equal(content.manifest?.toString(), document.uri.toString(), 'the header\'s file is the manifest');
    assert.deepEqual([content.source().kind, content.source().replayable, content.source().canReveal, content.source().live], ['file', true, true, false]);
    assert.equal(opened.webviewPanel.title, 'Timeline · exported.jsonl');
    await loaded(opened, 'the file panel');
    assert.equal(eventsSent(opened), exported.events.length);
    // Exporting the imported file writes the same bytes again.
    const again = fixtureUri('timeline/exported-again.jsonl');
    assert.equal((await panels.export(opened, again))?.toString(), again.toString());
    assert.equal(readFileSync(again.fsPath, 'utf8'), text);
    // Opened again: the same panel.
    assert.equal(await vscode.commands.executeCommand('probeLens.openTimelineFromFile', to), opened);
    // A click on a mark of the recording reveals the probe in the manifest.
    const editor = await panels.reveal(opened, { pod: 'checkout', container: 'worker', probe: 'liveness' });
    assert.equal(editor?.document.uri.toString(), document.uri.toString());
    assert.equal(editor?.document.getText(editor.selection), 'livenessProbe');
    assert.equal(editor?.selection.start.line, document.getText().split('\n').map((l) => l.includes('livenessProbe:')).lastIndexOf(true), 'the worker\'s livenessProbe, not the api\'s');
  } finally {
    session.dispose();
    await closeAll(panels);
    await vscode.workspace.fs.delete(to).then(undefined, () => undefined);
  }
}, { timeoutMs: 60_000 });

test('timeline: the serializer revives panels from their webview state — a saved session, a file, and nothing to revive', async () => {
  const panels = await timelines();
  const document = await openFixture(CHECKOUT);
  const session = await simulate(document, 600);
  assert.ok(session);
  try {
    const panel = panels.openSession(session);
    await loaded(panel);
    await waitFor(() => session.elapsedSeconds > 120, 10_000, 'two virtual minutes');
    const restore = panel.content?.restore;
    assert.ok(restore?.kind === 'saved');
    await vscode.commands.executeCommand('probeLens.stopProbing', { uri: document.uri });
    await waitFor(() => existsSync(vscode.Uri.parse(restore.uri).fsPath), 5_000, 'the saved timeline');
    panel.dispose();

    // What VS Code does after a window reload: a new WebviewPanel of our type, with the options it
    // had (scripts on) and the state the webview kept.
    const revivedOptions = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(probeLensExtension().extensionUri, 'dist'), vscode.Uri.joinPath(probeLensExtension().extensionUri, 'media')] };
    const state: TimelineViewState = { protocol: TIMELINE_PROTOCOL_VERSION, restore, follow: true, hiddenContainers: [], hiddenProbes: [], hiddenOutcomes: [], replaySpeed: 60 };
    const revived = vscode.window.createWebviewPanel(TIMELINE_VIEW_TYPE, 'Timeline · checkout.yaml', vscode.ViewColumn.Beside, revivedOptions);
    await panels.deserialize(revived, state);
    const again = panels.all.find((p) => p.webviewPanel === revived);
    assert.ok(again, 'the revived panel is tracked');
    const revivedContent = recordingOf(again.content);
    assert.equal(revivedContent.kind, 'saved');
    assert.equal(again.webviewPanel.title, 'Timeline · checkout.yaml (ended)');
    assert.deepEqual(revivedContent.recording.store.events(), session.events.events());
    assert.deepEqual([revivedContent.source().kind, revivedContent.source().live, revivedContent.source().title], ['session', false, 'checkout.yaml · simulated · 600× · checkout.scenario.yaml']);
    assert.equal(again.webviewPanel.webview.options.enableScripts, true);
    const revivedLoad = await loaded(again, 'the revived panel');
    // The load itself says the session had ended, so the webview never shows it live, not even for a frame.
    assert.equal(revivedLoad.ended, 'restored after a window reload');
    assert.ok(!again.sent.some((m) => m.type === 'ended'), 'no separate ended message after the load');
    assert.equal(eventsSent(again), session.events.total);

    again.dispose();

    // A file panel reads its file again.
    const recording = fixtureUri('timeline/revived.jsonl');
    assert.ok(await panels.export(session, recording));
    const filePanel = vscode.window.createWebviewPanel(TIMELINE_VIEW_TYPE, 'Timeline · revived.jsonl', vscode.ViewColumn.Beside, revivedOptions);
    await panels.deserialize(filePanel, { ...state, restore: { kind: 'file', uri: recording.toString() } });
    const revivedFile = panels.all.find((p) => p.webviewPanel === filePanel);
    const fileContent = recordingOf(revivedFile?.content);
    assert.equal(fileContent.kind, 'file');
    assert.deepEqual(fileContent.recording.store.events(), session.events.events());
    assert.ok(revivedFile);
    await loaded(revivedFile, 'the revived file panel');
    revivedFile.dispose();

    // A state that names a file Probe Lens did not save, or none: the panel says so. (One at a
    // time, each closed once it has said ready: see settled() in ../timelines.)
    for (const [restoreState, message] of [
      [{ ...state, restore: { kind: 'saved', uri: vscode.Uri.file('/etc/passwd').toString(), title: 'x' } }, 'did not save'],
      [{ protocol: 999 }, 'nothing to show'],
    ] as const) {
      const webviewPanel = vscode.window.createWebviewPanel(TIMELINE_VIEW_TYPE, 'Timeline', vscode.ViewColumn.Beside, revivedOptions);
      await panels.deserialize(webviewPanel, restoreState);
      const failed = panels.all.find((p) => p.webviewPanel === webviewPanel);
      assert.ok(failed);
      assert.match(failed.content?.failure ?? '', new RegExp(message));
      await waitFor(() => failed.sent.some((m) => m.type === 'failed'), 15_000, () => `a failed message (sent: ${failed.sent.map((m) => m.type).join(', ')}; received: ${failed.received.join(', ')})`);
      failed.dispose();
    }
  } finally {
    session.dispose();
    await closeAll(panels);
  }
}, { timeoutMs: 60_000 });

test('timeline: a CLI recording opens from file; a large one loads in slices, a broken one says its bad lines, one above 4 GiB is refused', async () => {
  const panels = await timelines();
  const folder = workspaceFolder();
  const cli = join(probeLensExtension().extensionUri.fsPath, 'dist', 'cli.js');
  const scratch = mkdtempSync(join(tmpdir(), 'probe-lens-timeline-'));
  try {
    // `probe-lens simulate FILE --format jsonl`, the file named relative to the workspace: its header leads back to the manifest.
    const stdout = await run(cli, ['simulate', CHECKOUT, '--scenario', CHECKOUT_SCENARIO, '--for', '30m', '--format', 'jsonl'], folder);
    const recording = join(folder, 'timeline', 'checkout.sim.jsonl');
    writeFileSync(recording, stdout);
    const lineCount = stdout.trim().split('\n').length;
    const panel = await vscode.commands.executeCommand<TimelinePanel | undefined>('probeLens.openTimelineFromFile', vscode.Uri.file(recording));
    assert.ok(panel);
    const content = recordingOf(panel.content);
    assert.equal(content.recording.store.size, lineCount - 1, 'every line but the header is an event');
    assert.deepEqual([content.recording.header?.['mode'], content.recording.header?.['file'], content.recording.skipped], ['simulate', CHECKOUT, 0]);
    assert.deepEqual(content.source().clock, { kind: 'virtual' });
    assert.equal(content.manifest?.toString(), fixtureUri(CHECKOUT).toString());
    await loaded(panel, 'the CLI recording\'s panel');
    assert.equal(eventsSent(panel), lineCount - 1);
    panel.dispose();

    // Broken lines are skipped and said, with their line numbers.
    const broken = join(scratch, 'broken.jsonl');
    writeFileSync(broken, `${stdout}{"type":"attempt","t":"soon"}\nnot json\n{"type":"gc","t":1}\n`);
    const brokenPanel = await panels.openFile(vscode.Uri.file(broken));
    const brokenContent = recordingOf(brokenPanel?.content);
    const { problems, skipped } = brokenContent.recording;
    assert.equal(skipped, 3);
    assert.deepEqual(problems.map((p) => p.line), [lineCount + 1, lineCount + 2, lineCount + 3]);
    assert.equal(brokenContent.manifest?.toString(), fixtureUri(CHECKOUT).toString(), 'found through the workspace folder, wherever the recording is');
    await loaded(brokenPanel as TimelinePanel, 'the broken recording\'s panel');
    brokenPanel?.dispose();

    // A large recording: a first slice for an early first paint, then appends, the last one not `loading`.
    const events: EngineEvent[] = [];
    const total = FIRST_SLICE_EVENTS + APPEND_SLICE_EVENTS + 1234;
    for (let i = 0; i < total; i++) events.push({ type: 'pod', t: i, pod: `p${i % 7}`, ready: i % 2 === 0 });
    const large = join(scratch, 'large.jsonl');
    writeFileSync(large, `${JSON.stringify({ type: 'run', schemaVersion: 1, t: 0, mode: 'simulate' })}\n${events.map((e) => JSON.stringify(e)).join('\n')}\n`);
    const largePanel = await panels.openFile(vscode.Uri.file(large));
    assert.ok(largePanel);
    await loaded(largePanel, 'the large recording\'s panel');
    assert.equal(largePanel.content?.manifest, undefined, 'a header without a file: no manifest to reveal in');
    assert.equal(largePanel.content?.source().canReveal, false);
    const slices = largePanel.sent.filter((m) => m.type === 'load' || m.type === 'append').map((m) => `${m.type} ${m.events} ${m.loading ?? false}`);
    assert.deepEqual(slices, [`load ${FIRST_SLICE_EVENTS} true`, `append ${APPEND_SLICE_EVENTS} true`, 'append 1234 false']);

    // Above 4 GiB (a sparse file: no disk used): refused before reading, with why and what to do.
    const huge = join(scratch, 'huge.jsonl');
    writeFileSync(huge, '');
    truncateSync(huge, 4 * 1024 ** 3 + 1);
    const before = panels.all.length;
    const refused = await panels.openFile(vscode.Uri.file(huge));
    assert.equal(refused, undefined);
    assert.equal(panels.all.length, before, 'no panel for a refused file');
  } finally {
    await closeAll(panels);
    rmSync(scratch, { recursive: true, force: true });
  }
}, { timeoutMs: 90_000 });

test('timeline: saved timelines older than a week, or beyond the 50 newest, are pruned — except those open panels read', async () => {
  const scratch = mkdtempSync(join(tmpdir(), 'probe-lens-saved-'));
  try {
    const saved = new SavedTimelines(vscode.Uri.file(scratch));
    assert.equal(await saved.prune(new Set()), 0, 'nothing saved yet: nothing to do');
    const now = Date.now();
    const day = 24 * 3600 * 1000;
    const files: vscode.Uri[] = [];
    for (let i = 0; i < 55; i++) {
      const uri = saved.fileFor(`simulated-${i}`).with({ path: `${saved.folder.path}/${i}.jsonl` });
      mkdirSync(saved.folder.fsPath, { recursive: true });
      writeFileSync(uri.fsPath, '{"type":"run","schemaVersion":1,"t":0}\n');
      // 0…49 from the last hours; 50…54 from 8 days ago and older.
      const mtime = new Date(i < 50 ? now - i * 3600 * 1000 : now - (8 + i) * day);
      utimesSync(uri.fsPath, mtime, mtime);
      files.push(uri);
    }
    writeFileSync(join(saved.folder.fsPath, 'half.jsonl.123.tmp'), '');
    const inUse = files[52] as vscode.Uri;
    assert.ok(saved.holds(inUse));
    assert.equal(saved.holds(vscode.Uri.file('/etc/passwd')), false);
    assert.equal(await saved.prune(new Set([inUse.toString()]), now), 5, 'four old ones and the temporary file');
    const left = readdirSync(saved.folder.fsPath).sort();
    assert.equal(left.length, 51);
    assert.ok(left.includes('52.jsonl'), 'the one in use stays');
    assert.ok(!left.includes('half.jsonl.123.tmp'));
    // Revived: touched, so it counts as new.
    saved.touch(inUse);
    assert.ok(statSync(inUse.fsPath).mtimeMs > now - 60_000);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
