/**
 * Probing sessions inside a real VS Code: a local session against a real HTTP server started
 * here (tree rows, live diagnostics, edits followed, nothing left behind on stop), a one-off probe,
 * and simulations (a scenario beside the manifest, one created from the template, a container
 * restarted). Fixtures: test/e2e/fixtures/workspace/probing/.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { LocalStarted, ProbeOnceResult } from '../../../src/extension/sessions/launcher';
import type { ProbingSession } from '../../../src/extension/sessions/probingSession';
import type { ProbingApi } from '../../../src/extension/sessions/registerProbing';
import type { ProbeTreeNode } from '../../../src/extension/tree/nodes';
import { activeCounts } from '../../helpers/activeResources';
import { sleep, test, waitFor } from '../harness';
import { probingApi, startHealthServer, withSetting } from '../probing';
import { fixtureUri, openFixture, probeLensDiagnostics } from '../workbench';

/** A row's label, description, icon id and context value, from the exported tree provider. */
function row(probing: ProbingApi, node: ProbeTreeNode): { label: string; description: string; icon: string; context: string; tooltip: string } {
  const item = probing.tree.getTreeItem(node);
  const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
  const tooltip = item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : String(item.tooltip ?? '');
  return { label, description: String(item.description ?? ''), icon: (item.iconPath as vscode.ThemeIcon).id, context: item.contextValue ?? '', tooltip };
}

/** session → pod → container → probe rows as `label: description [icon]` lines, indented by depth. */
function treeText(probing: ProbingApi, session: ProbingSession): string[] {
  const lines: string[] = [];
  const walk = (node: ProbeTreeNode, depth: number) => {
    const r = row(probing, node);
    lines.push(`${'  '.repeat(depth)}${r.label}: ${r.description} [${r.icon}]`);
    for (const child of probing.tree.getChildren(node)) walk(child, depth + 1);
  };
  const root = probing.tree.getChildren().find((n) => n.session === session);
  if (root) walk(root, 0);
  return lines;
}

function nodeOf(probing: ProbingApi, session: ProbingSession, pod?: string, container?: string, probe?: 'liveness' | 'readiness' | 'startup'): ProbeTreeNode {
  const node = probing.tree.find(session, pod, container, probe);
  assert.ok(node, `a tree row for ${[session.id, pod, container, probe].filter(Boolean).join('/')}`);
  return node;
}

function liveMessages(probing: ProbingApi, uri: vscode.Uri): string[] {
  return probing.liveDiagnostics.diagnostics(uri).map((d) => `${d.range.start.line}:${d.range.start.character} ${vscode.DiagnosticSeverity[d.severity]} ${d.message}`);
}

/** Sockets and timers are what a stopped session could leave behind. */
function leftovers(before: Record<string, number>): string[] {
  const after = activeCounts();
  return ['TCPSocketWrap', 'TCPWRAP', 'Timeout', 'ProcessWrap'].filter((type) => (after[type] ?? 0) > (before[type] ?? 0)).map((type) => `${type} ${before[type] ?? 0} → ${after[type]}`);
}

const READINESS_KEY = '14:6';

test('a local session probes a real server: tree reaches ready, a 503 shows as a live diagnostic and clears, stop leaves nothing', async () => {
  const probing = await probingApi();
  const server = await startHealthServer();
  const restore = await withSetting('local.portMap', { '8080': server.port }, vscode.ConfigurationTarget.Workspace);
  try {
    const document = await openFixture('probing/web.yaml');
    await sleep(300); // settle what opening the file started in the workbench
    const before = activeCounts();

    const started = await vscode.commands.executeCommand<LocalStarted | undefined>('probeLens.startProbing', { uri: document.uri });
    assert.ok(started, 'startProbing returned the session');
    const { session } = started;
    assert.equal(started.exec, 'none');
    assert.equal(probing.sessions.forDocument(document.uri), session);
    assert.equal(session.kind, 'local');

    // Ready: both probes pass and the container is ready.
    await waitFor(() => row(probing, nodeOf(probing, session, 'web', 'web')).description.startsWith('ready'), 10_000, () => `the container to be ready; tree:\n${treeText(probing, session).join('\n')}`);
    const ready = row(probing, nodeOf(probing, session, 'web', 'web', 'readiness'));
    assert.equal(ready.icon, 'pass');
    assert.equal(ready.context, 'probe.readiness');
    assert.match(ready.description, /^\d+\/\d+ ok · \d+ ms$/);
    assert.equal(row(probing, nodeOf(probing, session, 'web', 'web')).context, 'container');
    assert.equal(row(probing, nodeOf(probing, session, 'web')).description, 'ready');
    const sessionRow = row(probing, nodeOf(probing, session));
    assert.equal(sessionRow.context, 'session');
    assert.match(sessionRow.description, /^local · 127\.0\.0\.1 · 1\/1 ready$/);
    // The status bar and diagnostics redraw on the sessions' throttled change (≤ 4 a second).
    await waitFor(() => probing.statusBar.text === '$(pulse) 1 ready / 1', 2_000, () => `the status bar to say 1 ready; it says ${probing.statusBar.text}`);
    assert.deepEqual(liveMessages(probing, document.uri), []);

    // 503: the kubelet's own event text, on the probe keys; the readiness one is an Error (threshold 1 reached).
    server.status = 503;
    await waitFor(() => liveMessages(probing, document.uri).includes(`${READINESS_KEY} Error Readiness probe failed: HTTP probe failed with statuscode: 503`), 10_000, () => `the readiness diagnostic; saw ${JSON.stringify(liveMessages(probing, document.uri))}`);
    await waitFor(() => row(probing, nodeOf(probing, session, 'web', 'web', 'readiness')).icon === 'error', 5_000, 'the readiness row to show failing');
    const failing = row(probing, nodeOf(probing, session, 'web', 'web', 'readiness'));
    assert.match(failing.description, /^failing 1\/1 · \d+\/\d+ ok$/);
    assert.match(failing.tooltip, /HTTP probe failed with statuscode: 503/);
    assert.match(row(probing, nodeOf(probing, session, 'web', 'web')).description, /^started · not ready · restarts 0$/);
    // The same failures reach the shared Problems list with source probe-lens.
    await waitFor(() => probeLensDiagnostics(document.uri).some((d) => d.message === 'Readiness probe failed: HTTP probe failed with statuscode: 503'), 5_000, 'the live diagnostic in getDiagnostics');
    await waitFor(() => probing.statusBar.text === '$(error) web: readiness failing', 2_000, () => `the status bar to say failing; it says ${probing.statusBar.text}`);

    // Healthy again: the diagnostics clear, the row passes.
    server.status = 200;
    await waitFor(() => liveMessages(probing, document.uri).length === 0, 10_000, () => `the diagnostics to clear; saw ${JSON.stringify(liveMessages(probing, document.uri))}`);
    await waitFor(() => row(probing, nodeOf(probing, session, 'web', 'web', 'readiness')).icon === 'pass', 5_000, 'the readiness row to pass again');

    // An edit restarts only the edited probe's worker: readiness counts start afresh, liveness keeps counting.
    const livenessBefore = session.summary.pods.get('web')?.containers.get('web')?.probes.get('liveness')?.attempts ?? 0;
    const path = document.getText().indexOf('/healthz');
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(document.positionAt(path), document.positionAt(path + '/healthz'.length)), '/missing');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor(() => liveMessages(probing, document.uri).includes(`${READINESS_KEY} Error Readiness probe failed: HTTP probe failed with statuscode: 404`), 10_000, () => `the edited probe's 404; saw ${JSON.stringify(liveMessages(probing, document.uri))}`);
    const liveness = session.summary.pods.get('web')?.containers.get('web')?.probes.get('liveness')?.attempts ?? 0;
    assert.ok(liveness >= livenessBefore, `liveness kept its counts (${livenessBefore} → ${liveness})`);
    await vscode.window.showTextDocument(document, { preview: false });
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await waitFor(() => liveMessages(probing, document.uri).length === 0, 10_000, 'the reverted probe to pass');

    // Stop: the session, its diagnostics, the status bar item and every socket and timer go.
    const stopped = await vscode.commands.executeCommand<number>('probeLens.stopProbing', { uri: document.uri });
    assert.equal(stopped, 1);
    assert.ok(session.isStopped);
    assert.equal(probing.sessions.forDocument(document.uri), undefined);
    await waitFor(() => probing.liveDiagnostics.diagnostics(document.uri).length === 0, 2_000, 'live diagnostics cleared');
    assert.equal(probing.statusBar.text, undefined);
    assert.deepEqual(probing.tree.getChildren().filter((n) => n.session === session), []);
    await waitFor(() => server.open() === 0, 5_000, () => `the server's connections to close (${server.open()} open)`);
    const requests = server.requests;
    await waitFor(() => leftovers(before).length === 0, 5_000, () => `no socket or timer left: ${leftovers(before).join(', ')}`);
    await sleep(1500);
    assert.equal(server.requests, requests, 'no probe after stop');
  } finally {
    probing.sessions.stopAll();
    await restore();
    await server.close();
  }
}, { timeoutMs: 90_000 });

test('runProbeOnce (uri, pod, container, probe): one attempt, the kubelet\'s text, nothing left running', async () => {
  const probing = await probingApi();
  const server = await startHealthServer();
  const restore = await withSetting('local.portMap', { '8080': server.port }, vscode.ConfigurationTarget.Workspace);
  try {
    const document = await openFixture('probing/web.yaml');
    const ok = await vscode.commands.executeCommand<ProbeOnceResult | undefined>('probeLens.runProbeOnce', document.uri, 'web', 'web', 'readiness');
    assert.equal(ok?.outcome.result, 'success');
    assert.equal(ok?.outcome.output, 'ok');
    assert.equal(server.requests, 1);
    server.status = 503;
    const failed = await vscode.commands.executeCommand<ProbeOnceResult | undefined>('probeLens.runProbeOnce', { uri: document.uri, pod: 'web', container: 'web', probe: 'liveness' });
    assert.equal(failed?.outcome.result, 'failure');
    assert.equal(failed?.message, 'Liveness probe failed: HTTP probe failed with statuscode: 503');
    assert.equal(probing.sessions.all.length, 0, 'a one-off probe starts no session');
    await waitFor(() => server.open() === 0, 5_000, 'the one-off connections to close');
  } finally {
    await restore();
    await server.close();
  }
}, { timeoutMs: 30_000 });

test('a simulation with the scenario beside the manifest, played fast; restartContainer kills and the kubelet restarts', async () => {
  const probing = await probingApi();
  const document = await openFixture('probing/sim.yaml');
  const before = activeCounts();
  const session = await vscode.commands.executeCommand<ProbingSession | undefined>('probeLens.simulate', { uri: document.uri, scenario: fixtureUri('probing/sim.scenario.yaml'), speed: 60 });
  assert.ok(session, 'simulate returned the session');
  try {
    assert.equal(session.kind, 'simulated');
    const container = () => row(probing, nodeOf(probing, session, 'sim', 'app'));
    assert.equal(container().context, 'container.simulated');
    // readyAfter 20 s (virtual): at 60× the container is ready within a second or so.
    await waitFor(() => container().description === 'ready · restarts 0', 10_000, () => `ready; tree:\n${treeText(probing, session).join('\n')}`);
    assert.match(row(probing, nodeOf(probing, session, 'sim')).description, /^ready$/);
    assert.match(row(probing, nodeOf(probing, session, 'sim', 'app', 'readiness')).description, /^\d+\/\d+ ok · \d+ ms$/);

    const outcome = await vscode.commands.executeCommand('probeLens.restartContainer', { uri: document.uri, pod: 'sim', container: 'app' });
    assert.equal(outcome, 'restarting');
    // Killed now (exit 137); the kubelet's sync that restarts it (B2: at once, the first time) follows on the clock.
    const containerLines = () => session.events.events().flatMap((e) => (e.type === 'container' && e.container === 'app' ? [`${e.state} ${e.restartCount}${e.reason ? ` ${e.reason}` : ''}`] : []));
    await waitFor(() => containerLines().length >= 3, 5_000, () => `the restart; saw ${containerLines().join(', ')}`);
    assert.deepEqual(containerLines().slice(0, 3), ['running 0', 'terminated 0 Error', 'running 1']);
    // The new instance replays the scenario from 0: not ready for 20 virtual seconds, then ready.
    await waitFor(() => container().description === 'ready · restarts 1', 10_000, () => `ready after the restart; saw ${container().description}`);

    assert.equal(await vscode.commands.executeCommand('probeLens.restartContainer', { uri: document.uri, pod: 'sim', container: 'nope' }), 'unknown-container');

    // ~20 events a second reach the session; the tree redraws at most 4 times a second.
    const eventsBefore = session.events.total;
    const refreshesBefore = probing.tree.refreshes;
    await sleep(2_000);
    const refreshes = probing.tree.refreshes - refreshesBefore;
    assert.ok(session.events.total - eventsBefore > 20, `events kept coming (${session.events.total - eventsBefore})`);
    assert.ok(refreshes >= 1 && refreshes <= 9, `${refreshes} tree refreshes in 2 s`);
  } finally {
    await vscode.commands.executeCommand('probeLens.stopProbing', { uri: document.uri });
  }
  assert.ok(session.isStopped);
  const elapsed = session.elapsedSeconds;
  await sleep(300);
  assert.equal(session.elapsedSeconds, elapsed, 'the virtual clock stops with the session');
  await waitFor(() => leftovers(before).length === 0, 5_000, () => `no timer left: ${leftovers(before).join(', ')}`);
}, { timeoutMs: 40_000 });

test('simulate with a new scenario from the template: the file is created beside the manifest, opened, and played', async () => {
  const probing = await probingApi();
  const document = await openFixture('probing/template.yaml');
  const session = await vscode.commands.executeCommand<ProbingSession | undefined>('probeLens.simulate', { uri: document.uri, createScenario: true, speed: 600 });
  assert.ok(session, 'simulate returned the session');
  try {
    const scenario = fixtureUri('probing/template.scenario.yaml');
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(scenario));
    assert.match(text, /^containers:\n {2}api:\n {4}readyAfter: 20 /m);
    await waitFor(() => vscode.workspace.textDocuments.some((d) => d.uri.toString() === scenario.toString()), 5_000, 'the scenario to be opened');
    assert.match(session.options.detail, /^600× · template\.scenario\.yaml$/);
    // readyAfter 20 s: the startup probe (period 2 s) passes at about 20–22 virtual seconds.
    await waitFor(() => row(probing, nodeOf(probing, session, 'fresh', 'api', 'startup')).icon === 'pass', 10_000, () => `startup to pass; tree:\n${treeText(probing, session).join('\n')}`);
    assert.equal(probing.sessions.all.filter((s) => s.kind === 'simulated').length, 1);
  } finally {
    session.dispose();
  }
  assert.equal(probing.sessions.all.length, 0);
}, { timeoutMs: 30_000 });

test('moving the cursor onto a probe of a probed manifest selects its row in the Probes view', async () => {
  const probing = await probingApi();
  const document = await openFixture('probing/sim.yaml');
  const session = await vscode.commands.executeCommand<ProbingSession | undefined>('probeLens.simulate', { uri: document.uri, scenario: fixtureUri('probing/sim.scenario.yaml'), speed: 10 });
  assert.ok(session);
  try {
    await vscode.commands.executeCommand('probeLens.probes.focus');
    await waitFor(() => probing.treeView.visible, 5_000, 'the Probes view to be shown');
    const editor = await vscode.window.showTextDocument(document, { preview: false });
    const line = document.getText().split('\n').findIndex((l) => l.includes('livenessProbe:'));
    editor.selection = new vscode.Selection(line + 1, 12, line + 1, 12);
    await waitFor(() => probing.treeView.selection[0]?.id === `${session.id}/sim/app/liveness`, 5_000, () => `the liveness row selected; selection ${probing.treeView.selection.map((n) => n.id).join(', ')}`);
  } finally {
    session.dispose();
  }
}, { timeoutMs: 30_000 });
